/**
 * Field ownership (managedFields) and server-side apply, following the API server's field
 * manager (k8s.io/apimachinery/pkg/util/managedfields + structured-merge-diff's Updater):
 *
 * - apply: merge the configuration into the live object, remove what this manager applied
 *   last time and no longer applies (unless someone else still owns it), refuse changes to
 *   fields other managers own (unless forced, which moves ownership);
 * - every other write (create, update, patch): the writer takes ownership of the fields it
 *   changed, other managers lose them, removed fields are owned by nobody.
 */
import type { ManagedFieldsEntry } from "../../effects/shared/KubeApi.ts"
import { compare, coveredBy, FieldSet, fromFieldsV1, isUnchanged, merge, pathString, removePath, toFieldSet, toFieldsV1 } from "./fieldSet.ts"
import type { FieldSetPath } from "./fieldSet.ts"
import { clone, deepEqual } from "./json.ts"
import type { JsonObject } from "./json.ts"
import type { TypeDef } from "./schemas.ts"

export interface ManagerId {
  readonly manager: string
  readonly operation: "Apply" | "Update"
  readonly subresource?: string | undefined
}

export interface ManagedEntry extends ManagerId {
  readonly apiVersion: string
  readonly time: string
  readonly set: FieldSet
}

export interface Conflict {
  readonly owner: ManagedEntry
  readonly path: FieldSetPath
}

const sameManager = (a: ManagerId, b: ManagerId): boolean =>
  a.manager === b.manager && a.operation === b.operation && (a.subresource ?? "") === (b.subresource ?? "")

/** Metadata the server manages itself: never owned by anyone (stripmeta.go). */
const SYSTEM_FIELDS: ReadonlyArray<ReadonlyArray<string>> = [
  ["apiVersion"],
  ["kind"],
  ["metadata", "name"],
  ["metadata", "namespace"],
  ["metadata", "uid"],
  ["metadata", "resourceVersion"],
  ["metadata", "generation"],
  ["metadata", "creationTimestamp"],
  ["metadata", "managedFields"],
  ["metadata", "selfLink"],
  ["metadata", "deletionTimestamp"],
  ["metadata", "deletionGracePeriodSeconds"]
]

const hasFieldPrefix = (path: FieldSetPath, prefix: ReadonlyArray<string>): boolean =>
  prefix.length <= path.length && prefix.every((name, i) => {
    const pe = path[i]!
    return "f" in pe && pe.f === name
  })

/** Drops system fields and the subresource's reset fields (e.g. `status` on the main resource). */
const trackable = (ignored: ReadonlyArray<ReadonlyArray<string>>) => (path: FieldSetPath): boolean =>
  !SYSTEM_FIELDS.some((p) => hasFieldPrefix(path, p)) && !ignored.some((p) => hasFieldPrefix(path, p))

const NEVER_PRUNED: ReadonlyArray<ReadonlyArray<string>> = [["apiVersion"], ["kind"], ["metadata"]]

const ancestorsAndSelf = (path: FieldSetPath): Array<FieldSetPath> => {
  const out: Array<FieldSetPath> = []
  for (let n = 1; n <= path.length; n++) out.push(path.slice(0, n))
  return out
}

/**
 * Removes what the applier owned before and owns no more, unless another manager (or the
 * applier's new configuration) still owns it or something below it.
 */
const prune = (merged: JsonObject, last: FieldSet, owned: FieldSet, type: TypeDef): JsonObject => {
  if (last.isEmpty()) return merged
  const coverage = owned.coverage()
  const candidates = new Map<string, FieldSetPath>()
  for (const path of last.toArray()) {
    for (const p of ancestorsAndSelf(path)) {
      const isProtected = NEVER_PRUNED.some((n) => n.length === p.length && hasFieldPrefix(p, n)) ||
        SYSTEM_FIELDS.some((s) => hasFieldPrefix(p, s))
      if (!isProtected) candidates.set(JSON.stringify(p), p)
    }
  }
  const out = clone(merged)
  const removed: Array<FieldSetPath> = []
  const sorted = [...candidates.values()].sort((a, b) => a.length - b.length)
  for (const path of sorted) {
    if (removed.some((r) => r.length < path.length && JSON.stringify(path.slice(0, r.length)) === JSON.stringify(r))) continue
    if (coveredBy(coverage, path)) continue
    removePath(out, path, type)
    removed.push(path)
  }
  return out
}

export interface ApplyInput {
  /** The stored object, or undefined when apply creates it. */
  readonly live: JsonObject | undefined
  readonly config: JsonObject
  readonly type: TypeDef
  readonly entries: ReadonlyArray<ManagedEntry>
  readonly manager: string
  readonly subresource?: string | undefined
  readonly apiVersion: string
  readonly force: boolean
  /** Top-level paths this endpoint resets (status on the main resource, spec on /status). */
  readonly ignored: ReadonlyArray<ReadonlyArray<string>>
  readonly now: string
}

export type ApplyOutcome =
  | { readonly _tag: "Applied"; readonly object: JsonObject; readonly entries: ReadonlyArray<ManagedEntry> }
  | { readonly _tag: "Conflicts"; readonly conflicts: ReadonlyArray<Conflict> }

/** Server-side apply of `config` onto `live` (Updater.Apply). */
export const applyConfiguration = (input: ApplyInput): ApplyOutcome => {
  const id: ManagerId = { manager: input.manager, operation: "Apply", subresource: input.subresource }
  const keep = trackable(input.ignored)
  const live = input.live ?? {}
  const configSet = toFieldSet(input.config, input.type, true).filter(keep)
  const merged = merge(live, input.config, input.type) as JsonObject
  const previous = input.entries.find((e) => sameManager(e, id))
  const others = input.entries.filter((e) => !sameManager(e, id))
  const owned = others.reduce((acc, e) => acc.union(e.set), configSet)
  const result = prune(merged, previous?.set ?? FieldSet.empty, owned, input.type)

  const diff = compare(live, result, input.type)
  const changed = diff.modified.union(diff.added).filter(keep)
  const removed = diff.removed.filter(keep)
  const conflicts: Array<Conflict> = []
  for (const other of others) {
    for (const path of other.set.intersection(changed).toArray()) conflicts.push({ owner: other, path })
  }
  if (conflicts.length > 0 && !input.force) return { _tag: "Conflicts", conflicts }

  const objectChanged = !deepEqual(live, result)
  const entries: Array<ManagedEntry> = []
  for (const other of input.entries) {
    if (sameManager(other, id)) continue
    const set = other.set.difference(changed).difference(removed)
    if (!set.isEmpty()) entries.push(set.equals(other.set) ? other : { ...other, set })
  }
  // A manager left owning nothing disappears from managedFields, as on the server.
  if (!configSet.isEmpty()) {
    entries.push({
      ...id,
      apiVersion: input.apiVersion,
      time: objectChanged || previous === undefined ? input.now : previous.time,
      set: configSet
    })
  }
  return { _tag: "Applied", object: result, entries }
}

export interface UpdateInput {
  readonly live: JsonObject | undefined
  readonly next: JsonObject
  readonly type: TypeDef
  readonly entries: ReadonlyArray<ManagedEntry>
  readonly manager: string
  readonly subresource?: string | undefined
  readonly apiVersion: string
  readonly ignored: ReadonlyArray<ReadonlyArray<string>>
  readonly now: string
}

/** Ownership after a non-apply write (Updater.Update): the writer takes what it changed. */
export const recordUpdate = (input: UpdateInput): ReadonlyArray<ManagedEntry> => {
  // Objects that carry no managed fields at all are left untracked on update, as the
  // server's skip-non-applied manager does; creates are always tracked.
  if (input.live !== undefined && input.entries.length === 0) return []
  const id: ManagerId = { manager: input.manager, operation: "Update", subresource: input.subresource }
  const keep = trackable(input.ignored)
  const diff = compare(input.live ?? {}, input.next, input.type)
  if (isUnchanged(diff)) return input.entries
  const changed = diff.modified.union(diff.added).filter(keep)
  const removed = diff.removed.filter(keep)
  const entries: Array<ManagedEntry> = []
  let mine: ManagedEntry | undefined
  for (const entry of input.entries) {
    if (sameManager(entry, id)) {
      mine = entry
      continue
    }
    const set = entry.set.difference(changed).difference(removed)
    if (!set.isEmpty()) entries.push(set.equals(entry.set) ? entry : { ...entry, set })
  }
  const previousSet = mine?.set.difference(removed) ?? FieldSet.empty
  const set = previousSet.union(changed)
  if (!set.isEmpty()) {
    const time = changed.isEmpty() && mine !== undefined ? mine.time : input.now
    entries.push({ ...id, apiVersion: input.apiVersion, time, set })
  }
  return entries
}

/** Removes nothing but fields that no longer exist (server-internal writes such as GC patches). */
export const forgetRemoved = (
  live: JsonObject,
  next: JsonObject,
  type: TypeDef,
  entries: ReadonlyArray<ManagedEntry>
): ReadonlyArray<ManagedEntry> => {
  const removed = compare(live, next, type).removed
  if (removed.isEmpty()) return entries
  return entries.map((e) => ({ ...e, set: e.set.difference(removed) })).filter((e) => !e.set.isEmpty())
}

const operationOrder = (e: ManagedEntry): number => (e.operation === "Apply" ? 0 : 1)

/** `metadata.managedFields` as the server renders it, sorted like sortEncodedManagedFields. */
export const renderManagedFields = (entries: ReadonlyArray<ManagedEntry>): Array<ManagedFieldsEntry> =>
  [...entries]
    .sort((a, b) =>
      operationOrder(a) - operationOrder(b) || a.time.localeCompare(b.time) || a.manager.localeCompare(b.manager) ||
      (a.subresource ?? "").localeCompare(b.subresource ?? "")
    )
    .map((e) => ({
      manager: e.manager,
      operation: e.operation,
      apiVersion: e.apiVersion,
      time: e.time,
      fieldsType: "FieldsV1",
      fieldsV1: toFieldsV1(e.set),
      ...(e.subresource === undefined ? {} : { subresource: e.subresource })
    }))

const printManager = (e: ManagedEntry): string => {
  const name = JSON.stringify(e.manager)
  const withSub = e.subresource === undefined ? name : `${name} with subresource ${JSON.stringify(e.subresource)}`
  // The server prints the manager identifier, which never includes the time.
  return e.operation === "Update" ? `${withSub} using ${e.apiVersion}` : withSub
}

/** The server's apply-conflict message (managedfields/internal/conflict.go). */
export const conflictMessage = (conflicts: ReadonlyArray<Conflict>): string => {
  if (conflicts.length === 1) {
    const c = conflicts[0]!
    return `Apply failed with 1 conflict: conflict with ${printManager(c.owner)}: ${pathString(c.path)}`
  }
  const byManager = new Map<string, Array<string>>()
  for (const c of conflicts) {
    const key = printManager(c.owner)
    byManager.set(key, [...(byManager.get(key) ?? []), pathString(c.path)])
  }
  const lines: Array<string> = []
  for (const manager of [...byManager.keys()].sort()) {
    lines.push(`conflicts with ${manager}:`)
    for (const path of byManager.get(manager)!) lines.push(`- ${path}`)
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join("\n")}`
}

export const conflictCauses = (conflicts: ReadonlyArray<Conflict>) =>
  conflicts.map((c) => ({
    reason: "FieldManagerConflict",
    message: `conflict with ${printManager(c.owner)}`,
    field: pathString(c.path)
  }))

/**
 * The managed fields a non-apply write carries in its body, when it carries any: the
 * server then takes them as the object's ownership before recording the write
 * (FieldManager.Update: "this is necessary to allow directly updating managed fields").
 * Undefined — keep the live ownership — when the body has none or they do not decode.
 */
export const requestedManagedFields = (value: unknown): ReadonlyArray<ManagedEntry> | undefined => {
  if (!Array.isArray(value) || value.length === 0) return undefined
  const entries: Array<ManagedEntry> = []
  for (const raw of value as ReadonlyArray<ManagedFieldsEntry>) {
    if (typeof raw !== "object" || raw === null) return undefined
    if (raw.manager === undefined || (raw.operation !== "Apply" && raw.operation !== "Update")) return undefined
    if (raw.fieldsType !== undefined && raw.fieldsType !== "FieldsV1") return undefined
    const set = fromFieldsV1(raw.fieldsV1 ?? {})
    if (set === undefined) return undefined
    const id: ManagerId = { manager: raw.manager, operation: raw.operation, subresource: raw.subresource }
    if (entries.some((e) => sameManager(e, id))) return undefined
    entries.push({ ...id, apiVersion: raw.apiVersion ?? "", time: raw.time ?? "", set })
  }
  return entries
}
