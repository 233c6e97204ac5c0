/**
 * Plain JSON values as the planners build and compare them.
 *
 * Kubernetes objects cross into the planners as JSON; keeping one small vocabulary here
 * (is-object test, canonical text, deep equality) means the merge, the "already applied?"
 * check and the status comparison all agree on what "the same" means.
 */
export type Json = null | boolean | number | string | ReadonlyArray<Json> | JsonObject
export interface JsonObject {
  readonly [key: string]: Json
}

export const isJsonObject = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

/** JSON text with object keys sorted, so that equal values give equal text. */
export const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`
  if (isJsonObject(value)) {
    const keys = Object.keys(value).filter((key) => value[key] !== undefined).sort()
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(",")}}`
  }
  return JSON.stringify(value ?? null)
}

export const jsonEquals = (a: unknown, b: unknown): boolean => canonicalJson(a) === canonicalJson(b)

/** 64-bit FNV-1a of the canonical text, as 16 hex digits: a stable fingerprint of a value. */
export const fingerprint = (value: unknown): string => {
  const text = canonicalJson(value)
  let hash = 0xcbf29ce484222325n
  for (let i = 0; i < text.length; i++) {
    hash ^= BigInt(text.charCodeAt(i))
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn
  }
  return hash.toString(16).padStart(16, "0")
}
