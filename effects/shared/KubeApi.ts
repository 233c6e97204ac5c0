/**
 * The Kubernetes API port: the only way programs reach the API server.
 *
 * Objects cross this boundary as plain JSON (`KubeObject`); callers decode them with the
 * domain Schemas. Implementations: `adapters/KubeApiHttp.ts` (a real API server) and
 * `adapters/KubeApiMemory.ts` (an in-memory server with the same semantics, for tests,
 * the demo's fast path and custom distributions). Both pass the same contract cases
 * (`test/unit/adapters/kubeApiContractCases.ts`; on the real server by
 * `test/integration/kubeApiHttp.contract.test.ts`).
 *
 * Failure reasons (every method fails only with `KubeApiError`):
 * - NotFound: the object (or its namespace) does not exist.
 * - Conflict: stale resourceVersion on update, a failed precondition on delete, or a
 *   server-side apply field conflict with another manager (without `force`).
 * - AlreadyExists: create of a name that exists.
 * - Invalid: the object fails validation (422); `causes` names the fields.
 * - BadRequest: malformed request (400), e.g. an unparsable selector.
 * - Forbidden / Unauthorized: RBAC or authentication refused the request.
 * - Gone: a watch or list resourceVersion is too old (410 Expired); relist.
 * - TooManyRequests / Unavailable / Timeout / Internal: transient server-side trouble.
 */
import { Context, Data, Effect, Layer, Option, Stream } from "effect"
import { apiVersionOf } from "../../domain/kinds.ts"
import type { ResourceKind } from "../../domain/kinds.ts"

export interface OwnerReference {
  apiVersion: string
  kind: string
  name: string
  uid: string
  controller?: boolean
  blockOwnerDeletion?: boolean
}

export interface ManagedFieldsEntry {
  manager?: string
  operation?: "Apply" | "Update"
  apiVersion?: string
  time?: string
  fieldsType?: string
  fieldsV1?: unknown
  subresource?: string
}

export interface ObjectMeta {
  name?: string
  generateName?: string
  namespace?: string
  uid?: string
  resourceVersion?: string
  generation?: number
  creationTimestamp?: string
  deletionTimestamp?: string
  deletionGracePeriodSeconds?: number
  labels?: Record<string, string>
  annotations?: Record<string, string>
  ownerReferences?: OwnerReference[]
  finalizers?: string[]
  managedFields?: ManagedFieldsEntry[]
}

/** An object as the API server sends it: untrusted until decoded with a domain Schema. */
export interface KubeObject {
  apiVersion?: string
  kind?: string
  metadata: ObjectMeta
  [field: string]: unknown
}

export interface ObjectRef {
  readonly namespace?: string | undefined
  readonly name: string
}

export interface ListOptions {
  readonly namespace?: string | undefined
  /** Kubernetes label selector syntax: `a=b,c!=d,e in (x,y),f notin (z),g,!h`. */
  readonly labelSelector?: string | undefined
  /** Field selector syntax: `metadata.name=x,spec.nodeName!=y`. */
  readonly fieldSelector?: string | undefined
}

/** A list in pages: at most `limit` objects per answer, the next page asked for with its `continue` token. */
export interface ListPageOptions extends ListOptions {
  readonly limit?: number | undefined
  /** The `continue` token of the page before; all other options must be the same as for the first page. */
  readonly continue?: string | undefined
}

export interface ListResult {
  readonly items: ReadonlyArray<KubeObject>
  /** The collection's resourceVersion: where a watch resumes. */
  readonly resourceVersion: string
  /** Present when more pages follow (a `limit` was given): the next page's token. */
  readonly continue?: string | undefined
}

export interface WatchOptions extends ListOptions {
  /** Resume point; events strictly after it are delivered. Too old → the stream fails with Gone. */
  readonly resourceVersion: string
  /** Ask for BOOKMARK events carrying only a newer resourceVersion. */
  readonly allowBookmarks?: boolean | undefined
  /** The server ends the stream after this long; the caller re-watches from the last version. */
  readonly timeoutSeconds?: number | undefined
  /**
   * A watch-list (KEP-3157): the server first sends the current state as ADDED events,
   * then a BOOKMARK annotated `k8s.io/initial-events-end: "true"` carrying the state's
   * resourceVersion, then the changes after it. Needs `allowBookmarks`; sent with
   * `resourceVersionMatch=NotOlderThan` (an empty `resourceVersion` asks for the newest
   * state). A server without the WatchList feature refuses it (422 Invalid).
   */
  readonly sendInitialEvents?: boolean | undefined
}

/** Marks the BOOKMARK that ends a watch-list's initial events. */
export const INITIAL_EVENTS_END_ANNOTATION = "k8s.io/initial-events-end"

export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK"

export interface WatchEvent {
  readonly type: WatchEventType
  readonly object: KubeObject
}

export interface WriteOptions {
  readonly fieldManager?: string | undefined
}

export interface ApplyOptions {
  readonly fieldManager: string
  readonly force?: boolean | undefined
}

export type PatchType = "merge" | "json"

export interface PatchOptions extends WriteOptions {
  /** `merge` = RFC 7386 JSON merge patch; `json` = RFC 6902 JSON patch (supports `test`). */
  readonly type: PatchType
}

export interface DeleteOptions {
  readonly propagationPolicy?: "Background" | "Foreground" | "Orphan" | undefined
  readonly preconditions?: { readonly uid?: string | undefined; readonly resourceVersion?: string | undefined } | undefined
  readonly gracePeriodSeconds?: number | undefined
}

export type KubeApiErrorReason =
  | "NotFound"
  | "Conflict"
  | "AlreadyExists"
  | "Invalid"
  | "BadRequest"
  | "Forbidden"
  | "Unauthorized"
  | "Gone"
  | "TooManyRequests"
  | "Unavailable"
  | "Timeout"
  | "Internal"

export interface KubeApiErrorCause {
  readonly field?: string | undefined
  readonly reason?: string | undefined
  readonly message?: string | undefined
}

/** What an error says besides the request it is about. */
interface KubeApiErrorDetails {
  readonly reason: KubeApiErrorReason
  readonly message: string
  readonly status?: number | undefined
  readonly causes?: ReadonlyArray<KubeApiErrorCause> | undefined
  readonly cause?: unknown
}

export class KubeApiError extends Data.TaggedError("KubeApiError")<KubeApiErrorDetails & {
  /** The verb that failed: get, list, watch, create, update, apply, patch, delete, … */
  readonly verb: string
  readonly kind: string
  readonly namespace?: string | undefined
  readonly objectName?: string | undefined
}> {}

/** The request an error is reported for: its verb and object. */
export interface RequestTarget {
  readonly verb: string
  readonly kind: ResourceKind
  readonly namespace?: string | undefined
  readonly name?: string | undefined
}

/** A `KubeApiError` about `target`'s request, as both adapters report them. */
export const requestError = (target: RequestTarget, details: KubeApiErrorDetails): KubeApiError =>
  new KubeApiError({ verb: target.verb, kind: target.kind.kind, namespace: target.namespace, objectName: target.name, ...details })

/** Reasons worth retrying with backoff: nothing about the request itself is wrong. */
export const isTransientReason = (reason: KubeApiErrorReason): boolean =>
  reason === "Conflict" || reason === "TooManyRequests" || reason === "Unavailable" || reason === "Timeout" ||
  reason === "Internal" || reason === "Gone"

export const hasReason = (reason: KubeApiErrorReason) => (error: unknown): error is KubeApiError =>
  error instanceof KubeApiError && error.reason === reason

/** A missing object as `Option.none()`; every other failure passes through. */
export const getOption = <A, R>(
  effect: Effect.Effect<A, KubeApiError, R>
): Effect.Effect<Option.Option<A>, KubeApiError, R> =>
  effect.pipe(
    Effect.map(Option.some),
    Effect.catchIf(hasReason("NotFound"), () => Effect.succeed(Option.none<A>()))
  )

/**
 * The object with the `apiVersion`/`kind` of `kind` where it lacks them: a real API server
 * omits them on list items of built-in kinds, and callers always get them.
 */
export const withTypeMeta = (kind: ResourceKind, object: KubeObject): KubeObject =>
  object.apiVersion !== undefined && object.kind !== undefined
    ? object
    : { ...object, apiVersion: object.apiVersion ?? apiVersionOf(kind), kind: object.kind ?? kind.kind }

/** Treat "already gone" as success (idempotent deletes). */
export const ignoreNotFound = <R>(
  effect: Effect.Effect<void, KubeApiError, R>
): Effect.Effect<void, KubeApiError, R> => effect.pipe(Effect.catchIf(hasReason("NotFound"), () => Effect.void))

type KubeApiMethods = {
  get(kind: ResourceKind, ref: ObjectRef): Effect.Effect<KubeObject, KubeApiError>
  list(kind: ResourceKind, options?: ListPageOptions): Effect.Effect<ListResult, KubeApiError>
  watch(kind: ResourceKind, options: WatchOptions): Stream.Stream<WatchEvent, KubeApiError>
  create(kind: ResourceKind, object: KubeObject, options?: WriteOptions): Effect.Effect<KubeObject, KubeApiError>
  /** PUT: optimistic concurrency on `metadata.resourceVersion` (Conflict when stale). Status is ignored. */
  update(kind: ResourceKind, object: KubeObject, options?: WriteOptions): Effect.Effect<KubeObject, KubeApiError>
  /** Server-side apply (create or merge); fields this manager applied before and omits now are removed. */
  apply(kind: ResourceKind, object: KubeObject, options: ApplyOptions): Effect.Effect<KubeObject, KubeApiError>
  patch(kind: ResourceKind, ref: ObjectRef, patch: unknown, options: PatchOptions): Effect.Effect<KubeObject, KubeApiError>
  /** The status subresource: only `status` changes; spec and metadata edits are ignored. */
  updateStatus(kind: ResourceKind, object: KubeObject, options?: WriteOptions): Effect.Effect<KubeObject, KubeApiError>
  applyStatus(kind: ResourceKind, object: KubeObject, options: ApplyOptions): Effect.Effect<KubeObject, KubeApiError>
  patchStatus(kind: ResourceKind, ref: ObjectRef, patch: unknown, options: PatchOptions): Effect.Effect<KubeObject, KubeApiError>
  delete(kind: ResourceKind, ref: ObjectRef, options?: DeleteOptions): Effect.Effect<void, KubeApiError>
}

/** A call a stand-in does not implement: a defect naming it, so a test fails saying which call it did not expect. */
const notImplemented = (method: string) => () => Effect.die(new Error(`KubeApi stand-in: ${method} is not implemented`))

/**
 * The port, and stand-ins for tests (as `EventRecorder.layerNoop`):
 * - `KubeApi.stub(methods)`: only `methods` answer; any other call dies naming it.
 * - `KubeApi.overriding(api, methods)`: `api` with `methods` in place of its own, e.g. a
 *   fault, a delay or a cut connection injected into the in-memory server.
 * Each has a layer form.
 */
export class KubeApi extends Context.Service<KubeApi, KubeApiMethods>()("listener-operator/effects/KubeApi") {
  static readonly stub = (methods: Partial<KubeApiMethods> = {}): KubeApiMethods =>
    KubeApi.of({
      get: notImplemented("get"),
      list: notImplemented("list"),
      watch: () => Stream.die(new Error("KubeApi stand-in: watch is not implemented")),
      create: notImplemented("create"),
      update: notImplemented("update"),
      apply: notImplemented("apply"),
      patch: notImplemented("patch"),
      updateStatus: notImplemented("updateStatus"),
      applyStatus: notImplemented("applyStatus"),
      patchStatus: notImplemented("patchStatus"),
      delete: notImplemented("delete"),
      ...methods
    })

  static readonly layerStub = (methods: Partial<KubeApiMethods> = {}): Layer.Layer<KubeApi> =>
    Layer.succeed(KubeApi, KubeApi.stub(methods))

  static readonly overriding = (api: KubeApiMethods, methods: Partial<KubeApiMethods>): KubeApiMethods =>
    KubeApi.of({ ...api, ...methods })

  static readonly layerOverriding = (api: KubeApiMethods, methods: Partial<KubeApiMethods>): Layer.Layer<KubeApi> =>
    Layer.succeed(KubeApi, KubeApi.overriding(api, methods))
}
