/**
 * Handing field ownership from a predecessor's field managers to ours (server-side apply).
 *
 * An object another operator applied (the upstream listener-operator, say) keeps that
 * operator's `managedFields` entries after we take over. Server-side apply removes a field
 * we stop applying only if no other manager owns it, so every field the predecessor owned
 * would stay forever: a renamed port would leave its old entry behind and the API server
 * would refuse the Service ("Duplicate value"). The API server's documented way to change
 * managers — what client-go's csaupgrade does for kubectl — is to rewrite `managedFields`:
 * the predecessor's field sets are merged into our Apply entry, guarded by the object's
 * resourceVersion. From then on our applies own, keep and remove those fields as their own.
 *
 * `fieldsV1` is a trie of tokens (`f:<field>`, `k:<key json>`, `v:<value json>`,
 * `i:<index>`, and `.` for "this node itself"); the union of two sets is the deep merge
 * of their tries.
 */
import type { JsonObject } from "./listenerPlan/json.ts"
import { isJsonObject } from "./listenerPlan/json.ts"

export interface ManagedFieldsEntryInput {
  readonly manager?: string | undefined
  readonly operation?: string | undefined
  readonly apiVersion?: string | undefined
  readonly time?: string | undefined
  readonly fieldsType?: string | undefined
  readonly fieldsV1?: unknown
  readonly subresource?: string | undefined
}

/**
 * Field managers of the upstream listener-operator: its client names every writer
 * `<operator>/<scope>` (e.g. `listeners.stackable.tech/listener`), which none of ours
 * (`listeners.stackable.tech_<role>`) matches.
 */
export const UPSTREAM_FIELD_MANAGER_PREFIX = "listeners.stackable.tech/"

export const isUpstreamFieldManager = (manager: string | undefined): boolean =>
  manager !== undefined && manager.startsWith(UPSTREAM_FIELD_MANAGER_PREFIX)

/** The union of two `fieldsV1` tries. */
export const unionFieldsV1 = (a: unknown, b: unknown): JsonObject => {
  const left = isJsonObject(a) ? a : {}
  const right = isJsonObject(b) ? b : {}
  const out: Record<string, JsonObject> = {}
  for (const key of [...new Set([...Object.keys(left), ...Object.keys(right)])].sort()) {
    out[key] = key in left && key in right ? unionFieldsV1(left[key], right[key]) : ((key in left ? left[key] : right[key]) as JsonObject)
  }
  return out
}

const sameSubresource = (entry: ManagedFieldsEntryInput, subresource: string | undefined) =>
  (entry.subresource ?? "") === (subresource ?? "")

export interface FoldOptions {
  /** Our manager: its Apply entry receives the predecessors' fields. */
  readonly manager: string
  /** Whose entries to hand over. */
  readonly isPredecessor: (manager: string | undefined) => boolean
  /** Only entries of this subresource ("" or undefined: the main resource; "status"). */
  readonly subresource?: string | undefined
}

/** The predecessors' entries of that subresource: what `foldManagedFields` would hand over. */
export const predecessorEntries = (
  entries: ReadonlyArray<ManagedFieldsEntryInput>,
  options: FoldOptions
): ReadonlyArray<ManagedFieldsEntryInput> =>
  entries.filter((entry) => options.isPredecessor(entry.manager) && entry.manager !== options.manager && sameSubresource(entry, options.subresource))

/**
 * `entries` with every predecessor entry of the subresource merged into our Apply entry
 * (created if we have none yet). Other managers' entries (users, cloud controllers,
 * kube-controller-manager) are kept as they are: their fields are theirs.
 */
export const foldManagedFields = (
  entries: ReadonlyArray<ManagedFieldsEntryInput>,
  options: FoldOptions
): ReadonlyArray<ManagedFieldsEntryInput> => {
  const handed = predecessorEntries(entries, options)
  if (handed.length === 0) return entries
  const isOurApply = (entry: ManagedFieldsEntryInput) =>
    entry.manager === options.manager && entry.operation === "Apply" && sameSubresource(entry, options.subresource)
  const ours = entries.find(isOurApply)
  const template = ours ?? handed[0]!
  const fieldsV1 = [ours, ...handed].reduce<JsonObject>((acc, entry) => entry === undefined ? acc : unionFieldsV1(acc, entry.fieldsV1), {})
  const folded: ManagedFieldsEntryInput = {
    manager: options.manager,
    operation: "Apply",
    apiVersion: template.apiVersion,
    time: template.time,
    fieldsType: "FieldsV1",
    fieldsV1,
    ...(options.subresource === undefined || options.subresource === "" ? {} : { subresource: options.subresource })
  }
  const kept = entries.filter((entry) => !handed.includes(entry) && !isOurApply(entry))
  return [folded, ...kept]
}

/** The names (the `f:` tokens) directly below `path` in a `fieldsV1` trie, e.g. the label keys under metadata.labels. */
export const ownedFieldNames = (fieldsV1: unknown, path: ReadonlyArray<string>): ReadonlyArray<string> => {
  let node: unknown = fieldsV1
  for (const name of path) {
    if (!isJsonObject(node)) return []
    node = node[`f:${name}`]
  }
  if (!isJsonObject(node)) return []
  return Object.keys(node).filter((token) => token.startsWith("f:")).map((token) => token.slice(2))
}

/**
 * Does every path in the trie exist in `value`? Walks `f:` into objects, `k:` into list
 * entries carrying those key values, `v:` into lists holding that value. `i:` tokens
 * (positions, only in lists without keys) count as present when the list is long enough.
 */
export const fieldsPresentIn = (fieldsV1: unknown, value: unknown): boolean => {
  if (!isJsonObject(fieldsV1)) return true
  return Object.entries(fieldsV1).every(([token, below]) => {
    if (token === ".") return true
    const kind = token.slice(0, 2)
    const rest = token.slice(2)
    if (kind === "f:") return isJsonObject(value) && value[rest] !== undefined && fieldsPresentIn(below, value[rest])
    if (!Array.isArray(value)) return false
    if (kind === "k:") {
      const key = parseJson(rest)
      if (!isJsonObject(key)) return false
      const item = value.find((entry) => isJsonObject(entry) && Object.entries(key).every(([k, v]) => JSON.stringify(entry[k]) === JSON.stringify(v)))
      return item !== undefined && fieldsPresentIn(below, item)
    }
    if (kind === "v:") {
      const wanted = JSON.stringify(parseJson(rest))
      return value.some((entry) => JSON.stringify(entry) === wanted)
    }
    if (kind === "i:") return Number(rest) < value.length
    return false
  })
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
