/**
 * Runs the Listener reconcile the way the controller does — reads from caches, writes to
 * the API — over the in-memory API server, without watchers: `sync` copies the server's
 * objects into the caches (what the watches would do), so a test decides when the caches
 * catch up and can count exactly the requests one reconcile sends.
 */
import { Effect, Option } from "effect"
import { KubeApiMemory } from "../../../../adapters/KubeApiMemory.ts"
import type { KubeApiMemoryOptions, SeedObject } from "../../../../adapters/KubeApiMemory.ts"
import { makeEventRecorderKube } from "../../../../adapters/EventRecorderKube.ts"
import { Kinds } from "../../../../domain/kinds.ts"
import type { ResourceKind } from "../../../../domain/kinds.ts"
import type { Action } from "../../../../effects/shared/action.ts"
import { EventRecorder } from "../../../../effects/shared/EventRecorder.ts"
import { KubeApi } from "../../../../effects/shared/KubeApi.ts"
import type { KubeObject } from "../../../../effects/shared/KubeApi.ts"
import { ListenerView } from "../../../../effects/controller/ListenerView.ts"
import { runListenerReconcile } from "../../../../effects/controller/reconcileListener.ts"
import { makeStatusSchemaGaps, StatusSchemaGaps } from "../../../../effects/takeover/StatusSchemaGaps.ts"
import { listenerViewOf, makeListenerStores } from "../../../../k8s/listenerCaches.ts"
import { WatcherEvent } from "../../../../k8s/runtime/watcher.ts"

export const listenerClassObject = (name: string, spec: Record<string, unknown>): SeedObject => ({
  kind: Kinds.ListenerClass,
  object: { apiVersion: "listeners.stackable.tech/v1alpha1", kind: "ListenerClass", metadata: { name }, spec }
})

export const listenerObject = (name: string, spec: Record<string, unknown>, namespace = "apps"): SeedObject => ({
  kind: Kinds.Listener,
  object: { apiVersion: "listeners.stackable.tech/v1alpha1", kind: "Listener", metadata: { name, namespace }, spec }
})

export const makeHarness = (
  options: KubeApiMemoryOptions & {
    /** Calls of the in-memory server replaced for the reconcile (KubeApi.overriding), e.g. a failing apply. */
    readonly overrides?: Partial<KubeApi["Service"]>
  } = {}
) =>
  Effect.gen(function*() {
    const cluster = yield* KubeApiMemory.make(options)
    const stores = yield* makeListenerStores
    const caches = {
      listeners: stores.listeners.store,
      listenerClasses: stores.listenerClasses.store,
      services: stores.services.store,
      endpointSlices: stores.endpointSlices.store,
      volumes: stores.volumes.store,
      nodes: stores.nodes.store
    }
    const view = listenerViewOf(caches)
    const api = KubeApi.overriding(cluster.api, options.overrides ?? {})
    const events = yield* makeEventRecorderKube({ reportingController: "test/listener", reportingInstance: "test-0", seriesWriteInterval: 0 }).pipe(
      Effect.map((made) => made.recorder),
      Effect.provideService(KubeApi, cluster.api)
    )

    /** What the watches would do: the caches now hold what the server holds. */
    const sync = Effect.gen(function*() {
      const version = cluster.resourceVersion()
      for (const writer of Object.values(stores)) {
        for (const event of WatcherEvent.relist(cluster.objects(writer.store.kind), version)) yield* writer.apply(event)
      }
    })

    const gaps = makeStatusSchemaGaps()
    const provide = <A, E>(effect: Effect.Effect<A, E, KubeApi | ListenerView | EventRecorder | StatusSchemaGaps>) =>
      effect.pipe(
        Effect.provideService(StatusSchemaGaps, gaps),
        Effect.provideService(KubeApi, api),
        Effect.provideService(ListenerView, view),
        Effect.provideService(EventRecorder, events)
      )

    /** Sync the caches, then reconcile the Listener as cached (as the controller would). */
    const reconcile = (name: string, namespace = "apps"): Effect.Effect<Action> =>
      Effect.gen(function*() {
        yield* sync
        const cached = yield* stores.listeners.store.get({ namespace, name })
        if (Option.isNone(cached)) return yield* Effect.die(new Error(`no Listener ${namespace}/${name} in the cache`))
        return yield* provide(runListenerReconcile(cached.value))
      })

    const get = (kind: ResourceKind, name: string, namespace?: string): KubeObject | undefined =>
      cluster.objects(kind, namespace).find((o) => o.metadata.name === name)

    const create = (seed: SeedObject) => cluster.api.create(seed.kind, seed.object)

    return { cluster, stores, view, sync, reconcile, get, create, provide } as const
  })

export const readyOf = (listener: KubeObject | undefined) =>
  ((listener?.["status"] as { conditions?: Array<Record<string, unknown>> } | undefined)?.conditions ?? [])
    .find((c) => c["type"] === "Ready")

export const statusOf = (listener: KubeObject | undefined) => listener?.["status"] as Record<string, unknown> | undefined
