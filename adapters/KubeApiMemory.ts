/**
 * The in-memory Kubernetes API server behind the KubeApi port: the same answers, errors
 * and watch semantics as a real kube-apiserver (with kube-controller-manager's garbage
 * collector and namespace controller) for everything this project uses, so programs can
 * be tested and demonstrated without a cluster. The request handling lives in
 * `adapters/memory/`; this module wires it to Effect, counts requests for tests and runs
 * the garbage collector on its own fiber.
 *
 * Known differences from a real cluster are listed in `adapters/memory/README.md`.
 */
import { Clock, Context, Deferred, Duration, Effect, Layer, Queue } from "effect"
import type { Scope } from "effect"
import type { ResourceKind } from "../domain/kinds.ts"
import { Kinds, resourceKeyOf } from "../domain/kinds.ts"
import { KubeApi } from "../effects/shared/KubeApi.ts"
import type { KubeObject } from "../effects/shared/KubeApi.ts"
import { attempt } from "./memory/attempt.ts"
import { collectGarbage } from "./memory/garbageCollector.ts"
import { clone, isObject } from "./memory/json.ts"
import { ApiServer } from "./memory/server.ts"
import type { Defaulter, Validator } from "./memory/server.ts"
import { kubernetesService } from "./memory/serviceDefaults.ts"
import { Store } from "./memory/store.ts"
import { strategyFor } from "./memory/strategies.ts"
import { watchStream } from "./memory/watch.ts"

export type { Defaulter, Validator } from "./memory/server.ts"

export type KubeApiService = (typeof KubeApi)["Service"]

export interface SeedObject {
  readonly kind: ResourceKind
  /** Stored as if created by `seedFieldManager`; a `status` is written through the status subresource. */
  readonly object: KubeObject
}

export interface KubeApiMemoryOptions {
  /** Objects present at start; namespaced ones without a namespace go to "default", missing namespaces are created. */
  readonly objects?: ReadonlyArray<SeedObject> | undefined
  /** How many change events watches can resume from (the watch cache window). Default 10 000. */
  readonly watchHistory?: number | undefined
  /** Admission validation per resource key (`resourceKeyOf(kind)`), e.g. the CRD schemas. */
  readonly validators?: Readonly<Record<string, Validator>> | undefined
  /** Defaulting per resource key, applied to every object the server receives. */
  readonly defaulters?: Readonly<Record<string, Defaulter>> | undefined
  /** The field manager of writes that name none (the real server uses the user agent). Default "unknown". */
  readonly defaultFieldManager?: string | undefined
  /** The field manager seed objects are attributed to. Default "seed". */
  readonly seedFieldManager?: string | undefined
  /** How often watches with `allowBookmarks` get a BOOKMARK. Default 1 minute, as the server. */
  readonly bookmarkInterval?: Duration.Input | undefined
}

/** Requests served, by verb and resource (`create services`, `update listeners.listeners.stackable.tech/status`). */
export interface RequestLog {
  /** How many requests match; `verb` and `resource` (a kind or a resource key) narrow it down. */
  readonly count: (verb?: string, resource?: ResourceKind | string) => number
  /** Writes only: create, update, patch, apply, delete (including their status variants). */
  readonly writes: () => number
  readonly entries: () => ReadonlyArray<{ readonly verb: string; readonly resource: string; readonly count: number }>
  readonly reset: () => void
}

export interface StoredEntry {
  readonly kind: ResourceKind
  readonly object: KubeObject
}

/** The in-memory cluster: the port implementation plus what tests need to look inside. */
export interface MemoryCluster {
  readonly api: KubeApiService
  readonly requests: RequestLog
  /** Every stored object, sorted by resource and key. */
  readonly snapshot: () => ReadonlyArray<StoredEntry>
  /** Stored objects of one kind (optionally one namespace), without counting a request. */
  readonly objects: (kind: ResourceKind, namespace?: string) => ReadonlyArray<KubeObject>
  /** The current (cluster-wide) resourceVersion. */
  readonly resourceVersion: () => string
  /** Completes once the garbage collector has processed every write made before the call. */
  readonly settle: Effect.Effect<void>
  /** Watch streams currently subscribed (they unsubscribe when interrupted or ended). */
  readonly activeWatches: () => number
  /**
   * Forgets the change history, as etcd compacting at the current revision does: watches
   * from an earlier resourceVersion then fail with Gone.
   */
  readonly compact: () => void
}

const WRITE_VERBS = new Set(["create", "update", "patch", "apply", "delete"])

const makeRequestLog = () => {
  const counts = new Map<string, number>()
  const record = (verb: string, kind: ResourceKind, subresource?: string) => {
    const key = `${verb} ${resourceKeyOf(kind)}${subresource === undefined ? "" : `/${subresource}`}`
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  const entries = () =>
    [...counts.entries()].map(([key, count]) => {
      const [verb, resource] = key.split(" ") as [string, string]
      return { verb, resource, count }
    })
  const log: RequestLog = {
    count: (verb, resource) => {
      const wanted = resource === undefined ? undefined : typeof resource === "string" ? resource : resourceKeyOf(resource)
      return entries()
        .filter((e) => verb === undefined || e.verb === verb)
        .filter((e) => wanted === undefined || e.resource === wanted || e.resource === `${wanted}/status`)
        .reduce((n, e) => n + e.count, 0)
    },
    writes: () => entries().filter((e) => WRITE_VERBS.has(e.verb)).reduce((n, e) => n + e.count, 0),
    entries,
    reset: () => counts.clear()
  }
  return { log, record }
}

const SYSTEM_NAMESPACES = ["default", "kube-system", "kube-public", "kube-node-lease"]

const seed = (server: ApiServer, options: KubeApiMemoryOptions, now: number): void => {
  for (const name of SYSTEM_NAMESPACES) {
    server.create(Kinds.Namespace, { apiVersion: "v1", kind: "Namespace", metadata: { name } }, { fieldManager: "kube-apiserver" }, now)
  }
  server.create(Kinds.Service, kubernetesService() as KubeObject, { fieldManager: "kube-apiserver" }, now)
  const manager = options.seedFieldManager ?? "seed"
  for (const { kind, object } of options.objects ?? []) {
    const namespace = kind.namespaced ? object.metadata.namespace ?? "default" : undefined
    if (namespace !== undefined && server.store.get(Kinds.Namespace, undefined, namespace) === undefined) {
      server.create(Kinds.Namespace, { apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } }, { fieldManager: manager }, now)
    }
    const body: KubeObject = { ...clone(object), metadata: { ...clone(object.metadata), namespace } }
    const created = server.create(kind, body, { fieldManager: manager }, now)
    if (strategyFor(kind).statusSubresource && isObject(object["status"])) {
      server.update(kind, { ...created, status: clone(object["status"]) }, { fieldManager: manager }, now, "status")
    }
  }
}

/**
 * Builds an in-memory cluster; its garbage collector runs until the scope closes. Seed
 * objects the server refuses are a bug in the test, so they are a defect.
 */
const make = (options: KubeApiMemoryOptions = {}): Effect.Effect<MemoryCluster, never, Scope.Scope> =>
  Effect.gen(function*() {
    const store = new Store(options.watchHistory ?? 10_000)
    const server = new ApiServer(store, {
      validators: options.validators,
      defaulters: options.defaulters,
      defaultFieldManager: options.defaultFieldManager
    })
    for (const kind of Object.values(Kinds)) store.registerKind(kind)
    const startedAt = yield* Clock.currentTimeMillis
    yield* Effect.orDie(attempt(() => seed(server, options, startedAt)))
    store.markStart()

    // The garbage collector: woken by writes, one sweep per batch of wake-ups.
    const wakeUps = yield* Queue.unbounded<Deferred.Deferred<void> | undefined>()
    let signalled = false
    const unsubscribe = store.subscribe(() => {
      if (signalled) return
      signalled = true
      Queue.offerUnsafe(wakeUps, undefined)
    }, "internal")
    yield* Effect.addFinalizer(() => Effect.sync(unsubscribe))
    const sweep = Effect.gen(function*() {
      const batch = yield* Queue.takeAll(wakeUps)
      signalled = false
      const now = yield* Clock.currentTimeMillis
      yield* Effect.sync(() => collectGarbage(server, now)).pipe(
        Effect.catchDefect((defect) => Effect.logError("in-memory garbage collector failed", defect))
      )
      for (const waiter of batch) if (waiter !== undefined) yield* Deferred.succeed(waiter, undefined)
    })
    yield* Effect.forkScoped(Effect.forever(sweep))

    const requests = makeRequestLog()
    const bookmarkInterval = Duration.fromInputUnsafe(options.bookmarkInterval ?? Duration.minutes(1))
    // Each call in a span named after the port's method (`KubeApiMemory.applyStatus`).
    const served = <A>(verb: string, kind: ResourceKind, f: (now: number) => A, subresource?: string) =>
      Effect.gen(function*() {
        requests.record(verb, kind, subresource)
        const now = yield* Clock.currentTimeMillis
        return yield* attempt(() => f(now))
      }).pipe(Effect.withSpan(`KubeApiMemory.${verb}${subresource === "status" ? "Status" : ""}`))

    const api: KubeApiService = {
      get: (kind, ref) => served("get", kind, () => server.get(kind, ref)),
      list: (kind, listOptions) => served("list", kind, () => server.list(kind, listOptions)),
      watch: (kind, watchOptions) => {
        requests.record("watch", kind)
        return watchStream(server, kind, watchOptions, bookmarkInterval)
      },
      create: (kind, object, writeOptions) => served("create", kind, (now) => server.create(kind, object, writeOptions, now)),
      update: (kind, object, writeOptions) => served("update", kind, (now) => server.update(kind, object, writeOptions, now, "main")),
      apply: (kind, object, applyOptions) => served("apply", kind, (now) => server.apply(kind, object, applyOptions, now, "main")),
      patch: (kind, ref, patch, patchOptions) => served("patch", kind, (now) => server.patch(kind, ref, patch, patchOptions, now, "main")),
      updateStatus: (kind, object, writeOptions) => served("update", kind, (now) => server.update(kind, object, writeOptions, now, "status"), "status"),
      applyStatus: (kind, object, applyOptions) => served("apply", kind, (now) => server.apply(kind, object, applyOptions, now, "status"), "status"),
      patchStatus: (kind, ref, patch, patchOptions) => served("patch", kind, (now) => server.patch(kind, ref, patch, patchOptions, now, "status"), "status"),
      delete: (kind, ref, deleteOptions) => served("delete", kind, (now) => server.delete(kind, ref, deleteOptions, now))
    }

    const settle = Effect.gen(function*() {
      const done = yield* Deferred.make<void>()
      Queue.offerUnsafe(wakeUps, done)
      yield* Deferred.await(done)
    })

    const cluster: MemoryCluster = {
      api,
      requests: requests.log,
      snapshot: () =>
        store.all()
          .map((s) => ({ kind: s.kind, object: clone(s.object) }))
          .sort((a, b) => {
            const ka = `${resourceKeyOf(a.kind)} ${a.object.metadata.namespace ?? ""}/${a.object.metadata.name}`
            const kb = `${resourceKeyOf(b.kind)} ${b.object.metadata.namespace ?? ""}/${b.object.metadata.name}`
            return ka < kb ? -1 : ka > kb ? 1 : 0
          }),
      objects: (kind, namespace) => store.list(kind, namespace).map((s) => clone(s.object)),
      resourceVersion: () => String(store.currentRevision),
      settle,
      activeWatches: () => store.activeWatches,
      compact: () => store.compact()
    }
    return cluster
  })

/**
 * The in-memory cluster as a service, for tests that want to look inside (request
 * counts, stored objects, garbage-collector quiescence) next to the KubeApi they use.
 */
export class KubeApiMemory extends Context.Service<KubeApiMemory, MemoryCluster>()(
  "listener-operator/adapters/KubeApiMemory"
) {
  static readonly make = make

  /** KubeApi backed by a fresh in-memory cluster, plus KubeApiMemory to inspect it. */
  static readonly layer = (options: KubeApiMemoryOptions = {}): Layer.Layer<KubeApi | KubeApiMemory> =>
    Layer.effectContext(
      Effect.map(make(options), (cluster) => Context.make(KubeApiMemory, cluster).pipe(Context.add(KubeApi, cluster.api)))
    )
}
