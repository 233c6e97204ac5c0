/**
 * resourceVersion ordering. The API server documents resourceVersions as opaque, but every
 * etcd-backed server (and our in-memory adapter) issues decimal integers from one counter
 * per resource; client-go's informers and kube-rs rely on the same fact to drop stale
 * events. Values are compared as big integers because etcd revisions may exceed 2^53.
 */

const decimal = /^[0-9]+$/u

const parse = (version: string | undefined): bigint | undefined =>
  version !== undefined && decimal.test(version) ? BigInt(version) : undefined

/**
 * True unless `candidate` is provably not newer than `current` (both decimal and
 * candidate <= current). An unparsable version never blocks an update: the API server
 * stays the authority, and a stale write is corrected by the next watch event.
 */
export const isNewerVersion = (candidate: string | undefined, current: string | undefined): boolean => {
  const a = parse(candidate)
  const b = parse(current)
  return a === undefined || b === undefined || a > b
}

/** True when `candidate` is provably at least as new as `current`. */
export const isAtLeastVersion = (candidate: string | undefined, current: string | undefined): boolean => {
  const a = parse(candidate)
  const b = parse(current)
  return a === undefined || b === undefined || a >= b
}
