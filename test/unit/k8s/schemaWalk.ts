/**
 * A small model of what the API server does with a CRD's structural schema, for tests:
 * walk every node, validate a value (types, nullable, enums, bounds, patterns, required,
 * list-map keys, and CEL rules of the one form our schemas use on strings,
 * `self.matches('<RE2>')`) and apply defaults. Deliberately independent of k8s/openapi.ts so it can
 * check that module's output.
 */
export type Node = { readonly [key: string]: unknown }

export const isNode = (u: unknown): u is Node => typeof u === "object" && u !== null && !Array.isArray(u)

export interface Visit {
  readonly node: Node
  readonly path: string
  /** The key under `properties` this node was reached by, if any. */
  readonly property?: string
}

/** Every schema node with its path (properties by name, items/additionalProperties as [*]). */
export const walk = (node: Node, path = "", property?: string): Visit[] => {
  const here: Visit = property === undefined ? { node, path } : { node, path, property }
  const children: Visit[] = []
  if (isNode(node["properties"])) {
    for (const [key, child] of Object.entries(node["properties"])) {
      children.push(...walk(child as Node, path === "" ? key : `${path}.${key}`, key))
    }
  }
  if (isNode(node["items"])) children.push(...walk(node["items"], `${path}[*]`))
  if (isNode(node["additionalProperties"])) children.push(...walk(node["additionalProperties"], `${path}[*]`))
  return [here, ...children]
}

const join = (path: string, key: string | number): string =>
  typeof key === "number" ? `${path}[${key}]` : path === "" ? key : `${path}.${key}`

const typeOk = (type: unknown, value: unknown): boolean => {
  switch (type) {
    case "string": return typeof value === "string"
    case "boolean": return typeof value === "boolean"
    case "integer": return typeof value === "number" && Number.isInteger(value)
    case "number": return typeof value === "number"
    case "array": return Array.isArray(value)
    case "object": return isNode(value)
    default: return true
  }
}

/** Validation errors as `path: reason`, the way the API server would refuse the value. */
export const validate = (node: Node, value: unknown, path = ""): string[] => {
  if (value === null) {
    // Like kube-openapi: a null is checked by the type and the enum validators only.
    if (node["nullable"] !== true) return [`${path}: must not be null`]
    return Array.isArray(node["enum"]) ? [`${path}: Unsupported value null`] : []
  }
  if (!typeOk(node["type"], value)) return [`${path}: must be of type ${String(node["type"])}`]
  const errors: string[] = []
  if (Array.isArray(node["enum"]) && !node["enum"].some((e) => JSON.stringify(e) === JSON.stringify(value))) {
    errors.push(`${path}: Unsupported value ${JSON.stringify(value)}`)
  }
  if (typeof value === "number") {
    if (typeof node["minimum"] === "number" && value < node["minimum"]) errors.push(`${path}: should be greater than or equal to ${node["minimum"]}`)
    if (typeof node["maximum"] === "number" && value > node["maximum"]) errors.push(`${path}: should be less than or equal to ${node["maximum"]}`)
  }
  if (typeof value === "string") {
    const length = [...value].length
    if (typeof node["minLength"] === "number" && length < node["minLength"]) errors.push(`${path}: too short`)
    if (typeof node["maxLength"] === "number" && length > node["maxLength"]) errors.push(`${path}: too long`)
    if (typeof node["pattern"] === "string" && !new RegExp(node["pattern"], "u").test(value)) errors.push(`${path}: should match ${node["pattern"]}`)
    for (const { rule, message } of (node["x-kubernetes-validations"] as Array<{ rule: string; message: string }> | undefined) ?? []) {
      const regex = /^self\.matches\('((?:[^'\\]|\\.)*)'\)$/u.exec(rule)?.[1]?.replace(/\\(.)/gu, "$1")
      if (regex !== undefined && !new RegExp(regex, "u").test(value)) errors.push(`${path}: ${message}`)
    }
  }
  if (Array.isArray(value)) {
    if (isNode(node["items"])) value.forEach((item, i) => errors.push(...validate(node["items"] as Node, item, join(path, i))))
    if (node["x-kubernetes-list-type"] === "map" && Array.isArray(node["x-kubernetes-list-map-keys"])) {
      const keys = node["x-kubernetes-list-map-keys"] as string[]
      const seen = new Set<string>()
      value.forEach((item, i) => {
        const key = JSON.stringify(keys.map((k) => (isNode(item) ? item[k] : undefined)))
        if (seen.has(key)) errors.push(`${join(path, i)}: Duplicate value`)
        seen.add(key)
      })
    }
  }
  if (isNode(value)) {
    for (const key of (node["required"] as string[] | undefined) ?? []) {
      if (!(key in value)) errors.push(`${join(path, key)}: Required value`)
    }
    const properties = isNode(node["properties"]) ? node["properties"] : undefined
    for (const [key, child] of Object.entries(value)) {
      const schema = properties?.[key] ?? node["additionalProperties"]
      if (isNode(schema)) errors.push(...validate(schema, child, join(path, key)))
    }
  }
  return errors
}

const clone = <A>(value: A): A => JSON.parse(JSON.stringify(value)) as A

/** Applies `default`s to absent fields, recursively, as the API server does on admission. */
export const applyDefaults = (node: Node, value: unknown): unknown => {
  if (Array.isArray(value) && isNode(node["items"])) return value.map((item) => applyDefaults(node["items"] as Node, item))
  if (!isNode(value)) return value
  const result: Record<string, unknown> = { ...value }
  const properties = isNode(node["properties"]) ? node["properties"] : {}
  for (const [key, child] of Object.entries(properties)) {
    if (!isNode(child)) continue
    if (!(key in result) && "default" in child) result[key] = clone(child["default"])
    if (key in result) result[key] = applyDefaults(child, result[key])
  }
  if (isNode(node["additionalProperties"])) {
    for (const key of Object.keys(result)) {
      if (!(key in properties)) result[key] = applyDefaults(node["additionalProperties"], result[key])
    }
  }
  return result
}
