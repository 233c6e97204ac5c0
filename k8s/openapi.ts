/**
 * From an Effect Schema to a Kubernetes *structural* OpenAPI v3 schema (the dialect of
 * CustomResourceDefinition `openAPIV3Schema`).
 *
 * Effect writes JSON Schema draft 2020-12; Kubernetes accepts a restricted OpenAPI 3.0
 * subset. This module rewrites one into the other and refuses (throws: a bug in a domain
 * Schema, caught by the unit tests) whatever has no structural equivalent:
 * - `anyOf: [X, {type: null}]` → X with `nullable: true`. A nullable string enum becomes
 *   an anchored `pattern` instead: the API server checks `enum` even for null values (so a
 *   nullable enum refuses null), while `pattern` only applies to strings. Clients of the
 *   seeds' API send `protocol: null`, so null must stay acceptable;
 * - `allOf` members (checks that carry their own annotations) are merged into the node;
 * - `additionalProperties: true|false` is dropped (unknown fields are pruned anyway, and
 *   the API server refuses `false`); a node never has both properties and additionalProperties;
 * - Effect's safe-integer bounds on integers are dropped (Kubernetes integers are int64);
 * - `$ref`, `oneOf`, other unions, untyped nodes without
 *   `x-kubernetes-preserve-unknown-fields`, and keywords Kubernetes does not know are refused.
 * Keys of every node are sorted so the generated YAML is stable.
 */
import { Schema } from "effect"

export type JsonSchemaNode = { [key: string]: unknown }

/** Keywords a CRD schema node may carry (apiextensions.k8s.io/v1 JSONSchemaProps). */
const ALLOWED_KEYWORDS = new Set([
  "type", "format", "title", "description", "default", "nullable", "enum",
  "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "multipleOf",
  "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems",
  "maxProperties", "minProperties", "required", "items", "properties", "additionalProperties",
  "x-kubernetes-preserve-unknown-fields", "x-kubernetes-int-or-string", "x-kubernetes-embedded-resource",
  "x-kubernetes-list-type", "x-kubernetes-list-map-keys", "x-kubernetes-map-type", "x-kubernetes-validations"
])

const LOWER_BOUNDS = new Set(["minimum", "minLength", "minItems", "minProperties"])
const UPPER_BOUNDS = new Set(["maximum", "maxLength", "maxItems", "maxProperties"])
// Annotations on a check are more specific than those of the base type.
const OVERRIDABLE = new Set(["description", "title", "format"])

export class StructuralSchemaError extends Error {
  constructor(readonly path: string, readonly reason: string) {
    super(`${path === "" ? "<root>" : path}: ${reason}`)
    this.name = "StructuralSchemaError"
  }
}

const isNode = (u: unknown): u is JsonSchemaNode => typeof u === "object" && u !== null && !Array.isArray(u)

const isNullNode = (u: unknown): boolean => isNode(u) && u["type"] === "null" && Object.keys(u).length === 1

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)

const mergeAllOf = (node: JsonSchemaNode, path: string): JsonSchemaNode => {
  const { allOf, ...rest } = node
  if (!Array.isArray(allOf)) throw new StructuralSchemaError(path, "allOf must be a list")
  const merged: JsonSchemaNode = { ...rest }
  for (const member of allOf) {
    if (!isNode(member)) throw new StructuralSchemaError(path, "allOf member is not a schema")
    for (const [key, value] of Object.entries(member)) {
      const current = merged[key]
      if (current === undefined || sameJson(current, value) || OVERRIDABLE.has(key)) merged[key] = value
      else if (LOWER_BOUNDS.has(key)) merged[key] = Math.max(current as number, value as number)
      else if (UPPER_BOUNDS.has(key)) merged[key] = Math.min(current as number, value as number)
      else throw new StructuralSchemaError(path, `cannot merge conflicting "${key}" of allOf`)
    }
  }
  return merged
}

const unwrapNullable = (node: JsonSchemaNode, path: string): JsonSchemaNode => {
  const { anyOf, ...rest } = node
  if (!Array.isArray(anyOf)) throw new StructuralSchemaError(path, "anyOf must be a list")
  const others = anyOf.filter((member) => !isNullNode(member))
  if (others.length !== 1 || others.length === anyOf.length || !isNode(others[0])) {
    throw new StructuralSchemaError(path, "unions are not structural; only X | null is supported")
  }
  const { enum: choices, ...inner } = others[0]
  if (choices === undefined) return { ...rest, ...inner, nullable: true }
  if (!Array.isArray(choices) || !choices.every((c): c is string => typeof c === "string") || "pattern" in inner) {
    throw new StructuralSchemaError(path, "a nullable enum must be an enum of strings without a pattern")
  }
  return { ...rest, ...inner, nullable: true, pattern: `^(${choices.map(escapeRegExp).join("|")})$` }
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&")

const sortKeys = (node: JsonSchemaNode): JsonSchemaNode =>
  Object.fromEntries(Object.entries(node).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))

const childPath = (path: string, key: string): string => (path === "" ? key : `${path}.${key}`)

/** Rewrites one JSON Schema node (and its children) into the structural dialect. */
export const toStructural = (input: unknown, path = ""): JsonSchemaNode => {
  if (!isNode(input)) throw new StructuralSchemaError(path, "schema node is not an object")
  let node: JsonSchemaNode = { ...input }
  if ("$ref" in node) throw new StructuralSchemaError(path, `$ref ${String(node["$ref"])} must be inlined`)
  if ("oneOf" in node) throw new StructuralSchemaError(path, "oneOf is not supported")
  if ("anyOf" in node) node = unwrapNullable(node, path)
  if ("allOf" in node) node = mergeAllOf(node, path)
  if ("const" in node) {
    const { const: value, ...rest } = node
    node = { ...rest, enum: [value] }
  }

  if (node["type"] === "integer") {
    if (node["minimum"] === Number.MIN_SAFE_INTEGER) delete node["minimum"]
    if (node["maximum"] === Number.MAX_SAFE_INTEGER) delete node["maximum"]
  }

  const additional = node["additionalProperties"]
  if (typeof additional === "boolean" || (additional !== undefined && isNode(node["properties"]))) {
    delete node["additionalProperties"]
  }
  if (Array.isArray(node["required"]) && node["required"].length === 0) delete node["required"]

  for (const key of Object.keys(node)) {
    if (!ALLOWED_KEYWORDS.has(key)) throw new StructuralSchemaError(path, `keyword "${key}" is not allowed in a CRD schema`)
  }

  const preserveUnknown = node["x-kubernetes-preserve-unknown-fields"] === true
  if (node["type"] === undefined && !preserveUnknown && node["x-kubernetes-int-or-string"] !== true) {
    throw new StructuralSchemaError(path, "every node needs a type (or x-kubernetes-preserve-unknown-fields)")
  }
  if (
    node["type"] === "object" && !preserveUnknown &&
    node["properties"] === undefined && node["additionalProperties"] === undefined
  ) {
    throw new StructuralSchemaError(path, "an object without properties would be pruned empty; mark it free-form")
  }

  if (isNode(node["properties"])) {
    node["properties"] = Object.fromEntries(
      Object.entries(node["properties"]).map(([key, child]) => [key, toStructural(child, childPath(path, key))])
    )
  }
  if (node["items"] !== undefined) node["items"] = toStructural(node["items"], `${path}[*]`)
  if (isNode(node["additionalProperties"])) {
    node["additionalProperties"] = toStructural(node["additionalProperties"], `${path}[*]`)
  }
  return sortKeys(node)
}

/** The structural OpenAPI v3 schema of an Effect Schema (its encoded, on-the-wire side). */
export const openApiSchemaOf = (schema: Schema.Top): JsonSchemaNode => {
  const document = Schema.toJsonSchemaDocument(schema, {
    // Inline every definition: CRD schemas cannot hold $ref.
    referencePolicy: () => undefined,
    includeAnnotationKey: (key) => key.startsWith("x-kubernetes-")
  })
  return toStructural(document.schema)
}
