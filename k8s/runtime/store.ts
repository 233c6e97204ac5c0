/**
 * Store: the in-memory cache of one kind, fed by a watcher, read by reconciles.
 *
 * Split like kube-rs's reflector: `makeStore` returns a `StoreWriter` (the only way to apply
 * watcher events, kept by the controller) whose `store` field is the reader handed to the
 * reconcile program. The reader also has `writeThrough`: after a write, the object the API
 * server returned goes into the cache at once, so the next reconcile does not act on the
 * stale copy (controller-runtime #1464).
 *
 * Guarantees:
 * - Versions only move forward: an update (watch event or write-through) whose
 *   resourceVersion is not newer than the cached one is ignored (compared as decimal big
 *   integers, see resourceVersion.ts); a delete is ignored if the cache holds a newer object.
 * - A (re)list replaces the contents as it streams in (`RelistStarted`, `Relisted` objects,
 *   `Restarted`): each listed object is stripped and cached as it arrives, so only the keys
 *   seen are held on the side; at `Restarted` the objects the relist did not bring are
 *   removed, except ones written through after the list's snapshot (the watch will report
 *   them). Until then readers see the old or the new version of each object, never a gap.
 * - `metadata.managedFields` and kubectl's last-applied-configuration annotation are
 *   stripped from every cached object (each is often larger than the rest of the object
 *   and no reconcile reads them), then the optional `transform` runs.
 * - Secondary indexes are registered up front and kept in step with every change.
 * - `ready` completes after the first relist has ended and stays complete.
 * Caveats:
 * - Returned objects are shared with the cache: never mutate them.
 * - A read may be older than the API server (by one watch round trip); only write-through
 *   narrows that window, and only for writes made through this store.
 */
import { Deferred, Effect, Option } from "effect"
import type { ResourceKind } from "../../domain/kinds.ts"
import type { KubeObject, ObjectRef } from "../../effects/shared/KubeApi.ts"
import { keyOf, objectKeyOf } from "./objectRef.ts"
import { isAtLeastVersion, isNewerVersion } from "./resourceVersion.ts"
import type { WatcherEvent } from "./watcher.ts"

/** Maps an object to the index values it is found under (none, one or several). */
export type Indexer = (object: KubeObject) => ReadonlyArray<string>

const one = (value: string | undefined): ReadonlyArray<string> => (value === undefined ? [] : [value])

export const Indexers = {
  /** The value of label `key`. */
  label: (key: string): Indexer => (object) => one(object.metadata.labels?.[key]),
  /**
   * The values of several labels joined with "/", only when all are present; e.g.
   * `labels(["listeners.stackable.tech/listener-namespace", "listeners.stackable.tech/listener-name"])`
   * finds PersistentVolumes by `namespace/name` of their Listener.
   */
  labels: (keys: ReadonlyArray<string>): Indexer => (object) => {
    const values = keys.map((key) => object.metadata.labels?.[key])
    return values.every((value) => value !== undefined) ? [values.join("/")] : []
  },
  /** `namespace/value` of label `key`: for labels naming an object in the same namespace (EndpointSlice → Service). */
  namespacedLabel: (key: string): Indexer => (object) => {
    const value = object.metadata.labels?.[key]
    return value === undefined ? [] : [`${object.metadata.namespace ?? ""}/${value}`]
  },
  /** The uids of all owners. */
  ownerUid: ((object) => (object.metadata.ownerReferences ?? []).map((owner) => owner.uid)) as Indexer,
  /** The uid of the controlling owner. */
  controllerUid: ((object) => one(object.metadata.ownerReferences?.find((owner) => owner.controller === true)?.uid)) as Indexer,
  /** `spec.nodeName` (Pods). */
  nodeName: ((object) => {
    const spec = object["spec"]
    const nodeName = typeof spec === "object" && spec !== null ? (spec as { nodeName?: unknown }).nodeName : undefined
    return typeof nodeName === "string" && nodeName !== "" ? [nodeName] : []
  }) as Indexer
} as const

/** One change applied to the cache: `previous` undefined = created, `current` undefined = deleted. */
export interface Change {
  readonly previous: KubeObject | undefined
  readonly current: KubeObject | undefined
}

/** The read side, handed to reconciles. `I` names the registered indexes. */
export interface Store<I extends string = never> {
  readonly kind: ResourceKind
  get(ref: ObjectRef): Effect.Effect<Option.Option<KubeObject>>
  /** All objects, or those of one namespace. */
  list(namespace?: string): Effect.Effect<ReadonlyArray<KubeObject>>
  /** Objects found under `value` in index `index`. */
  listBy(index: I, value: string): Effect.Effect<ReadonlyArray<KubeObject>>
  /** Completes once the first list has been applied. */
  readonly ready: Effect.Effect<void>
  readonly isReady: Effect.Effect<boolean>
  /**
   * Puts the object an API write returned into the cache if it is newer than the cached
   * one; returns whether it did. Mappers do not see this change, and the watch event
   * that follows is recognised as already known, so a controller's own writes do not
   * re-trigger it.
   */
  writeThrough(object: KubeObject): Effect.Effect<boolean>
}

/** The write side, kept by whoever runs the watcher. */
export interface StoreWriter<I extends string = never> {
  readonly store: Store<I>
  /** Applies one watcher event; returns what actually changed (nothing for stale events). */
  apply(event: WatcherEvent): Effect.Effect<ReadonlyArray<Change>>
}

export interface StoreOptions<I extends string> {
  readonly indexes?: { readonly [K in I]: Indexer } | undefined
  /** Runs on every object before it is cached (after managedFields are stripped), e.g. to drop large fields. */
  readonly transform?: ((object: KubeObject) => KubeObject) | undefined
}

/** kubectl's copy of the whole object as last applied: often the largest field, never read by a reconcile. */
export const LAST_APPLIED_ANNOTATION = "kubectl.kubernetes.io/last-applied-configuration"

/** What no reconcile reads and every object may carry in bulk: managedFields, kubectl's last-applied copy. */
const stripUnread = (object: KubeObject): KubeObject => {
  const annotations = object.metadata?.annotations
  const lastApplied = annotations !== undefined && LAST_APPLIED_ANNOTATION in annotations
  if (object.metadata?.managedFields === undefined && !lastApplied) return object
  const { managedFields: _dropped, ...metadata } = object.metadata
  if (lastApplied) {
    const { [LAST_APPLIED_ANNOTATION]: _copy, ...kept } = annotations
    return { ...object, metadata: { ...metadata, annotations: kept } }
  }
  return { ...object, metadata }
}

export const makeStore = <I extends string = never>(
  kind: ResourceKind,
  options: StoreOptions<I> = {}
): Effect.Effect<StoreWriter<I>> =>
  Effect.gen(function*() {
    const readyLatch = yield* Deferred.make<void>()
    const indexers = Object.entries(options.indexes ?? {}) as unknown as ReadonlyArray<[I, Indexer]>
    const transform = options.transform ?? ((object: KubeObject) => object)
    // Mutated only inside Effect.sync blocks: each read or update runs to completion
    // without yielding, so readers never see a half-applied change.
    const objects = new Map<string, KubeObject>()
    const byNamespace = new Map<string, Set<string>>()
    const indexes = new Map<I, Map<string, Set<string>>>(indexers.map(([name]) => [name, new Map()]))

    const addTo = (map: Map<string, Set<string>>, value: string, key: string) => {
      const keys = map.get(value)
      if (keys === undefined) map.set(value, new Set([key]))
      else keys.add(key)
    }
    const removeFrom = (map: Map<string, Set<string>>, value: string, key: string) => {
      const keys = map.get(value)
      if (keys === undefined) return
      keys.delete(key)
      if (keys.size === 0) map.delete(value)
    }
    const unindex = (key: string, object: KubeObject) => {
      removeFrom(byNamespace, object.metadata.namespace ?? "", key)
      for (const [name, indexer] of indexers) {
        for (const value of indexer(object)) removeFrom(indexes.get(name)!, value, key)
      }
    }
    const put = (key: string, object: KubeObject) => {
      const previous = objects.get(key)
      if (previous !== undefined) unindex(key, previous)
      objects.set(key, object)
      addTo(byNamespace, object.metadata.namespace ?? "", key)
      for (const [name, indexer] of indexers) {
        for (const value of indexer(object)) addTo(indexes.get(name)!, value, key)
      }
    }
    const remove = (key: string) => {
      const previous = objects.get(key)
      if (previous === undefined) return
      unindex(key, previous)
      objects.delete(key)
    }
    const prepare = (object: KubeObject) => transform(stripUnread(object))

    const upsertIfNewer = (raw: KubeObject): Change | undefined => {
      const key = objectKeyOf(raw)
      const previous = objects.get(key)
      if (previous !== undefined && !isNewerVersion(raw.metadata.resourceVersion, previous.metadata.resourceVersion)) {
        return undefined
      }
      const current = prepare(raw)
      put(key, current)
      return { previous, current }
    }

    const deleteUnlessNewer = (raw: KubeObject): Change | undefined => {
      const key = objectKeyOf(raw)
      const previous = objects.get(key)
      if (previous === undefined) return { previous: prepare(raw), current: undefined }
      if (!isAtLeastVersion(raw.metadata.resourceVersion, previous.metadata.resourceVersion)) return undefined
      remove(key)
      return { previous, current: undefined }
    }

    // Keys a relist under way has brought so far; undefined when none is under way.
    let relisted: Set<string> | undefined

    const upsertListed = (listed: ReadonlyArray<KubeObject>): ReadonlyArray<Change> => {
      const changes: Array<Change> = []
      for (const raw of listed) {
        relisted?.add(objectKeyOf(raw))
        const change = upsertIfNewer(raw)
        if (change !== undefined) changes.push(change)
      }
      return changes
    }

    const removeUnlisted = (listVersion: string): ReadonlyArray<Change> => {
      const seen = relisted ?? new Set<string>()
      relisted = undefined
      const changes: Array<Change> = []
      for (const [key, previous] of [...objects]) {
        if (seen.has(key)) continue
        // Written through after the list's snapshot: the watch from listVersion reports it.
        if (!isAtLeastVersion(listVersion, previous.metadata.resourceVersion)) continue
        remove(key)
        changes.push({ previous, current: undefined })
      }
      return changes
    }

    const keysToObjects = (keys: Set<string> | undefined): ReadonlyArray<KubeObject> =>
      keys === undefined ? [] : [...keys].map((key) => objects.get(key)!)

    const store: Store<I> = {
      kind,
      get: (ref) => Effect.sync(() => Option.fromUndefinedOr(objects.get(keyOf(ref)))),
      list: (namespace) =>
        Effect.sync(() => (namespace === undefined ? [...objects.values()] : keysToObjects(byNamespace.get(namespace)))),
      listBy: (index, value) =>
        Effect.suspend(() => {
          const entries = indexes.get(index)
          return entries === undefined
            ? Effect.die(new Error(`Store(${kind.kind}).listBy: no index named "${index}" was registered`))
            : Effect.succeed(keysToObjects(entries.get(value)))
        }),
      ready: Deferred.await(readyLatch),
      isReady: Deferred.isDone(readyLatch),
      writeThrough: (object) =>
        Effect.suspend(() =>
          object.kind !== undefined && object.kind !== kind.kind
            ? Effect.die(new Error(`Store(${kind.kind}).writeThrough: got a ${object.kind}`))
            : Effect.sync(() => upsertIfNewer(object) !== undefined)
        )
    }

    const apply = (event: WatcherEvent): Effect.Effect<ReadonlyArray<Change>> => {
      switch (event._tag) {
        case "Applied":
          return Effect.sync(() => {
            const change = upsertIfNewer(event.object)
            return change === undefined ? [] : [change]
          })
        case "Deleted":
          return Effect.sync(() => {
            const change = deleteUnlessNewer(event.object)
            return change === undefined ? [] : [change]
          })
        case "RelistStarted":
          return Effect.sync(() => {
            relisted = new Set()
            return []
          })
        case "Relisted":
          return Effect.sync(() => upsertListed(event.objects))
        case "Restarted":
          return Effect.tap(
            Effect.sync(() => removeUnlisted(event.resourceVersion)),
            () => Deferred.succeed(readyLatch, undefined)
          )
      }
    }

    return { store, apply }
  })
