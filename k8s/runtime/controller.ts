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
 *       services: { kind: Kinds.Service },
 *       volumes: {
 *         kind: Kinds.PersistentVolume,
 *         labelSelector: `${NS_LABEL},${NAME_LABEL}`,
 *         indexes: { listener: Indexers.labels([NS_LABEL, NAME_LABEL]) }
 *       },
 *       nodes: { kind: Kinds.Node, shouldEnqueue: addressesChanged }
 *     },
 *     // Built once the caches exist, so a mapper may read them (as kube-rs mappers capture
 *     // `controller.store()`). Called with the old AND the new object: relabelling a PV
 *     // enqueues both Listeners.
 *     mappers: ({ primary, stores }) => ({
 *       services: controllerOwnerOfKind("Listener"),
 *       volumes: (pv) => Effect.succeed(listenerNamedBy(pv.metadata.labels)),
 *       nodes: (node) => Effect.map(stores.volumes.listBy("pinnedNode", node.metadata.name!), (pvs) => pvs.flatMap(listenerOf))
 *     })
 *   })                                          // caches start filling now (in this scope)
 *   const reconcile = (listener: KubeObject) => Effect.gen(function*() {   // as the cache holds it
 *     const pvs = yield* controller.stores.volumes.listBy("listener", objectKeyOf(listener))
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
 * - The reconcile and the error policy receive the primary as the cache holds it when the
 *   key's run starts (as kube-rs's `reconcile(Arc<K>)`): no second lookup, and the error
 *   policy sees the very object the reconcile saw.
 * - A key whose primary is not in the cache when its run starts is skipped (an Action of
 *   `awaitChange`, no call): mappers may name primaries that do not exist, and a deleted
 *   primary's queued key has nothing left to converge — its owned objects go by garbage
 *   collection, and a finalizer keeps an object cached until its cleanup has run.
 * - A reconcile failure goes through `errorPolicy`, whose Action decides what happens next;
 *   a defect in the reconcile or the policy is logged and treated as a transient failure
 *   (`retryWithBackoff`) of that key only; a defect in a mapper or filter is logged and that
 *   object version enqueues nothing. Nothing a reconcile does stops the controller.
 * - Interrupting `run` stops the loop (runs in progress get `shutdownGrace` to finish, then
 *   are interrupted); the caches keep running until the scope of `makeController` closes,
 *   so a leader-election handover can call `run` again on warm caches.
 * Caveats:
 * - The object handed to the reconcile may be deleted or changed meanwhile (a change
 *   enqueues the key again). Reconciles are level-based and must be idempotent.
 * - Caches lag the API server by one watch round trip; write-through (Store.writeThrough)
 *   covers the controller's own writes, and those writes do not re-trigger mappers.
 * - Caches run on standby replicas too (memory and one watch per kind).
 */
import { Cause, Clock, Duration, Effect, Exit, Metric, Option } from "effect"
import type { Scope } from "effect"
import type { ResourceKind } from "../../domain/kinds.ts"
import type { KubeApi, KubeObject, ObjectRef } from "../../effects/shared/KubeApi.ts"
import { Action } from "../../effects/shared/action.ts"
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
 * current version of a changed object (the union is enqueued). An Effect, so that it can
 * look objects up in the caches it was built with; it must not fail (a defect is logged
 * and the change is ignored).
 */
export type Mapper = (object: KubeObject) => Effect.Effect<ReadonlyArray<ObjectRef>>

export interface WatchSpec<I extends string = string> extends CacheSpec<I> {
  /** Filters changes before mapping, e.g. ignore Node heartbeats (default: all pass). */
  readonly shouldEnqueue?: ((change: Change) => boolean) | undefined
}

/** The index names a spec registered. */
export type IndexNames<S> = S extends { readonly indexes?: infer X } ? keyof NonNullable<X> & string : never

/** The read sides of a controller's caches: the primary's and each watched kind's, by its name in `watches`. */
export interface Caches<P extends PrimarySpec, W extends Readonly<Record<string, WatchSpec>>> {
  readonly primary: Store<IndexNames<P>>
  readonly stores: { readonly [K in keyof W]: Store<IndexNames<W[K]>> }
}

export interface ControllerSpec<P extends PrimarySpec, W extends Readonly<Record<string, WatchSpec>>> {
  /** Names the controller in logs and metrics. */
  readonly name: string
  readonly primary: P
  readonly watches?: W | undefined
  /**
   * The mapper of each watched kind, built from the caches once they exist; a watched kind
   * without one is only cached (for reads) and never enqueues anything.
   */
  readonly mappers?: ((caches: Caches<P, W>) => { readonly [K in keyof W]?: Mapper | undefined }) | undefined
  /** Watcher tuning shared by all kinds. */
  readonly watcher?: {
    readonly backoff?: BackoffPolicy | undefined
    readonly watchTimeoutSeconds?: number | undefined
  } | undefined
}

export interface RunOptions<E, R> {
  /** Converges one primary, given as the cache holds it when its key's run starts. */
  readonly reconcile: (object: KubeObject) => Effect.Effect<Action, E, R>
  /**
   * Maps a reconcile failure to an Action (default: `retryWithBackoff`), given the object
   * the reconcile was given. May log or record Events.
   */
  readonly errorPolicy?: ((error: E, object: KubeObject) => Effect.Effect<Action, never, R>) | undefined
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

export interface Controller<P extends PrimarySpec, W extends Readonly<Record<string, WatchSpec>>> extends Caches<P, W> {
  readonly name: string
  /** Completes once every cache has listed once. */
  readonly synced: Effect.Effect<void>
  /** Enqueues a primary now (ignored unless `run` is running). */
  enqueue(ref: ObjectRef): Effect.Effect<void>
  /** Runs the reconcile loop until interrupted. Only one `run` at a time. */
  run<E, R>(options: RunOptions<E, R>): Effect.Effect<never, never, R>
}

interface Cache {
  readonly name: string
  readonly spec: CacheSpec & { readonly shouldEnqueue?: ((change: Change) => boolean) | undefined }
  readonly writer: StoreWriter<string>
  readonly isPrimary: boolean
  readonly mapper: Mapper | undefined
}

const makeWriter = (spec: CacheSpec): Effect.Effect<StoreWriter<string>> =>
  makeStore<string>(spec.kind, { indexes: spec.indexes, transform: spec.transform })

export const makeController = <
  P extends PrimarySpec,
  W extends Readonly<Record<string, WatchSpec>> = Record<never, never>
>(spec: ControllerSpec<P, W>): Effect.Effect<Controller<P, W>, never, KubeApi | Scope.Scope> =>
  Effect.gen(function*() {
    const controllerName = spec.name
    const watches = Object.entries(spec.watches ?? {}) as Array<[string, WatchSpec]>
    const primaryWriter = yield* makeWriter(spec.primary)
    const writers = new Map<string, StoreWriter<string>>()
    for (const [name, watch] of watches) writers.set(name, yield* makeWriter(watch))
    const primaryStore = primaryWriter.store as Store<IndexNames<P>>
    const stores = Object.fromEntries([...writers].map(([name, writer]) => [name, writer.store])) as {
      readonly [K in keyof W]: Store<IndexNames<W[K]>>
    }
    // The stores exist before the mappers, so a mapper can read them; no change is mapped before this.
    const mappers: { readonly [name: string]: Mapper | undefined } = spec.mappers?.({ primary: primaryStore, stores }) ?? {}
    const primary: Cache = { name: "primary", spec: spec.primary, writer: primaryWriter, isPrimary: true, mapper: undefined }
    const caches: ReadonlyArray<Cache> = [
      primary,
      ...watches.map(([name, watch]): Cache => ({ name, spec: watch, writer: writers.get(name)!, isPrimary: false, mapper: mappers[name] }))
    ]

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
      object === undefined ? Effect.succeed([]) : Effect.suspend(() => mapper(object)).pipe(guarded(cache, object, "mapping", []))

    const refsOfChange = (cache: Cache, change: Change): Effect.Effect<ReadonlyArray<ObjectRef>> => {
      const object = (change.current ?? change.previous)!
      const filter = cache.spec.shouldEnqueue
      const passes = Effect.sync(() => filter === undefined || filter(change)).pipe(guarded(cache, object, "filtering", false))
      return Effect.flatMap(passes, (pass) => {
        if (!pass) return Effect.succeed([])
        if (cache.isPrimary) return Effect.succeed([refOf(object)])
        const mapper = cache.mapper
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
            // As kube-rs: a primary that is gone has nothing left to converge (its owned
            // objects go by garbage collection; finalizers keep an object present until
            // their cleanup is done), so mapped keys of absent primaries are dropped here.
            const cached = yield* primary.writer.store.get(refOfKey(key))
            if (Option.isNone(cached)) return Action.awaitChange
            const object = cached.value
            const started = yield* Clock.currentTimeMillis
            // Each reconcile is a trace of its own (its API requests are child spans).
            const exit = yield* Effect.exit(options.reconcile(object).pipe(
              Effect.withSpan(`reconcile ${controllerName}`, { root: true, attributes: { controller: controllerName, key } })
            ))
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
            const decided = yield* Effect.exit(errorPolicy(error.value, object))
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
      primary: primaryStore,
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

/** The primary named by an object's controller owner reference of `kind`, if any. */
export const controllerOwnerRefOf = (kind: string, object: KubeObject): ObjectRef | undefined => {
  const owner = object.metadata.ownerReferences?.find((ref) => ref.controller === true && ref.kind === kind)
  return owner === undefined ? undefined : { namespace: object.metadata.namespace, name: owner.name }
}

/** A mapper for secondaries owned by a primary: the controller owner reference of `kind`. */
export const controllerOwnerOfKind = (kind: string): Mapper => (object) => {
  const owner = controllerOwnerRefOf(kind, object)
  return Effect.succeed(owner === undefined ? [] : [owner])
}

/** A mapper to the primary of the same namespace and name (e.g. a Listener's Service). */
export const sameName: Mapper = (object) => Effect.succeed([refOf(object)])
