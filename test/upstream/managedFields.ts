/**
 * Server-side apply bookkeeping as data: the part of an object a field manager owns,
 * read from its `metadata.managedFields[].fieldsV1` (the structured-merge-diff field set:
 * `f:<name>` a field, `k:<json>` a list item by its keys, `v:<json>` a set member,
 * `i:<n>` an item by index, `.` the node itself). Replaying an object manager by manager
 * with exactly these parts gives the same managedFields the upstream operator left.
 */

export type FieldSet = { readonly [key: string]: FieldSet }

export interface ManagedFieldsEntry {
  readonly manager: string
  readonly operation: "Apply" | "Update"
  readonly apiVersion?: string
  readonly time?: string
  readonly fieldsType?: string
  readonly fieldsV1?: FieldSet
  readonly subresource?: string
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** Maps of ObjectMeta that the server leaves out when empty. */
const EMPTY_MAPS = new Set(["labels", "annotations"])

const childKeys = (set: FieldSet): string[] => Object.keys(set).filter((k) => k !== ".")

const matchesKeys = (item: unknown, keys: Record<string, unknown>): boolean =>
  isPlainObject(item) && Object.entries(keys).every(([k, v]) => JSON.stringify(item[k]) === JSON.stringify(v))

/**
 * The part of `value` named by `set`. A leaf (a set with no children) is taken whole; a map
 * or list whose set names only `.` is taken empty (the manager owns its existence only);
 * labels or annotations the set names but `value` lacks are an empty map.
 */
export const ownedPart = (value: unknown, set: FieldSet): unknown => {
  const children = childKeys(set)
  if (children.length === 0) {
    if ("." in set) return Array.isArray(value) ? [] : isPlainObject(value) ? {} : value
    return value
  }
  if (Array.isArray(value)) {
    const out: unknown[] = []
    value.forEach((item, index) => {
      for (const key of children) {
        const sub = set[key]!
        if (key.startsWith("k:")) {
          const keys = JSON.parse(key.slice(2)) as Record<string, unknown>
          if (matchesKeys(item, keys)) out.push({ ...(ownedPart(item, sub) as Record<string, unknown>), ...keys })
        } else if (key.startsWith("v:")) {
          if (JSON.stringify(item) === JSON.stringify(JSON.parse(key.slice(2)))) out.push(item)
        } else if (key.startsWith("i:")) {
          if (Number(key.slice(2)) === index) out.push(ownedPart(item, sub))
        }
      }
    })
    return out
  }
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {}
    for (const key of children) {
      if (!key.startsWith("f:")) continue
      const name = key.slice(2)
      if (name in value) out[name] = ownedPart(value[name], set[key]!)
      // Owned but absent: the empty labels or annotations the manager applied, which the
      // server does not store; applying `{}` again gives the same ownership. (Other absent
      // fields — a false boolean the server omits — have no value to replay.)
      else if (EMPTY_MAPS.has(name) && childKeys(set[key]!).length === 0) out[name] = {}
    }
    return out
  }
  return value
}

/** The managedFields entries as comparable facts: manager, operation, subresource and field set, sorted. */
export const ownership = (entries: ReadonlyArray<ManagedFieldsEntry> | undefined): Array<{ manager: string; operation: string; subresource: string; fields: FieldSet }> =>
  (entries ?? [])
    .map((e) => ({ manager: e.manager, operation: e.operation, subresource: e.subresource ?? "", fields: e.fieldsV1 ?? {} }))
    .sort((a, b) => `${a.manager}/${a.operation}/${a.subresource}`.localeCompare(`${b.manager}/${b.operation}/${b.subresource}`))
