/**
 * Controller: wires watchers, stores and the work queue into a level-triggered reconcile
 * loop for one primary kind plus any number of watched secondary kinds.
 *
 * Two steps, so the reconcile program can be built on the caches before the loop runs:
 *
 *   const controller = yield* makeController({
 *     name: "listener",
 *     primary: { kind: Kinds.Listener, indexes: { className: byClassName } },
 *     watches: {
 *       services: { kind: Kinds.Service, mapper: controllerOwnerOfKind("Listener") },
 *       volumes: {
 *         kind: Kinds.PersistentVolume,
 *         labelSelector: `${NS_LABEL},${NAME_LABEL}`,
 *         indexes: { listener: Indexers.labels([NS_LABEL, NAME_LABEL]) },
 *         // called with the old AND the new object: relabelling a PV enqueues both Listeners
 *         mapper: (pv) => listenerNamedBy(pv.metadata.labels)
 *       },
 *       nodes: { kind: Kinds.Node, shouldEnqueue: addressesChanged, mapper: (node) => effectReadingAnIndex(node) }
 *     }
 *   })                                          // caches start filling now (in this scope)
 *   const reconcile = (ref: ObjectRef) => Effect.gen(function*() {
 *     const listener = yield* controller.primary.get(ref)                // Option<KubeObject>
 *     const pvs = yield* controller.stores.volumes.listBy("listener", `${ref.namespace}/${ref.name}`)
 *     const written = yield* api.apply(Kinds.Service, desired, { fieldManager, force: true })
 *     yield* controller.stores.services.writeThrough(written)          // the cache sees our write
 *     return Action.awaitChange
 *   })
 *   yield* controller.run({ reconcile, errorPolicy, concurrency: 4 })   // never returns
 *
 * Guarantees:
 * - No reconcile runs before every cache (primary and secondaries) has listed once.
 * - Then every primary object is reconciled once; afterwards a primary key is enqueued when
 *   the primary changes, when a secondary changes and its mapper names it (the mapper sees
 *   the previous and the current object; the union of both results is enqueued), and for
 *   every cached primary every `resyncInterval` (from the cache, no API request).
 * - Work-queue guarantees apply: de-duplication, one run per key at a time, bounded
 *   concurrency, per-key backoff (workQueue.ts).
 * - A reconcile failure goes through `errorPolicy`, whose Action decides what happens next;
 *   a defect in the reconcile or the policy is logged and treated as a transient failure
 *   (`retryWithBackoff`) of that key only; a defect in a mapper or filter is logged and that
 *   object version enqueues nothing. Nothing a reconcile does stops the controller.
 * - Interrupting `run` stops the loop (runs in progress get `shutdownGrace` to finish, then
 *   are interrupted); the caches keep running until the scope of `makeController` closes,
 *   so a leader-election handover can call `run` again on warm caches.
 * - A key is reconciled only if its primary is in the cache when its run starts (mappers may
 *   name primaries that do not exist; deleted primaries are not reconciled — use owner
 *   references or a finalizer for cleanup).
 * Caveats:
 * - The reconcile receives a reference and reads the object from `controller.primary`; it
 *   may be deleted meanwhile. Reconciles are level-based and must be idempotent.
 * - Caches lag the API server by one watch round trip; write-through (Store.writeThrough)
 *   covers the controller's own writes, and those writes do not re-trigger mappers.
 * - Caches run on standby replicas too (memory and one watch per kind).
 */
import { Cause, Clock, Duration, Effect, Exit, Metric, Option } from "effect"
import type { Scope } from "effect"
import type { ResourceKind } from "../../domain/kinds.ts"
import type { KubeApi, KubeObject, ObjectRef } from "../../effects/KubeApi.ts"
import { Action } from "./action.ts"
import type { BackoffPolicy } from "./backoff.ts"
import { reconcileDurationSeconds, reconcileTotal, type ReconcileResult, workQueueDepth, cacheEventsTotal } from "./metrics.ts"
import { keyOf, objectKeyOf, refOf, refOfKey } from "./objectRef.ts"
import { type Change, type Indexer, makeStore, type Store, type StoreWriter } from "./store.ts"
import { runWatcher, type WatcherEvent } from "./watcher.ts"
import { makeWorkQueue, type WorkQueue } from "./workQueue.ts"

/** What to cache: one kind, optionally scoped, with secondary indexes registered up front. */
export interface CacheSpec<I extends string = string> {
  readonly kind: ResourceKind
  readonly namespace?: string | undefined
  readonly labelSelector?: string | undefined
  readonly fieldSelector?: string | undefined
  readonly indexes?: { readonly [K in I]: Indexer } | undefined
  /** Runs on each object before it is cached (after managedFields are stripped). */
  readonly transform?: ((object: KubeObject) => KubeObject) | undefined
}

export interface PrimarySpec<I extends string = string> extends CacheSpec<I> {
  /** Filters primary changes that should not trigger a reconcile (default: all do). */
  readonly shouldEnqueue?: ((change: Change) => boolean) | undefined
}

/**
 * Maps a secondary object to the primaries it affects. Called on the previous and on the
 * current version of a changed object (the union is enqueued). May return an Effect, e.g.
 * to look objects up in a Store's index; it must not fail (a defect is logged and the
 * change is ignored).
 */
export type Mapper = (object: KubeObject) => ReadonlyArray<ObjectRef> | Effect.Effect<ReadonlyArray<ObjectRef>>

export interface WatchSpec<I extends string = string> extends CacheSpec<I> {
  /** Without a mapper the kind is only cached (for reads), never enqueues anything. */
  readonly mapper?: Mapper | undefined
  /** Filters changes before mapping, e.g. ignore Node heartbeats (default: all pass). */
  readonly shouldEnqueue?: ((change: Change) => boolean) | undefined
}

export interface ControllerSpec<P extends PrimarySpec, W extends Readonly<Record<string, WatchSpec>>> {
  /** Names the controller in logs and metrics. */
  readonly name: string
  readonly primary: P
  readonly watches?: W | undefined
  /** Watcher tuning shared by all kinds. */
  readonly watcher?: {
    readonly backoff?: BackoffPolicy | undefined
    readonly watchTimeoutSeconds?: number | undefined
  } | undefined
}

/** The index names a spec registered. */
export type IndexNames<S> = S extends { readonly indexes?: infer X } ? keyof NonNullable<X> & string : never

export interface RunOptions<E, R> {
  readonly reconcile: (ref: ObjectRef) => Effect.Effect<Action, E, R>
  /** Maps a reconcile failure to an Action (default: `retryWithBackoff`). May log or record Events. */
  readonly errorPolicy?: ((error: E, ref: ObjectRef) => Effect.Effect<Action, never, R>) | undefined
  /** Keys reconciled at once (default 4). */
  readonly concurrency?: number | undefined
  /** Re-enqueue every cached primary this often (default 10 minutes; "Infinity" disables). */
  readonly resyncInterval?: Duration.Input | undefined
  /** Backoff for `retryWithBackoff` (default 1s doubling to 5 min, jitter 0.2). */
  readonly backoff?: BackoffPolicy | undefined
  /**
   * How long runs in progress may finish when `run` is interrupted (default 2 seconds; 0
   * interrupts them at once). The wait uses the Clock: under TestClock, adjust the clock or
   * set 0, or interrupting a run with a reconcile in progress waits forever.
   */
  readonly shutdownGrace?: Duration.Input | undefined
}

export interface Controller<P extends PrimarySpec, W extends Readonly<Record<string, WatchSpec>>> {
  readonly name: string
  /** The primary kind's cache. */
  readonly primary: Store<IndexNames<P>>
  /** The secondary kinds' caches, by the names given in `watches`. */
  readonly stores: { readonly [K in keyof W]: Store<IndexNames<W[K]>> }
  /** Completes once every cache has listed once. */
  readonly synced: Effect.Effect<void>
  /** Enqueues a primary now (ignored unless `run` is running). */
  enqueue(ref: ObjectRef): Effect.Effect<void>
  /** Runs the reconcile loop until interrupted. Only one `run` at a time. */
  run<E, R>(options: RunOptions<E, R>): Effect.Effect<never, never, R>
}

interface Cache {
  readonly name: string
  readonly spec: CacheSpec & { readonly mapper?: Mapper | undefined; readonly shouldEnqueue?: ((change: Change) => boolean) | undefined }
  readonly writer: StoreWriter<string>
  readonly isPrimary: boolean
}

const startCache = (
  name: string,
  spec: Cache["spec"],
  isPrimary: boolean
): Effect.Effect<Cache> =>
  Effect.map(makeStore<string>(spec.kind, { indexes: spec.indexes, transform: spec.transform }), (writer) => ({
    name,
    spec,
    writer,
    isPrimary
  }))

export const makeController = <
  P extends PrimarySpec,
  W extends Readonly<Record<string, WatchSpec>> = Record<never, never>
>(spec: ControllerSpec<P, W>): Effect.Effect<Controller<P, W>, never, KubeApi | Scope.Scope> =>
  Effect.gen(function*() {
    const controllerName = spec.name
    const primary = yield* startCache("primary", spec.primary, true)
    const secondaries: Array<Cache> = []
    for (const [name, watch] of Object.entries(spec.watches ?? {}) as Array<[string, WatchSpec]>) {
      secondaries.push(yield* startCache(name, watch, false))
    }
    const caches = [primary, ...secondaries]

    // Where changes go while `run` is active (after the caches synced); undefined otherwise.
    let sink: WorkQueue | undefined
    let running = false

    // A throwing (or dying) user function is logged and counts as "nothing to enqueue" for
    // that object only, so one malformed object can neither stop the controller nor hide
    // the other version of a change.
    const guarded = <A>(cache: Cache, object: KubeObject, what: string, fallback: A) =>
      Effect.catchDefect((defect: unknown) =>
        Effect.as(
          Effect.logError(`${what} of a ${cache.spec.kind.kind} failed; ignoring it`).pipe(
            Effect.annotateLogs({ object: objectKeyOf(object), error: String(defect) })
          ),
          fallback
        )
      )

    const refsOf = (cache: Cache, mapper: Mapper, object: KubeObject | undefined): Effect.Effect<ReadonlyArray<ObjectRef>> =>
      object === undefined ? Effect.succeed([]) : Effect.suspend(() => {
        const refs = mapper(object)
        return Effect.isEffect(refs) ? refs : Effect.succeed(refs)
      }).pipe(guarded(cache, object, "mapping", []))

    const refsOfChange = (cache: Cache, change: Change): Effect.Effect<ReadonlyArray<ObjectRef>> => {
      const object = (change.current ?? change.previous)!
      const filter = cache.spec.shouldEnqueue
      const passes = Effect.sync(() => filter === undefined || filter(change)).pipe(guarded(cache, object, "filtering", false))
      return Effect.flatMap(passes, (pass) => {
        if (!pass) return Effect.succeed([])
        if (cache.isPrimary) return Effect.succeed([refOf(object)])
        const mapper = cache.spec.mapper
        if (mapper === undefined) return Effect.succeed([])
        return Effect.map(
          Effect.all([refsOf(cache, mapper, change.previous), refsOf(cache, mapper, change.current)]),
          ([before, after]) => [...before, ...after]
        )
      })
    }

    const keysOfChange = (cache: Cache, change: Change): Effect.Effect<ReadonlyArray<string>> =>
      Effect.map(refsOfChange(cache, change), (refs) => [...new Set(refs.map(keyOf))])

    const onEvents = (cache: Cache) => (events: ReadonlyArray<WatcherEvent>) =>
      Effect.forEach(events, (event) =>
        Effect.gen(function*() {
          yield* Metric.update(Metric.withAttributes(cacheEventsTotal, { kind: cache.spec.kind.kind, type: event._tag }), 1)
          const changes = yield* cache.writer.apply(event)
          const queue = sink
          if (queue === undefined || changes.length === 0) return
          for (const change of changes) yield* queue.addAll(yield* keysOfChange(cache, change))
        }), { discard: true })

    for (const cache of caches) {
      yield* runWatcher(cache.spec.kind, {
        namespace: cache.spec.namespace,
        labelSelector: cache.spec.labelSelector,
        fieldSelector: cache.spec.fieldSelector,
        backoff: spec.watcher?.backoff,
        watchTimeoutSeconds: spec.watcher?.watchTimeoutSeconds
      }, onEvents(cache)).pipe(
        Effect.annotateLogs({ controller: controllerName, cache: cache.name }),
        Effect.forkScoped
      )
    }

    const synced = Effect.forEach(caches, (cache) => cache.writer.store.ready, { discard: true })

    const stores = Object.fromEntries(secondaries.map((cache) => [cache.name, cache.writer.store])) as {
      readonly [K in keyof W]: Store<IndexNames<W[K]>>
    }

    const run = <E, R>(options: RunOptions<E, R>): Effect.Effect<never, never, R> =>
      Effect.scoped(Effect.gen(function*() {
        if (running) return yield* Effect.die(new Error(`controller ${controllerName}: run is already running`))
        yield* Effect.acquireRelease(Effect.sync(() => { running = true }), () => Effect.sync(() => { running = false }))
        const errorPolicy = options.errorPolicy ?? (() => Effect.succeed(Action.retryWithBackoff))
        const resyncInterval = Duration.fromInputUnsafe(options.resyncInterval ?? "10 minutes")
        const shutdownGrace = Duration.fromInputUnsafe(options.shutdownGrace ?? "2 seconds")
        const withController = <A>(metric: Metric.Metric<A, unknown>, attributes: Record<string, string> = {}) =>
          Metric.withAttributes(metric, { controller: controllerName, ...attributes })

        const record = (result: ReconcileResult, started: number) =>
          Effect.gen(function*() {
            const now = yield* Clock.currentTimeMillis
            yield* Metric.update(withController(reconcileTotal, { result }), 1)
            yield* Metric.update(withController(reconcileDurationSeconds), (now - started) / 1000)
          })

        const transient = (what: string, cause: Cause.Cause<unknown>) =>
          Effect.as(
            Effect.logError(`${what}; retrying with backoff`).pipe(Effect.annotateLogs({ cause: Cause.pretty(cause) })),
            Action.retryWithBackoff
          )

        const reconcileOne = (key: string): Effect.Effect<Action, never, R> =>
          Effect.gen(function*() {
            const ref = refOfKey(key)
            // As kube-rs: a primary that is gone has nothing left to converge (its owned
            // objects go by garbage collection; finalizers keep an object present until
            // their cleanup is done), so mapped keys of absent primaries are dropped here.
            if (Option.isNone(yield* primary.writer.store.get(ref))) return Action.awaitChange
            const started = yield* Clock.currentTimeMillis
            const exit = yield* Effect.exit(options.reconcile(ref))
            if (Exit.isSuccess(exit)) {
              yield* record("success", started)
              return exit.value
            }
            const error = Cause.findErrorOption(exit.cause)
            if (Option.isNone(error)) {
              yield* record("defect", started)
              return yield* transient("reconcile died", exit.cause)
            }
            yield* record("error", started)
            yield* Effect.logDebug("reconcile failed").pipe(Effect.annotateLogs({ cause: Cause.pretty(exit.cause) }))
            const decided = yield* Effect.exit(errorPolicy(error.value, ref))
            return Exit.isSuccess(decided) ? decided.value : yield* transient("error policy died", decided.cause)
          }).pipe(Effect.annotateLogs({ controller: controllerName, object: key }))

        yield* synced
        const queue = yield* makeWorkQueue({
          concurrency: options.concurrency ?? 4,
          backoff: options.backoff,
          process: reconcileOne,
          onDepthChange: (depth) => Metric.update(withController(workQueueDepth), depth)
        })
        // Runs before the queue's own finalizers (reverse order): let runs in progress finish.
        if (Duration.isPositive(shutdownGrace)) {
          yield* Effect.addFinalizer(() => Effect.ignore(Effect.timeoutOption(queue.shutdown, shutdownGrace)))
        }
        yield* Effect.acquireRelease(Effect.sync(() => { sink = queue }), () => Effect.sync(() => { sink = undefined }))

        const enqueueAllPrimaries = Effect.flatMap(primary.writer.store.list(), (objects) => queue.addAll(objects.map(objectKeyOf)))
        yield* Effect.logInfo("caches synced; starting workers").pipe(
          Effect.annotateLogs({ controller: controllerName, concurrency: options.concurrency ?? 4 })
        )
        yield* enqueueAllPrimaries
        if (Duration.isFinite(resyncInterval) && Duration.isPositive(resyncInterval)) {
          yield* Effect.forkScoped(Effect.forever(Effect.andThen(Effect.sleep(resyncInterval), enqueueAllPrimaries)))
        }
        return yield* Effect.never
      }))

    return {
      name: controllerName,
      primary: primary.writer.store as Store<IndexNames<P>>,
      stores,
      synced,
      enqueue: (ref) => Effect.suspend(() => (sink === undefined ? Effect.void : sink.add(keyOf(ref)))),
      run
    }
  })

/**
 * Builds a controller and runs it in one go; `build` receives the controller (for its
 * caches) and returns the reconcile options.
 */
export const runController = <P extends PrimarySpec, W extends Readonly<Record<string, WatchSpec>>, E, R>(
  spec: ControllerSpec<P, W>,
  build: (controller: Controller<P, W>) => RunOptions<E, R>
): Effect.Effect<never, never, R | KubeApi> =>
  Effect.scoped(Effect.flatMap(makeController(spec), (controller) => controller.run(build(controller))))

/** A mapper for secondaries owned by a primary: the controller owner reference of `kind`. */
export const controllerOwnerOfKind = (kind: string): Mapper => (object) => {
  const owner = object.metadata.ownerReferences?.find((ref) => ref.controller === true && ref.kind === kind)
  return owner === undefined ? [] : [{ namespace: object.metadata.namespace, name: owner.name }]
}

/** A mapper to the primary of the same namespace and name (e.g. a Listener's Service). */
export const sameName: Mapper = (object) => [refOf(object)]
