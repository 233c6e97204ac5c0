/**
 * The `KubeApi` port over the HTTP transport: one request per call, paths from the
 * `ResourceKind` descriptors, the content type each write needs, watch lines decoded into
 * events. Arguments a request cannot be built from (no name, no namespace for a namespaced
 * kind) fail as BadRequest without a round trip.
 */
import { Effect, Stream } from "effect"
import { resourceKeyOf } from "../../domain/kinds.ts"
import type { ResourceKind } from "../../domain/kinds.ts"
import { KubeApi, withTypeMeta } from "../../effects/shared/KubeApi.ts"
import type {
  ApplyOptions,
  DeleteOptions,
  KubeApiError,
  KubeObject,
  ListPageOptions,
  ListResult,
  ObjectRef,
  PatchOptions,
  WatchEvent,
  WatchOptions,
  WriteOptions
} from "../../effects/shared/KubeApi.ts"
import { errorFromBadAnswer, errorFromBadArgument } from "./errors.ts"
import type { RequestTarget } from "../../effects/shared/KubeApi.ts"
import { collectionPath, objectPath, queryString } from "./paths.ts"
import type { QueryValue } from "./paths.ts"
import type { HttpMethod, Transport } from "./request.ts"
import { parseWatchLine } from "./watch.ts"

const CONTENT_TYPE = {
  apply: "application/apply-patch+yaml",
  merge: "application/merge-patch+json",
  json: "application/json-patch+json"
} as const

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const isKubeObject = (u: unknown): u is KubeObject => isRecord(u) && isRecord(u["metadata"])

export const makeKubeApi = (transport: Transport): KubeApi["Service"] => {
  const resourceOf = (kind: ResourceKind, subresource?: "status") =>
    subresource === undefined ? resourceKeyOf(kind) : `${resourceKeyOf(kind)}/${subresource}`

  interface Call {
    readonly target: RequestTarget
    readonly method: HttpMethod
    readonly verb: string
    readonly path: string
    readonly query?: Readonly<Record<string, QueryValue>>
    readonly body?: unknown
    readonly contentType?: string
    readonly subresource?: "status" | undefined
  }

  const call = (c: Call) =>
    transport.send({
      target: c.target,
      method: c.method,
      verb: c.verb,
      path: c.path + queryString(c.query ?? {}),
      body: c.body,
      contentType: c.contentType,
      resource: resourceOf(c.target.kind, c.subresource)
    })

  const expectObject = (target: RequestTarget) => (body: unknown): Effect.Effect<KubeObject, KubeApiError> =>
    isKubeObject(body)
      ? Effect.succeed(withTypeMeta(target.kind, body))
      : Effect.fail(errorFromBadAnswer(target, "answer is not a Kubernetes object"))

  /** Namespace and name of an object-level call; a namespaced kind needs a namespace. */
  const locate = (
    verb: string,
    kind: ResourceKind,
    namespace: string | undefined,
    name: string | undefined
  ): Effect.Effect<{ readonly target: RequestTarget; readonly name: string }, KubeApiError> => {
    const ns = kind.namespaced ? namespace : undefined
    const target: RequestTarget = { verb, kind, namespace: ns, name }
    if (name === undefined || name === "") {
      return Effect.fail(errorFromBadArgument(target, "metadata.name is required", "metadata.name"))
    }
    if (kind.namespaced && (ns === undefined || ns === "")) {
      return Effect.fail(errorFromBadArgument(target, `metadata.namespace is required for the namespaced kind ${kind.kind}`, "metadata.namespace"))
    }
    return Effect.succeed({ target, name })
  }

  const writeObject = (
    verb: string,
    method: "PUT" | "PATCH",
    countedVerb: string,
    subresource: "status" | undefined,
    contentType?: string
  ) =>
  (kind: ResourceKind, object: KubeObject, query: Readonly<Record<string, QueryValue>>) =>
    Effect.flatMap(locate(verb, kind, object.metadata?.namespace, object.metadata?.name), ({ name, target }) =>
      call({
        target,
        method,
        verb: countedVerb,
        path: objectPath(kind, target.namespace, name, subresource),
        query,
        body: object,
        ...(contentType === undefined ? {} : { contentType }),
        subresource
      }).pipe(Effect.flatMap(expectObject(target)))).pipe(Effect.withSpan(`KubeApiHttp.${verb}`))

  const patchObject = (verb: string, subresource: "status" | undefined) =>
  (kind: ResourceKind, ref: ObjectRef, patch: unknown, options: PatchOptions) =>
    Effect.flatMap(locate(verb, kind, ref.namespace, ref.name), ({ name, target }) =>
      call({
        target,
        method: "PATCH",
        verb: "patch",
        path: objectPath(kind, target.namespace, name, subresource),
        query: { fieldManager: options.fieldManager },
        body: patch,
        contentType: CONTENT_TYPE[options.type],
        subresource
      }).pipe(Effect.flatMap(expectObject(target)))).pipe(Effect.withSpan(`KubeApiHttp.${verb}`))

  const update = writeObject("update", "PUT", "update", undefined)
  const updateStatus = writeObject("updateStatus", "PUT", "update", "status")
  const apply = writeObject("apply", "PATCH", "apply", undefined, CONTENT_TYPE.apply)
  const applyStatus = writeObject("applyStatus", "PATCH", "apply", "status", CONTENT_TYPE.apply)
  const applyQuery = (options: ApplyOptions) => ({
    fieldManager: options.fieldManager,
    force: options.force === true ? true : undefined
  })

  const watchEvents = (kind: ResourceKind, options: WatchOptions): Stream.Stream<WatchEvent, KubeApiError> => {
    const namespace = kind.namespaced ? options.namespace : undefined
    const target: RequestTarget = { verb: "watch", kind, namespace }
    const query = {
      watch: 1,
      resourceVersion: options.resourceVersion,
      allowWatchBookmarks: options.allowBookmarks === true ? true : undefined,
      sendInitialEvents: options.sendInitialEvents === true ? true : undefined,
      // the only match a watch-list accepts: the state sent is at least as new as resourceVersion
      resourceVersionMatch: options.sendInitialEvents === true ? "NotOlderThan" : undefined,
      timeoutSeconds: options.timeoutSeconds,
      labelSelector: options.labelSelector,
      fieldSelector: options.fieldSelector
    }
    // without a server-side timeout nothing bounds a silent watch but TCP keep-alive
    const idleMillis = options.timeoutSeconds === undefined ? undefined : (options.timeoutSeconds + 30) * 1000
    return transport.lines({
      target,
      method: "GET",
      verb: "watch",
      path: collectionPath(kind, namespace) + queryString(query),
      resource: resourceOf(kind)
    }, idleMillis).pipe(
      Stream.mapEffect((line) => {
        const parsed = parseWatchLine(target, line)
        switch (parsed._tag) {
          case "Blank":
            return Effect.succeed(undefined)
          case "Failure":
            return Effect.fail(parsed.error)
          case "Event":
            return Effect.succeed({ type: parsed.event.type, object: withTypeMeta(kind, parsed.event.object) })
        }
      }),
      Stream.filter((event): event is WatchEvent => event !== undefined)
    )
  }

  return KubeApi.of({
    get: Effect.fn("KubeApiHttp.get")(function*(kind: ResourceKind, ref: ObjectRef) {
      const { name, target } = yield* locate("get", kind, ref.namespace, ref.name)
      const body = yield* call({ target, method: "GET", verb: "get", path: objectPath(kind, target.namespace, name) })
      return yield* expectObject(target)(body)
    }),

    list: Effect.fn("KubeApiHttp.list")(function*(kind: ResourceKind, options?: ListPageOptions) {
      const namespace = kind.namespaced ? options?.namespace : undefined
      const target: RequestTarget = { verb: "list", kind, namespace }
      const body = yield* call({
        target,
        method: "GET",
        verb: "list",
        path: collectionPath(kind, namespace),
        query: {
          labelSelector: options?.labelSelector,
          fieldSelector: options?.fieldSelector,
          limit: options?.limit,
          continue: options?.continue
        }
      })
      const items = isRecord(body) ? body["items"] : undefined
      const metadata = isRecord(body) ? body["metadata"] : undefined
      const resourceVersion = isRecord(metadata) ? metadata["resourceVersion"] : undefined
      const next = isRecord(metadata) ? metadata["continue"] : undefined
      // `items` is null (not []) in an empty list of some kinds
      if ((items !== null && !Array.isArray(items)) || typeof resourceVersion !== "string") {
        return yield* errorFromBadAnswer(target, "answer is not a list")
      }
      const objects = (items ?? []) as ReadonlyArray<unknown>
      if (!objects.every(isKubeObject)) return yield* errorFromBadAnswer(target, "list holds an item without metadata")
      if (next !== undefined && typeof next !== "string") return yield* errorFromBadAnswer(target, "list has a continue token that is not a string")
      const result: ListResult = {
        items: objects.map((o) => withTypeMeta(kind, o)),
        resourceVersion,
        ...(next === undefined || next === "" ? {} : { continue: next })
      }
      return result
    }),

    watch: watchEvents,

    create: Effect.fn("KubeApiHttp.create")(function*(kind: ResourceKind, object: KubeObject, options?: WriteOptions) {
      const name = object.metadata?.name ?? object.metadata?.generateName
      const { target } = yield* locate("create", kind, object.metadata?.namespace, name)
      const body = yield* call({
        target: { ...target, name: object.metadata?.name },
        method: "POST",
        verb: "create",
        path: collectionPath(kind, target.namespace),
        query: { fieldManager: options?.fieldManager },
        body: object
      })
      return yield* expectObject(target)(body)
    }),

    // The writes below name their spans in writeObject / patchObject (`KubeApiHttp.<method>`).
    update: (kind, object, options) => update(kind, object, { fieldManager: options?.fieldManager }),
    apply: (kind, object, options) => apply(kind, object, applyQuery(options)),
    patch: patchObject("patch", undefined),
    updateStatus: (kind, object, options) => updateStatus(kind, object, { fieldManager: options?.fieldManager }),
    applyStatus: (kind, object, options) => applyStatus(kind, object, applyQuery(options)),
    patchStatus: patchObject("patchStatus", "status"),

    delete: Effect.fn("KubeApiHttp.delete")(function*(kind: ResourceKind, ref: ObjectRef, options?: DeleteOptions) {
      const { name, target } = yield* locate("delete", kind, ref.namespace, ref.name)
      yield* call({
        target,
        method: "DELETE",
        verb: "delete",
        path: objectPath(kind, target.namespace, name),
        body: deleteOptionsBody(options)
      })
    })
  })
}

/** DeleteOptions travel in the body; no body at all when nothing is asked for. */
const deleteOptionsBody = (options: DeleteOptions | undefined): unknown => {
  if (options === undefined) return undefined
  const preconditions = options.preconditions === undefined
    ? undefined
    : Object.fromEntries(Object.entries(options.preconditions).filter(([, v]) => v !== undefined))
  const body = {
    kind: "DeleteOptions",
    apiVersion: "v1",
    ...(options.propagationPolicy === undefined ? {} : { propagationPolicy: options.propagationPolicy }),
    ...(preconditions === undefined ? {} : { preconditions }),
    ...(options.gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds: options.gracePeriodSeconds })
  }
  return Object.keys(body).length === 2 ? undefined : body
}
