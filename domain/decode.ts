/**
 * The decode boundary: untrusted JSON (objects from the API server, manifests, test
 * fixtures) becomes a typed domain value or a `DecodeError` that names the kind, the
 * object and the path of every bad field, e.g.
 * `Listener default/web: spec.ports[0].port: Expected a value between 1 and 65535, got 0`.
 */
import { Data, Effect, Result, Schema, SchemaIssue } from "effect"
import { Kinds } from "./kinds.ts"
import { EndpointSlice } from "./core/endpointSlice.ts"
import { Event } from "./core/event.ts"
import { Lease } from "./core/lease.ts"
import { Node } from "./core/node.ts"
import { PersistentVolume } from "./core/persistentVolume.ts"
import { PersistentVolumeClaim } from "./core/persistentVolumeClaim.ts"
import { Pod } from "./core/pod.ts"
import { Service } from "./core/service.ts"
import { Listener } from "./listener.ts"
import { ListenerClass } from "./listenerClass.ts"
import { PodListeners } from "./podListeners.ts"

/** One bad field: its path in `a.b[0]["c/d"]` form ("" for the value itself) and why. */
export interface DecodeIssue {
  readonly path: string
  readonly message: string
}

/** Input that does not match the Schema of `kind`. */
export class DecodeError extends Data.TaggedError("DecodeError")<{
  /** The kind (or other subject) being decoded, e.g. "Listener" or "CSI volume context". */
  readonly kind: string
  readonly namespace?: string | undefined
  /** The object's metadata.name when the input carried one (not `name`: that is Error.name). */
  readonly objectName?: string | undefined
  /** Path of the first bad field ("" when the whole value is wrong). */
  readonly path: string
  readonly issues: ReadonlyArray<DecodeIssue>
  readonly message: string
}> {}

// Rejected input is quoted in messages ("got 0"); cap it so a huge object stays readable.
const MAX_MESSAGE_LENGTH = 300

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/u

type PathSegment = PropertyKey | { readonly key: PropertyKey }

/** `["spec","ports",0,"port"]` → `spec.ports[0].port`; odd keys are quoted: `labels["a/b"]`. */
export const formatPath = (path: ReadonlyArray<PathSegment>): string =>
  path.reduce<string>((text, segment) => {
    const key = typeof segment === "object" && segment !== null ? segment.key : segment
    if (typeof key === "number") return `${text}[${key}]`
    const name = String(key)
    if (IDENTIFIER.test(name)) return text === "" ? name : `${text}.${name}`
    return `${text}[${JSON.stringify(name)}]`
  }, "")

const truncate = (text: string): string =>
  text.length <= MAX_MESSAGE_LENGTH ? text : `${text.slice(0, MAX_MESSAGE_LENGTH - 1)}…`

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

// Optional fields accept null only for compatibility (see fields.ts); do not advertise it
// as an expected value ("Expected string | null, got 5" → "Expected string, got 5").
const withoutNullChoice = (message: string): string => message.replace(/ \| null(?=, got |$)/u, "")

const objectRefOf = (input: unknown): { namespace?: string; objectName?: string } => {
  if (typeof input !== "object" || input === null) return {}
  const metadata = (input as { metadata?: unknown }).metadata
  if (typeof metadata !== "object" || metadata === null) return {}
  const { name, namespace } = metadata as { name?: unknown; namespace?: unknown }
  return {
    ...(typeof namespace === "string" ? { namespace } : {}),
    ...(typeof name === "string" ? { objectName: name } : {})
  }
}

/** Builds the `DecodeError` for `input` from a Schema issue tree. */
export const decodeErrorOf = (kind: string, input: unknown, issue: SchemaIssue.Issue): DecodeError => {
  const issues: ReadonlyArray<DecodeIssue> = formatter(issue).issues.map((i) => ({
    path: formatPath(i.path ?? []),
    message: truncate(withoutNullChoice(i.message))
  }))
  const { namespace, objectName } = objectRefOf(input)
  const subject = objectName === undefined ? kind : `${kind} ${namespace === undefined ? "" : `${namespace}/`}${objectName}`
  const details = issues.map((i) => (i.path === "" ? i.message : `${i.path}: ${i.message}`)).join("; ")
  return new DecodeError({
    kind,
    namespace,
    objectName,
    path: issues[0]?.path ?? "",
    issues,
    message: `${subject}: ${details}`
  })
}

const parseOptions = { errors: "all", reportInput: true } as const

/** A pure decoder: `unknown` → `Result` of the Schema's type or a `DecodeError`. */
export const decodeResultWith = <S extends Schema.ConstraintDecoder<unknown>>(kind: string, schema: S) => {
  const decode = Schema.decodeUnknownResult(schema, parseOptions)
  return (input: unknown): Result.Result<S["Type"], DecodeError> =>
    Result.mapError(decode(input), (error) => decodeErrorOf(kind, input, error.issue))
}

/** An effectful decoder: `unknown` → `Effect` of the Schema's type, failing with `DecodeError`. */
export const decodeWith = <S extends Schema.ConstraintDecoder<unknown>>(kind: string, schema: S) => {
  const decode = decodeResultWith(kind, schema)
  return (input: unknown): Effect.Effect<S["Type"], DecodeError> => Effect.fromResult(decode(input))
}

// Effectful decoders of the kinds the programs decode in an Effect; `DecodeResult` has every kind.
export const decodeListener = decodeWith(Kinds.Listener.kind, Listener)
export const decodePodListeners = decodeWith(Kinds.PodListeners.kind, PodListeners)
export const decodePersistentVolume = decodeWith(Kinds.PersistentVolume.kind, PersistentVolume)

/** Pure variants, for plan functions and tests that do not run in an Effect. */
export const DecodeResult = {
  Listener: decodeResultWith(Kinds.Listener.kind, Listener),
  ListenerClass: decodeResultWith(Kinds.ListenerClass.kind, ListenerClass),
  PodListeners: decodeResultWith(Kinds.PodListeners.kind, PodListeners),
  Service: decodeResultWith(Kinds.Service.kind, Service),
  Node: decodeResultWith(Kinds.Node.kind, Node),
  Pod: decodeResultWith(Kinds.Pod.kind, Pod),
  PersistentVolume: decodeResultWith(Kinds.PersistentVolume.kind, PersistentVolume),
  PersistentVolumeClaim: decodeResultWith(Kinds.PersistentVolumeClaim.kind, PersistentVolumeClaim),
  EndpointSlice: decodeResultWith(Kinds.EndpointSlice.kind, EndpointSlice),
  Event: decodeResultWith(Kinds.Event.kind, Event),
  Lease: decodeResultWith(Kinds.Lease.kind, Lease)
} as const
