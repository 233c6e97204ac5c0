/**
 * Plain-JSON helpers for the in-memory API server: objects are stored and exchanged as
 * JSON values, so cloning, equality and null-pruning are defined on JSON only.
 */

export type JsonObject = Record<string, unknown>

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** A deep copy through JSON, which also drops `undefined` members as the wire would. */
export const clone = <A>(value: A): A => (value === undefined ? value : JSON.parse(JSON.stringify(value)))

export const deepEqual = (a: unknown, b: unknown): boolean => {
  if (a === b) return true
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    return a.every((item, i) => deepEqual(item, b[i]))
  }
  if (isObject(a)) {
    if (!isObject(b)) return false
    const aKeys = Object.keys(a).filter((k) => a[k] !== undefined)
    const bKeys = Object.keys(b).filter((k) => b[k] !== undefined)
    if (aKeys.length !== bKeys.length) return false
    return aKeys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]))
  }
  return false
}

/**
 * Removes `null` members of objects, recursively. Typed Kubernetes objects cannot hold a
 * null field and structural CRD schemas prune nulls of non-nullable fields, so a stored
 * object never carries them.
 */
export const dropNulls = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(dropNulls)
  if (isObject(value)) {
    const out: JsonObject = {}
    for (const [k, v] of Object.entries(value)) {
      if (v === null || v === undefined) continue
      out[k] = dropNulls(v)
    }
    return out
  }
  return value
}

/** Sorted-key JSON, the canonical form used for list-map keys and set values. */
export const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`
  if (isObject(value)) {
    const keys = Object.keys(value).filter((k) => value[k] !== undefined).sort()
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(",")}}`
  }
  return JSON.stringify(value)
}
