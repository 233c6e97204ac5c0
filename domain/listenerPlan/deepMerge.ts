/**
 * Deep merge of user overrides (`ListenerClass.spec.serviceOverrides`, a Listener's
 * `objectOverrides`) over a generated object.
 *
 * Rules, chosen to match what `kubectl patch --type merge` users expect while keeping
 * named lists (ports) editable one entry at a time:
 * - objects merge key by key, recursively;
 * - `null` in the override removes the key (RFC 7386);
 * - a list whose entries on both sides are all objects with a string `name` merges entry by
 *   entry on `name` (new names are appended) — so `spec.ports: [{name: http, nodePort: 30080}]`
 *   pins one port without restating the others;
 * - any other list, and every scalar, is replaced.
 */
import { isJsonObject } from "./json.ts"

const isNamedList = (u: unknown): u is ReadonlyArray<Record<string, unknown> & { name: string }> =>
  Array.isArray(u) && u.length > 0 && u.every((entry) => isJsonObject(entry) && typeof entry["name"] === "string")

const mergeNamedLists = (
  base: ReadonlyArray<Record<string, unknown> & { name: string }>,
  override: ReadonlyArray<Record<string, unknown> & { name: string }>
): unknown[] => {
  const merged: unknown[] = base.map((entry) => {
    const patch = override.find((candidate) => candidate.name === entry.name)
    return patch === undefined ? entry : deepMerge(entry, patch)
  })
  for (const entry of override) {
    if (!base.some((candidate) => candidate.name === entry.name)) merged.push(deepMerge(undefined, entry))
  }
  return merged
}

/** `override` merged over `base`; neither input is modified. */
export const deepMerge = (base: unknown, override: unknown): unknown => {
  if (isJsonObject(override)) {
    const result: Record<string, unknown> = isJsonObject(base) ? { ...base } : {}
    for (const [key, value] of Object.entries(override)) {
      if (value === null) delete result[key]
      else if (value !== undefined) result[key] = deepMerge(result[key], value)
    }
    return result
  }
  if (isNamedList(base) && isNamedList(override)) return mergeNamedLists(base, override)
  return override
}
