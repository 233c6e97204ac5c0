/**
 * Field paths and field sets, the vocabulary of server-side apply
 * (sigs.k8s.io/structured-merge-diff): which leaves and list items an object (or an
 * applied configuration) sets, how two objects differ path by path, and the `fieldsV1`
 * encoding the server stores in `metadata.managedFields`.
 */
import { canonicalJson, deepEqual, isObject } from "./json.ts"
import type { JsonObject } from "./json.ts"
import { childType, itemType } from "./schemas.ts"
import type { ListKey, TypeDef } from "./schemas.ts"

/** One step of a path: a field, a list-map item by key, a set item by value, or an index. */
export type PathElement =
  | { readonly f: string }
  | { readonly k: Readonly<Record<string, unknown>> }
  | { readonly v: unknown }
  | { readonly i: number }

export type FieldSetPath = ReadonlyArray<PathElement>

/** The `fieldsV1` token of a path element: `f:name`, `k:{"port":80}`, `v:"x"`, `i:0`. */
export const elementToken = (pe: PathElement): string => {
  if ("f" in pe) return `f:${pe.f}`
  if ("k" in pe) return `k:${canonicalJson(pe.k)}`
  if ("v" in pe) return `v:${canonicalJson(pe.v)}`
  return `i:${pe.i}`
}

const keyOf = (path: FieldSetPath): string => JSON.stringify(path.map(elementToken))

/** `.spec.ports[port=80,protocol="TCP"].name`, as the server prints paths in conflicts. */
export const pathString = (path: FieldSetPath): string =>
  path.map((pe) => {
    if ("f" in pe) return `.${pe.f}`
    if ("k" in pe) {
      const parts = Object.keys(pe.k).sort().map((name) => `${name}=${canonicalJson(pe.k[name])}`)
      return `[${parts.join(",")}]`
    }
    if ("v" in pe) return `[=${canonicalJson(pe.v)}]`
    return `[${pe.i}]`
  }).join("")

/** An immutable set of field paths. */
export class FieldSet {
  private constructor(private readonly paths: ReadonlyMap<string, FieldSetPath>) {}

  static readonly empty = new FieldSet(new Map())

  static of(paths: Iterable<FieldSetPath>): FieldSet {
    const map = new Map<string, FieldSetPath>()
    for (const p of paths) map.set(keyOf(p), p)
    return new FieldSet(map)
  }

  get size(): number {
    return this.paths.size
  }

  isEmpty(): boolean {
    return this.paths.size === 0
  }

  has(path: FieldSetPath): boolean {
    return this.paths.has(keyOf(path))
  }

  toArray(): ReadonlyArray<FieldSetPath> {
    return [...this.paths.values()]
  }

  union(other: FieldSet): FieldSet {
    const map = new Map(this.paths)
    for (const [k, p] of other.paths) map.set(k, p)
    return new FieldSet(map)
  }

  difference(other: FieldSet): FieldSet {
    return new FieldSet(new Map([...this.paths].filter(([k]) => !other.paths.has(k))))
  }

  intersection(other: FieldSet): FieldSet {
    return new FieldSet(new Map([...this.paths].filter(([k]) => other.paths.has(k))))
  }

  filter(keep: (path: FieldSetPath) => boolean): FieldSet {
    return new FieldSet(new Map([...this.paths].filter(([, p]) => keep(p))))
  }

  equals(other: FieldSet): boolean {
    return this.paths.size === other.paths.size && [...this.paths.keys()].every((k) => other.paths.has(k))
  }

  /** Every path and every ancestor of a path, as keys: "does anyone own something at or below X?". */
  coverage(): ReadonlySet<string> {
    const out = new Set<string>()
    for (const p of this.paths.values()) for (let n = 1; n <= p.length; n++) out.add(keyOf(p.slice(0, n)))
    return out
  }
}

export const coveredBy = (coverage: ReadonlySet<string>, path: FieldSetPath): boolean => coverage.has(keyOf(path))

// --- list-map keys -------------------------------------------------------------------

/** The key element of a list-map item, filling schema defaults for omitted key fields. */
export const listItemKey = (
  keys: ReadonlyArray<ListKey>,
  item: unknown
): { readonly k: Record<string, unknown> } | { readonly error: string } => {
  if (!isObject(item)) return { error: "associative list item is not an object" }
  const k: Record<string, unknown> = {}
  for (const key of keys) {
    const value = item[key.name] ?? key.default
    if (value === undefined) {
      return { error: `associative list with keys has an element that omits key field "${key.name}" (and doesn't have default value)` }
    }
    k[key.name] = value
  }
  return { k }
}

/** Thrown from deep inside a walk when an associative list item cannot be keyed. */
export class ListKeyError extends Error {
  constructor(readonly path: FieldSetPath, readonly detail: string) {
    super(`${pathString(path)}: ${detail}`)
  }
}

const itemElement = (type: TypeDef, item: unknown, path: FieldSetPath): PathElement => {
  if (type.kind === "set") return { v: item }
  if (type.kind !== "listMap") return { v: item }
  const key = listItemKey(type.keys, item)
  if ("error" in key) throw new ListKeyError(path, key.error)
  return key
}

// --- walking values ------------------------------------------------------------------

interface Entry {
  readonly path: FieldSetPath
  /** A list item node (its identity, not its content) rather than a leaf value. */
  readonly item: boolean
  readonly value: unknown
}

const collect = (
  value: unknown,
  type: TypeDef | undefined,
  path: FieldSetPath,
  out: Map<string, Entry>,
  strict: boolean
): void => {
  const leaf = () => out.set(keyOf(path), { path, item: false, value })
  if (type?.kind === "atomic") return void leaf()
  if (Array.isArray(value)) {
    if (type?.kind === "set") {
      for (const v of value) {
        const p = [...path, { v }]
        out.set(keyOf(p), { path: p, item: false, value: v })
      }
      return
    }
    if (type?.kind === "listMap") {
      const seen = new Set<string>()
      for (const item of value) {
        const p = [...path, itemElement(type, item, path)]
        const k = keyOf(p)
        if (seen.has(k) && strict) {
          throw new ListKeyError(path, `duplicate entries for key ${pathString(p.slice(path.length))}`)
        }
        if (seen.has(k)) continue
        seen.add(k)
        out.set(k, { path: p, item: true, value: undefined })
        if (isObject(item)) {
          for (const [field, v] of Object.entries(item)) collect(v, childType(itemType(type), field), [...p, { f: field }], out, strict)
        }
      }
      return
    }
    return void leaf()
  }
  if (isObject(value)) {
    const keys = Object.keys(value).filter((k) => value[k] !== undefined)
    if (keys.length === 0 && path.length > 0) return void leaf()
    for (const k of keys) collect(value[k], childType(type, k), [...path, { f: k }], out, strict)
    return
  }
  leaf()
}

const entriesOf = (value: unknown, type: TypeDef, strict = false): Map<string, Entry> => {
  const out = new Map<string, Entry>()
  collect(value, type, [], out, strict)
  return out
}

/**
 * The paths an object sets: leaves, empty objects, list-map and set items. `strict`
 * rejects duplicate list-map keys, as the server does for an applied configuration.
 */
export const toFieldSet = (value: unknown, type: TypeDef, strict = false): FieldSet =>
  FieldSet.of([...entriesOf(value, type, strict).values()].map((e) => e.path))

export interface Comparison {
  readonly added: FieldSet
  readonly removed: FieldSet
  readonly modified: FieldSet
}

/** Path-level difference of two objects (typed.Compare). */
export const compare = (before: unknown, after: unknown, type: TypeDef): Comparison => {
  const a = entriesOf(before, type)
  const b = entriesOf(after, type)
  const added: Array<FieldSetPath> = []
  const removed: Array<FieldSetPath> = []
  const modified: Array<FieldSetPath> = []
  for (const [k, e] of b) {
    const old = a.get(k)
    if (old === undefined) added.push(e.path)
    else if (!e.item && !deepEqual(old.value, e.value)) modified.push(e.path)
  }
  for (const [k, e] of a) if (!b.has(k)) removed.push(e.path)
  return { added: FieldSet.of(added), removed: FieldSet.of(removed), modified: FieldSet.of(modified) }
}

export const isUnchanged = (c: Comparison): boolean => c.added.isEmpty() && c.removed.isEmpty() && c.modified.isEmpty()

// --- merging -------------------------------------------------------------------------

const mergeList = (
  lhs: ReadonlyArray<unknown>,
  rhs: ReadonlyArray<unknown>,
  keyFor: (item: unknown) => string,
  mergeItem: (l: unknown, r: unknown) => unknown
): Array<unknown> => {
  // The item order structured-merge-diff produces: shared items in the applied order,
  // live-only items kept where they were, new items where the applied list puts them.
  const lhsKeys = lhs.map(keyFor)
  const rhsKeys = rhs.map(keyFor)
  const observedL = new Map<string, unknown>()
  lhs.forEach((item, i) => observedL.has(lhsKeys[i]!) || observedL.set(lhsKeys[i]!, item))
  const observedR = new Map<string, unknown>()
  rhs.forEach((item, i) => observedR.has(rhsKeys[i]!) || observedR.set(rhsKeys[i]!, item))
  const sharedOrder = rhsKeys.filter((k) => observedL.has(k))
  let nextShared = sharedOrder.shift()
  const mergedR = new Set<string>()
  const out: Array<unknown> = []
  let l = 0
  let r = 0
  while (l < lhs.length || r < rhs.length) {
    if (l < lhs.length && r < rhs.length) {
      const pe = lhsKeys[l]!
      if (pe === rhsKeys[r]) {
        mergedR.add(pe)
        out.push(mergeItem(observedL.get(pe), observedR.get(pe)))
        l++
        r++
        nextShared = sharedOrder.shift()
        continue
      }
      if (observedR.has(pe) && nextShared !== undefined && nextShared !== pe) {
        l++
        continue
      }
    }
    if (l < lhs.length) {
      const pe = lhsKeys[l]!
      if (!observedR.has(pe)) {
        out.push(lhs[l])
        l++
        continue
      } else if (mergedR.has(pe)) {
        l++
      }
    }
    if (r < rhs.length) {
      const pe = rhsKeys[r]!
      mergedR.add(pe)
      out.push(mergeItem(observedL.get(pe), observedR.get(pe)))
      r++
      if (nextShared === pe) nextShared = sharedOrder.shift()
    }
  }
  return out
}

/** Merges an applied configuration into a live value (typed.Merge): the configuration wins. */
export const merge = (lhs: unknown, rhs: unknown, type: TypeDef | undefined, path: FieldSetPath = []): unknown => {
  if (rhs === undefined) return lhs
  if (lhs === undefined || type?.kind === "atomic") return rhs
  if (Array.isArray(lhs) && Array.isArray(rhs)) {
    if (type?.kind === "listMap") {
      const keyFor = (item: unknown) => elementToken(itemElement(type, item, path))
      return mergeList(lhs, rhs, keyFor, (l, r) => merge(l, r, itemType(type) ?? { kind: "object" }, path))
    }
    if (type?.kind === "set") return mergeList(lhs, rhs, canonicalJson, (l, r) => (r === undefined ? l : r))
    return rhs
  }
  if (isObject(lhs) && isObject(rhs)) {
    if (Object.keys(lhs).length === 0 && Object.keys(rhs).length === 0) return rhs
    const out: JsonObject = { ...lhs }
    for (const [k, v] of Object.entries(rhs)) out[k] = merge(lhs[k], v, childType(type, k), [...path, { f: k }])
    return out
  }
  return rhs
}

// --- removing ------------------------------------------------------------------------

/** Removes the value at `path` (a field, a list-map item or a set item) from `value`, in place. */
export const removePath = (value: unknown, path: FieldSetPath, type: TypeDef | undefined): void => {
  if (path.length === 0) return
  const [head, ...rest] = path as [PathElement, ...Array<PathElement>]
  if ("f" in head) {
    if (!isObject(value)) return
    if (rest.length === 0) delete value[head.f]
    else removePath(value[head.f], rest, childType(type, head.f))
    return
  }
  if (!Array.isArray(value) || type === undefined) return
  const token = elementToken(head)
  const matches = (item: unknown): boolean => {
    if ("i" in head) return false
    if (type.kind !== "listMap" && type.kind !== "set") return false
    const key = type.kind === "set" ? { v: item } : listItemKey(type.keys, item)
    return !("error" in key) && elementToken(key) === token
  }
  if (rest.length === 0) {
    for (let i = value.length - 1; i >= 0; i--) if (matches(value[i])) value.splice(i, 1)
    return
  }
  for (const item of value) if (matches(item)) removePath(item, rest, itemType(type) ?? { kind: "object" })
}

// --- fieldsV1 ------------------------------------------------------------------------

interface Node {
  member: boolean
  readonly children: Map<string, Node>
}

/** The `fieldsV1` JSON of a set: nested tokens, `".": {}` where a path with children is itself owned. */
export const toFieldsV1 = (set: FieldSet): JsonObject => {
  const root: Node = { member: false, children: new Map() }
  for (const path of set.toArray()) {
    let node = root
    for (const pe of path) {
      const token = elementToken(pe)
      let child = node.children.get(token)
      if (child === undefined) {
        child = { member: false, children: new Map() }
        node.children.set(token, child)
      }
      node = child
    }
    node.member = true
  }
  const render = (node: Node): JsonObject => {
    const out: JsonObject = {}
    if (node.member && node.children.size > 0) out["."] = {}
    for (const token of [...node.children.keys()].sort()) out[token] = render(node.children.get(token)!)
    return out
  }
  return render(root)
}

const parseToken = (token: string): PathElement | undefined => {
  const body = token.slice(2)
  try {
    switch (token.slice(0, 2)) {
      case "f:":
        return { f: body }
      case "k:": {
        const key: unknown = JSON.parse(body)
        return isObject(key) ? { k: key } : undefined
      }
      case "v:":
        return { v: JSON.parse(body) }
      case "i:":
        return /^\d+$/.test(body) ? { i: Number(body) } : undefined
      default:
        return undefined
    }
  } catch {
    return undefined
  }
}

/** The set a `fieldsV1` trie encodes; undefined when it is not a well-formed trie (the server then ignores it). */
export const fromFieldsV1 = (fieldsV1: unknown): FieldSet | undefined => {
  const paths: Array<FieldSetPath> = []
  const walk = (node: unknown, path: FieldSetPath): boolean => {
    if (!isObject(node)) return false
    const tokens = Object.keys(node)
    if (tokens.length === 0) {
      if (path.length > 0) paths.push(path)
      return true
    }
    for (const token of tokens) {
      if (token === ".") {
        paths.push(path)
        continue
      }
      const element = parseToken(token)
      if (element === undefined || !walk(node[token], [...path, element])) return false
    }
    return true
  }
  return walk(fieldsV1, []) ? FieldSet.of(paths) : undefined
}
