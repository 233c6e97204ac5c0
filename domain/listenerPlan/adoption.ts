/**
 * Adopting a Service a predecessor applied (see domain/managedFields.ts): the one JSON
 * patch that hands the predecessor's fields to our field manager and, when the Service
 * already is what we would apply but for our labels and annotations, brings those too —
 * so a Service the upstream operator built from the same Listener is adopted with a
 * single write. When the spec differs (the Listener changed while no operator ran), the
 * patch only hands over ownership and the ordinary server-side apply follows: it then
 * removes what the predecessor applied and we do not, exactly as for our own fields.
 */
import type { ManagedFieldsEntryInput } from "../managedFields.ts"
import { fieldsPresentIn, foldManagedFields, ownedFieldNames, predecessorEntries, unionFieldsV1 } from "../managedFields.ts"
import type { DesiredService } from "./desiredService.ts"
import { isJsonObject } from "./json.ts"
import type { JsonObject } from "./json.ts"
import { isContainedIn } from "./serviceUpToDate.ts"

export interface AdoptionInput {
  /** The live Service, with its managedFields (a GET, not the cache: caches drop them). */
  readonly live: { readonly metadata: { readonly resourceVersion?: string | undefined; readonly managedFields?: ReadonlyArray<ManagedFieldsEntryInput> | undefined; readonly labels?: Readonly<Record<string, string>> | undefined; readonly annotations?: Readonly<Record<string, string>> | undefined }; readonly [field: string]: unknown }
  readonly desired: DesiredService
  readonly fieldManager: string
  readonly isPredecessor: (manager: string | undefined) => boolean
}

export type AdoptionPlan =
  /** No predecessor owns anything: apply as usual. */
  | { readonly _tag: "NothingToHandOver" }
  /** One JSON patch; `complete`: afterwards the Service is what we would apply (no apply follows). */
  | { readonly _tag: "Patch"; readonly operations: ReadonlyArray<JsonPatchOperation>; readonly complete: boolean }

export type JsonPatchOperation =
  | { readonly op: "test"; readonly path: string; readonly value: unknown }
  | { readonly op: "add" | "replace"; readonly path: string; readonly value: unknown }

const withoutMaps = (fieldsV1: JsonObject): JsonObject => {
  const metadata = fieldsV1["f:metadata"]
  if (!isJsonObject(metadata)) return fieldsV1
  const { "f:labels": _labels, "f:annotations": _annotations, ...rest } = metadata
  return { ...fieldsV1, "f:metadata": rest as JsonObject }
}

/**
 * A label or annotation map after adoption: ours as we apply them, the predecessor's
 * removed unless we apply them too or someone else also owns them.
 */
const mapAfter = (
  live: Readonly<Record<string, string>> | undefined,
  wanted: Readonly<Record<string, string>>,
  handedKeys: ReadonlyArray<string>,
  keptKeys: ReadonlySet<string>
): Record<string, string> => {
  const out: Record<string, string> = { ...live }
  for (const key of handedKeys) if (!(key in wanted) && !keptKeys.has(key)) delete out[key]
  return { ...out, ...wanted }
}

export const planServiceAdoption = (input: AdoptionInput): AdoptionPlan => {
  const entries = input.live.metadata.managedFields ?? []
  const options = { manager: input.fieldManager, isPredecessor: input.isPredecessor }
  const handed = predecessorEntries(entries, options)
  if (handed.length === 0) return { _tag: "NothingToHandOver" }
  const handedFields = handed.reduce<JsonObject>((acc, entry) => unionFieldsV1(acc, entry.fieldsV1), {})
  const others = entries.filter((entry) => !handed.includes(entry) && entry.manager !== input.fieldManager)
  const keptBy = (path: ReadonlyArray<string>) => new Set(others.flatMap((entry) => ownedFieldNames(entry.fieldsV1, path)))

  const operations: Array<JsonPatchOperation> = [
    // The documented guard for rewriting managedFields: nobody wrote in between.
    { op: "test", path: "/metadata/resourceVersion", value: input.live.metadata.resourceVersion },
    { op: "replace", path: "/metadata/managedFields", value: foldManagedFields(entries, options) }
  ]
  const labels = mapAfter(input.live.metadata.labels, input.desired.metadata.labels, ownedFieldNames(handedFields, ["metadata", "labels"]), keptBy(["metadata", "labels"]))
  const annotations = mapAfter(
    input.live.metadata.annotations,
    input.desired.metadata.annotations,
    ownedFieldNames(handedFields, ["metadata", "annotations"]),
    keptBy(["metadata", "annotations"])
  )
  const after = { ...input.live, metadata: { ...input.live.metadata, labels, annotations } }
  // Everything else the predecessor owned must be something we apply too, with our values.
  const complete = isContainedIn(input.desired, after) && fieldsPresentIn(withoutMaps(handedFields), input.desired)
  if (!complete) return { _tag: "Patch", operations, complete: false }
  operations.push({ op: "add", path: "/metadata/labels", value: labels }, { op: "add", path: "/metadata/annotations", value: annotations })
  return { _tag: "Patch", operations, complete: true }
}

/** Is this cached Service one we never applied (no fingerprint of ours) and so possibly a predecessor's? */
export const mayNeedAdoption = (live: unknown, fingerprintAnnotation: string): boolean => {
  if (!isJsonObject(live) || !isJsonObject(live["metadata"])) return false
  const annotations = live["metadata"]["annotations"]
  return !isJsonObject(annotations) || annotations[fingerprintAnnotation] === undefined
}
