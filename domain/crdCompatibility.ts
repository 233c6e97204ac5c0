/**
 * Whether replacing a live CustomResourceDefinition with this build's would break
 * something that exists (docs/migration.md, "CRDs"). Pure: the caller fetches the live
 * CRD and, when a field would go, the objects that might still set it.
 *
 * Refused:
 * - a version the live CRD serves that this build no longer serves (its clients break);
 * - a version in `status.storedVersions` that this build no longer lists (objects stored
 *   in it could not be read; the API server refuses that update too, less helpfully);
 * - a field the live schema declares and this build's does not, while an object still
 *   sets it (the API server would prune it on the object's next write: data lost).
 * Everything else — added versions, added fields, changed descriptions, a removed field
 * no object sets — is an upgrade the controller applies.
 */
import { Schema } from "effect"

/** The part of an OpenAPI v3 schema node that declares fields. */
export interface SchemaNode {
  readonly properties?: Readonly<Record<string, SchemaNode>> | undefined
  readonly items?: SchemaNode | undefined
  readonly additionalProperties?: SchemaNode | boolean | undefined
  readonly "x-kubernetes-preserve-unknown-fields"?: boolean | undefined
}

export interface CrdVersionShape {
  readonly name: string
  readonly served: boolean
  readonly storage: boolean
  readonly schema?: { readonly openAPIV3Schema?: SchemaNode | undefined } | undefined
}

/** What the comparison reads of a CRD (ours as generated, or the live one). */
export interface CrdShape {
  readonly metadata: { readonly name?: string | undefined }
  readonly spec: { readonly versions: ReadonlyArray<CrdVersionShape> }
  readonly status?: { readonly storedVersions?: ReadonlyArray<string> | undefined } | undefined
}

const SchemaNodeSchema: Schema.Codec<SchemaNode> = Schema.Struct({
  properties: Schema.optional(Schema.Record(Schema.String, Schema.suspend((): Schema.Codec<SchemaNode> => SchemaNodeSchema))),
  items: Schema.optional(Schema.suspend((): Schema.Codec<SchemaNode> => SchemaNodeSchema)),
  additionalProperties: Schema.optional(Schema.Union([Schema.Boolean, Schema.suspend((): Schema.Codec<SchemaNode> => SchemaNodeSchema)])),
  "x-kubernetes-preserve-unknown-fields": Schema.optional(Schema.Boolean)
})

/** What of a live CRD the comparison reads, as a Schema: a live CRD is decoded, not cast. */
export const CrdShapeSchema: Schema.Codec<CrdShape> = Schema.Struct({
  metadata: Schema.Struct({ name: Schema.optional(Schema.String) }),
  spec: Schema.Struct({
    versions: Schema.Array(Schema.Struct({
      name: Schema.String,
      served: Schema.Boolean,
      storage: Schema.Boolean,
      schema: Schema.optional(Schema.Struct({ openAPIV3Schema: Schema.optional(SchemaNodeSchema) }))
    }))
  }),
  status: Schema.optional(Schema.Struct({ storedVersions: Schema.optional(Schema.Array(Schema.String)) }))
})

/**
 * A field's place in a schema: property names, `[]` for "every item of this array" and
 * `{}` for "every value of this map" — e.g. `spec.ports.[].appProtocol`.
 */
export type FieldPath = ReadonlyArray<string>

export const ITEMS = "[]"
export const MAP_VALUES = "{}"

export const fieldPathText = (path: FieldPath): string => path.join(".").replaceAll(".[]", "[]").replaceAll(".{}", "{}")

export interface RemovedField {
  readonly version: string
  readonly path: FieldPath
}

/** Every field `live` declares that `desired` does not, outermost only (a removed object's children are not listed). */
export const removedFieldsOf = (live: SchemaNode | undefined, desired: SchemaNode | undefined): ReadonlyArray<FieldPath> => {
  const removed: FieldPath[] = []
  const walk = (from: SchemaNode | undefined, to: SchemaNode | undefined, path: FieldPath): void => {
    if (from === undefined || to === undefined) return
    // The API server keeps unknown fields below such a node: nothing there is pruned.
    if (to["x-kubernetes-preserve-unknown-fields"] === true) return
    for (const [name, child] of Object.entries(from.properties ?? {})) {
      const kept = to.properties?.[name]
      if (kept === undefined) removed.push([...path, name])
      else walk(child, kept, [...path, name])
    }
    walk(from.items, to.items, [...path, ITEMS])
    if (typeof from.additionalProperties === "object" && typeof to.additionalProperties === "object") {
      walk(from.additionalProperties, to.additionalProperties, [...path, MAP_VALUES])
    }
  }
  walk(live, desired, [])
  return removed
}

/** Whether `object` sets a value at `path` (any item of an array, any value of a map). */
export const setsField = (object: unknown, path: FieldPath): boolean => {
  if (path.length === 0) return object !== undefined
  if (object === null || typeof object !== "object") return false
  const [head, ...rest] = path as [string, ...string[]]
  if (head === ITEMS) return Array.isArray(object) && object.some((item) => setsField(item, rest))
  if (head === MAP_VALUES) return !Array.isArray(object) && Object.values(object).some((value) => setsField(value, rest))
  if (Array.isArray(object) || !Object.hasOwn(object, head)) return false
  return setsField((object as Record<string, unknown>)[head], rest)
}

export type CrdUpgradeProblem =
  | { readonly _tag: "ServedVersionDropped"; readonly version: string }
  | { readonly _tag: "StoredVersionDropped"; readonly version: string }
  | {
    readonly _tag: "FieldInUse"
    readonly version: string
    readonly path: FieldPath
    /** How many objects set it, and a few of them (`namespace/name` or `name`). */
    readonly count: number
    readonly examples: ReadonlyArray<string>
  }

/** Versions the live CRD serves or stores that `desired` would drop. */
export const versionProblemsOf = (live: CrdShape, desired: CrdShape): ReadonlyArray<CrdUpgradeProblem> => {
  const problems: CrdUpgradeProblem[] = []
  const desiredByName = new Map(desired.spec.versions.map((v) => [v.name, v]))
  for (const version of live.spec.versions) {
    if (version.served && desiredByName.get(version.name)?.served !== true) problems.push({ _tag: "ServedVersionDropped", version: version.name })
  }
  for (const stored of live.status?.storedVersions ?? []) {
    if (!desiredByName.has(stored)) problems.push({ _tag: "StoredVersionDropped", version: stored })
  }
  return problems
}

/** Fields the live CRD declares that `desired` would remove, per version both of them list. */
export const removedFieldsOfCrd = (live: CrdShape, desired: CrdShape): ReadonlyArray<RemovedField> =>
  live.spec.versions.flatMap((version) => {
    const kept = desired.spec.versions.find((v) => v.name === version.name)
    if (kept === undefined) return []
    return removedFieldsOf(version.schema?.openAPIV3Schema, kept.schema?.openAPIV3Schema).map((path) => ({ version: version.name, path }))
  })

export interface ObjectIdentity {
  readonly metadata?: { readonly name?: string | undefined; readonly namespace?: string | undefined } | undefined
}

const EXAMPLES = 3

/** The removed fields that some of `objects` (read in the field's version) still set. */
export const fieldsInUse = (
  removed: ReadonlyArray<RemovedField>,
  objectsOf: (version: string) => ReadonlyArray<ObjectIdentity> | undefined
): ReadonlyArray<CrdUpgradeProblem> =>
  removed.flatMap((field) => {
    const users = (objectsOf(field.version) ?? []).filter((object) => setsField(object, field.path))
    if (users.length === 0) return []
    const examples = users.slice(0, EXAMPLES).map((o) =>
      o.metadata?.namespace !== undefined ? `${o.metadata.namespace}/${o.metadata.name ?? "?"}` : o.metadata?.name ?? "?"
    )
    return [{ _tag: "FieldInUse" as const, version: field.version, path: field.path, count: users.length, examples }]
  })

/** What the user should do about one problem, in one sentence that names the command. */
export const problemAdvice = (crdName: string, problem: CrdUpgradeProblem): string => {
  switch (problem._tag) {
    case "ServedVersionDropped":
      return `the live CRD serves version ${problem.version}, which this build does not: clients of ${problem.version} would break. ` +
        `If nothing uses ${problem.version} any more, stop serving it yourself (kubectl edit crd ${crdName}: served: false) and restart the controller; else run a build that serves it`
    case "StoredVersionDropped":
      return `objects of ${crdName} are stored in version ${problem.version}, which this build does not list. ` +
        `Rewrite every object in a version this build keeps (e.g. kubectl get ${crdName} -A -o json | kubectl replace -f -), ` +
        `then drop ${problem.version} from status.storedVersions (kubectl patch crd ${crdName} --subresource=status --type=json -p '[{"op":"replace","path":"/status/storedVersions","value":[...]}]') and restart the controller`
    case "FieldInUse":
      return `${fieldPathText(problem.path)} (version ${problem.version}) is not in this build's schema but ${problem.count} object(s) set it (${problem.examples.join(", ")}${problem.count > problem.examples.length ? ", …" : ""}); ` +
        `applying the CRD would make the API server drop it from them. Remove the field from those objects (or keep running the build that has it), then restart the controller`
  }
}

/** One message for all problems of one CRD: what was refused, why, and what to do. */
export const refusalMessage = (crdName: string, problems: ReadonlyArray<CrdUpgradeProblem>): string =>
  `CRD ${crdName} was not updated: the live CRD is kept and the controller runs on it. ` +
  problems.map((p, i) => `(${i + 1}) ${problemAdvice(crdName, p)}.`).join(" ") +
  ` To manage the CRDs yourself instead, set the chart value crds.manage=false (MANAGE_CRDS=false).`
