/**
 * The two patch formats the port offers, with the semantics of the library the API server
 * uses (evanphx/json-patch): RFC 7386 JSON merge patch and RFC 6902 JSON patch. Results
 * are values, not exceptions: a malformed patch is `BadRequest` (400), a patch that does
 * not apply (missing path, failed `test`) is `Unprocessable` (422).
 *
 * Written here rather than taken from npm so the failure cases match the server's.
 */
import { clone, deepEqual, isObject } from "./json.ts"
import type { JsonObject } from "./json.ts"

export type PatchResult =
  | { readonly _tag: "Patched"; readonly value: unknown }
  | { readonly _tag: "BadRequest"; readonly message: string }
  | { readonly _tag: "Unprocessable"; readonly message: string }

/** RFC 7386: objects merge recursively, `null` deletes, everything else replaces. */
export const mergePatch = (target: unknown, patch: unknown): PatchResult => {
  if (!isObject(patch)) return { _tag: "BadRequest", message: "Invalid JSON Patch" }
  return { _tag: "Patched", value: applyMerge(target, patch) }
}

const applyMerge = (target: unknown, patch: unknown): unknown => {
  if (!isObject(patch)) return clone(patch)
  const out: JsonObject = isObject(target) ? { ...target } : {}
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key]
    else out[key] = applyMerge(out[key], value)
  }
  return out
}

interface Operation {
  readonly op: string
  readonly path: string
  readonly from?: string
  readonly value?: unknown
  readonly hasValue: boolean
}

const decodePointer = (pointer: string): Array<string> | undefined => {
  if (pointer === "") return []
  if (!pointer.startsWith("/")) return undefined
  return pointer.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"))
}

class NotApplicable {
  constructor(readonly message: string) {}
}

type Container = JsonObject | Array<unknown>

/** The container holding the last token of `tokens`, or NotApplicable. */
const parentOf = (doc: unknown, tokens: ReadonlyArray<string>, pointer: string): Container | NotApplicable => {
  let current: unknown = doc
  for (const token of tokens.slice(0, -1)) {
    if (Array.isArray(current)) {
      const index = Number(token)
      if (!/^\d+$/.test(token) || index >= current.length) {
        return new NotApplicable(`doc is missing path: "${pointer}": missing value`)
      }
      current = current[index]
    } else if (isObject(current)) {
      if (!(token in current)) return new NotApplicable(`doc is missing path: "${pointer}": missing value`)
      current = current[token]
    } else {
      return new NotApplicable(`doc is missing path: "${pointer}": missing value`)
    }
  }
  if (!Array.isArray(current) && !isObject(current)) {
    return new NotApplicable(`doc is missing path: "${pointer}": missing value`)
  }
  return current
}

const arrayIndex = (array: ReadonlyArray<unknown>, token: string, forInsert: boolean): number | undefined => {
  if (forInsert && token === "-") return array.length
  if (!/^\d+$/.test(token)) return undefined
  const index = Number(token)
  const limit = forInsert ? array.length : array.length - 1
  return index <= limit ? index : undefined
}

const getValue = (doc: unknown, pointer: string): { readonly found: boolean; readonly value?: unknown } => {
  const tokens = decodePointer(pointer)
  if (tokens === undefined) return { found: false }
  let current: unknown = doc
  for (const token of tokens) {
    if (Array.isArray(current)) {
      const index = arrayIndex(current, token, false)
      if (index === undefined) return { found: false }
      current = current[index]
    } else if (isObject(current) && token in current) {
      current = current[token]
    } else {
      return { found: false }
    }
  }
  return { found: true, value: current }
}

const add = (doc: unknown, pointer: string, value: unknown): unknown | NotApplicable => {
  const tokens = decodePointer(pointer)
  if (tokens === undefined) return new NotApplicable(`add operation does not apply: doc is missing path: "${pointer}"`)
  if (tokens.length === 0) return clone(value)
  const parent = parentOf(doc, tokens, pointer)
  if (parent instanceof NotApplicable) return new NotApplicable(`add operation does not apply: ${parent.message}`)
  const last = tokens[tokens.length - 1]!
  if (Array.isArray(parent)) {
    const index = arrayIndex(parent, last, true)
    if (index === undefined) return new NotApplicable(`Unable to access invalid index: ${last}: invalid index referenced`)
    parent.splice(index, 0, clone(value))
  } else {
    parent[last] = clone(value)
  }
  return doc
}

const remove = (doc: unknown, pointer: string, op = "remove"): unknown | NotApplicable => {
  const tokens = decodePointer(pointer)
  if (tokens === undefined || tokens.length === 0) {
    return new NotApplicable(`${op} operation does not apply: doc is missing path: "${pointer}"`)
  }
  const parent = parentOf(doc, tokens, pointer)
  if (parent instanceof NotApplicable) return new NotApplicable(`${op} operation does not apply: ${parent.message}`)
  const last = tokens[tokens.length - 1]!
  if (Array.isArray(parent)) {
    const index = arrayIndex(parent, last, false)
    if (index === undefined) return new NotApplicable(`Unable to access invalid index: ${last}: invalid index referenced`)
    parent.splice(index, 1)
  } else {
    if (!(last in parent)) return new NotApplicable(`Unable to remove nonexistent key: ${last}: missing value`)
    delete parent[last]
  }
  return doc
}

const applyOperation = (doc: unknown, op: Operation): unknown | NotApplicable => {
  switch (op.op) {
    case "add":
      return add(doc, op.path, op.value)
    case "remove":
      return remove(doc, op.path)
    case "replace": {
      const existing = getValue(doc, op.path)
      if (!existing.found) {
        return new NotApplicable(`replace operation does not apply: doc is missing key: ${op.path}: missing value`)
      }
      const removed = remove(doc, op.path, "replace")
      return removed instanceof NotApplicable ? removed : add(removed, op.path, op.value)
    }
    case "move":
    case "copy": {
      const from = getValue(doc, op.from ?? "")
      if (!from.found) return new NotApplicable(`${op.op} operation does not apply: doc is missing from path: ${op.from}`)
      const source = clone(from.value)
      const base = op.op === "move" ? remove(doc, op.from ?? "", "move") : doc
      return base instanceof NotApplicable ? base : add(base, op.path, source)
    }
    case "test": {
      const tokens = decodePointer(op.path)
      if (tokens === undefined) return new NotApplicable(`test operation does not apply: is missing path: ${op.path}`)
      if (tokens.length > 0 && parentOf(doc, tokens, op.path) instanceof NotApplicable) {
        return new NotApplicable(`test operation does not apply: is missing path: ${op.path}`)
      }
      const current = getValue(doc, op.path)
      const actual = current.found ? current.value : null
      const expected = op.hasValue ? op.value : null
      if (deepEqual(actual ?? null, expected ?? null)) return doc
      return new NotApplicable(`testing value ${op.path} failed: test failed`)
    }
    default:
      return new NotApplicable(`Unexpected kind: ${op.op}`)
  }
}

const decodeOperations = (patch: unknown): Array<Operation> | string => {
  if (!Array.isArray(patch)) return "json: cannot unmarshal object into Go value of type jsonpatch.Patch"
  const out: Array<Operation> = []
  for (const raw of patch) {
    if (!isObject(raw) || typeof raw["op"] !== "string" || typeof raw["path"] !== "string") {
      return "json: cannot unmarshal patch operation: each operation needs string \"op\" and \"path\""
    }
    out.push({
      op: raw["op"],
      path: raw["path"],
      ...(typeof raw["from"] === "string" ? { from: raw["from"] } : {}),
      value: raw["value"],
      hasValue: "value" in raw
    })
  }
  return out
}

/** RFC 6902 on a copy of `target`. */
export const jsonPatch = (target: unknown, patch: unknown): PatchResult => {
  const ops = decodeOperations(patch)
  if (typeof ops === "string") return { _tag: "BadRequest", message: ops }
  if (ops.length > 10000) return { _tag: "BadRequest", message: `The allowed maximum operations in a JSON patch is 10000, got ${ops.length}` }
  let doc: unknown = clone(target)
  for (const op of ops) {
    const next = applyOperation(doc, op)
    if (next instanceof NotApplicable) return { _tag: "Unprocessable", message: next.message }
    doc = next
  }
  return { _tag: "Patched", value: doc }
}
