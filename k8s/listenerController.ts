/**
 * The Listener controller: the controller runtime wired for Listeners (SPEC §3).
 *
 * Primary: Listener. Caches (all reads of the reconcile come from them, see listenerView.ts)
 * and what a change of each enqueues:
 * - Service → its controlling Listener, and the Listener of the same name (so a foreign
 *   Service's removal lets a Listener in ServiceConflict proceed);
 * - ListenerClass → every Listener naming it (index on `spec.className`);
 * - EndpointSlice (only those of our Services, by the operator label the EndpointSlice
 *   controller copies from the Service) → the Listener named by `kubernetes.io/service-name`;
 * - PersistentVolume (only listener-labelled ones) → the Listener in its labels; the runtime
 *   maps the old and the new object, so relabelling enqueues both Listeners;
 * - Node → Listeners backed by it (PVs pinned to it, EndpointSlices with endpoints on it),
 *   only when its addresses or its address override annotation change (heartbeats and
 *   condition updates are ignored).
 * With `leaderElection` set, the caches run on every replica (a standby takes over warm)
 * and only the lease holder reconciles (k8s/runtime/leaderElection.ts).
 */
import { makeStatusSchemaGaps, StatusSchemaGaps } from "../effects/statusSchemaGaps.ts"
import { Effect, Layer, Option } from "effect"
import type { Duration } from "effect"
import {
  LABEL_APP_MANAGED_BY,
  MANAGED_BY,
  PV_LABEL_LISTENER_NAME,
  PV_LABEL_LISTENER_NAMESPACE
} from "../domain/constants.ts"
import { ENDPOINTSLICE_SERVICE_NAME_LABEL } from "../domain/core/endpointSlice.ts"
import { jsonEquals } from "../domain/listenerPlan/json.ts"
import { NODE_ADDRESS_ANNOTATION } from "../domain/listenerPlan/nodeAddresses.ts"
import type { EventRecorder } from "../effects/EventRecorder.ts"
import type { KubeApi, KubeObject, ObjectRef } from "../effects/KubeApi.ts"
import type { ListenerError } from "../effects/listenerErrors.ts"
import { ListenerView } from "../effects/ListenerView.ts"
import { awaitChange, listenerErrorPolicy, reconcileListener } from "../effects/reconcileListener.ts"
import { listenerCacheSpecs, ListenerIndex, listenerViewOf } from "./listenerView.ts"
import type { ListenerCaches } from "./listenerView.ts"
import type { BackoffPolicy } from "./runtime/backoff.ts"
import { runWhileLeading } from "./runtime/leaderElection.ts"
import type { LeaderElectionConfig } from "./runtime/leaderElection.ts"
import { makeController } from "./runtime/controller.ts"
import type { Mapper } from "./runtime/controller.ts"
import type { Change, Store } from "./runtime/store.ts"

export interface ListenerControllerOptions {
  /** Listeners reconciled at once (default 4). */
  readonly concurrency?: number | undefined
  /** Re-reconcile every cached Listener this often, from the cache (default 10 minutes). */
  readonly resyncInterval?: Duration.Input | undefined
  /** Backoff for transient failures (runtime default: 1 s doubling to 5 min). */
  readonly backoff?: BackoffPolicy | undefined
  /** Reconcile only while holding this Lease (omit for a single replica, tests, the demo). */
  readonly leaderElection?: LeaderElectionConfig | undefined
}

const CONTROLLER_NAME = "listener"

const listenerOfLabels = (object: KubeObject): ReadonlyArray<ObjectRef> => {
  const namespace = object.metadata.labels?.[PV_LABEL_LISTENER_NAMESPACE]
  const name = object.metadata.labels?.[PV_LABEL_LISTENER_NAME]
  return namespace && name ? [{ namespace, name }] : []
}

const listenerOfEndpointSlice = (slice: KubeObject): ReadonlyArray<ObjectRef> => {
  const service = slice.metadata.labels?.[ENDPOINTSLICE_SERVICE_NAME_LABEL]
  return service ? [{ namespace: slice.metadata.namespace, name: service }] : []
}

/** The controlling Listener, and the Listener of the same name (the Service name = Listener name). */
const listenersOfService: Mapper = (service) => {
  const owner = service.metadata.ownerReferences?.find((ref) => ref.controller === true && ref.kind === "Listener")
  const sameName = { namespace: service.metadata.namespace, name: service.metadata.name ?? "" }
  return owner === undefined || owner.name === sameName.name ? [sameName] : [sameName, { namespace: sameName.namespace, name: owner.name }]
}

const addressesOf = (node: KubeObject | undefined): unknown =>
  (node?.["status"] as { addresses?: unknown } | undefined)?.addresses

const overrideOf = (node: KubeObject | undefined): string | undefined => node?.metadata.annotations?.[NODE_ADDRESS_ANNOTATION]

const nodeAddressesChanged = (change: Change): boolean =>
  change.previous === undefined || change.current === undefined ||
  !jsonEquals(addressesOf(change.previous), addressesOf(change.current)) || overrideOf(change.previous) !== overrideOf(change.current)

// Mappers are synchronous; the stores' index reads are synchronous effects underneath.
const readNow = <A>(effect: Effect.Effect<A>): A => Effect.runSync(effect)

const refOfObject = (object: KubeObject): ObjectRef => ({ namespace: object.metadata.namespace, name: object.metadata.name ?? "" })

/** The controller spec, with mappers that look objects up in `caches()` (set once the caches exist). */
const controllerSpec = (caches: () => ListenerCaches | undefined) => ({
  name: CONTROLLER_NAME,
  primary: listenerCacheSpecs.listeners,
  watches: {
    listenerClasses: {
      ...listenerCacheSpecs.listenerClasses,
      mapper: ((listenerClass) => {
        const current = caches()
        return current === undefined ? [] : readNow(current.listeners.listBy(ListenerIndex.className, listenerClass.metadata.name ?? "")).map(refOfObject)
      }) satisfies Mapper
    },
    services: { ...listenerCacheSpecs.services, mapper: listenersOfService },
    endpointSlices: {
      ...listenerCacheSpecs.endpointSlices,
      labelSelector: `${LABEL_APP_MANAGED_BY}=${MANAGED_BY}`,
      mapper: listenerOfEndpointSlice
    },
    volumes: {
      ...listenerCacheSpecs.volumes,
      labelSelector: `${PV_LABEL_LISTENER_NAMESPACE},${PV_LABEL_LISTENER_NAME}`,
      mapper: listenerOfLabels
    },
    nodes: {
      ...listenerCacheSpecs.nodes,
      shouldEnqueue: nodeAddressesChanged,
      mapper: ((node) => {
        const current = caches()
        if (current === undefined) return []
        const name = node.metadata.name ?? ""
        return [
          ...readNow(current.volumes.listBy(ListenerIndex.pinnedNode, name)).flatMap(listenerOfLabels),
          ...readNow(current.endpointSlices.listBy(ListenerIndex.node, name)).flatMap(listenerOfEndpointSlice)
        ]
      }) satisfies Mapper
    }
  }
})

/**
 * Builds the controller: caches start filling at once (in the current scope). `run` starts
 * reconciling once every cache has listed, and never returns; interrupt it to stop (the
 * caches stay warm for a later `run`, e.g. after regaining leadership).
 */
export const makeListenerController = Effect.gen(function*() {
  let caches: ListenerCaches | undefined
  const controller = yield* makeController(controllerSpec(() => caches))
  caches = {
    listeners: controller.primary as Store<typeof ListenerIndex.className>,
    listenerClasses: controller.stores.listenerClasses,
    services: controller.stores.services as ListenerCaches["services"],
    endpointSlices: controller.stores.endpointSlices as ListenerCaches["endpointSlices"],
    volumes: controller.stores.volumes as ListenerCaches["volumes"],
    nodes: controller.stores.nodes
  }
  const view = listenerViewOf(caches)
  const listeners = caches.listeners

  // What this controller learned about the installed CRD (statusSchemaGaps.ts) is its own.
  const gaps = makeStatusSchemaGaps()
  const withView = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    effect.pipe(Effect.provideService(ListenerView, view), Effect.provideService(StatusSchemaGaps, gaps))

  const reconcile = (ref: ObjectRef) =>
    Effect.flatMap(listeners.get(ref), (cached) =>
      Option.isNone(cached) ? Effect.succeed(awaitChange) : withView(reconcileListener(cached.value)))

  const errorPolicy = (error: ListenerError, ref: ObjectRef) =>
    Effect.flatMap(listeners.get(ref), (cached) =>
      Option.isNone(cached) ? Effect.succeed(awaitChange) : withView(listenerErrorPolicy(cached.value, error)))

  const loop = (options: ListenerControllerOptions) =>
    controller.run({
      reconcile,
      errorPolicy,
      concurrency: options.concurrency,
      resyncInterval: options.resyncInterval,
      backoff: options.backoff
    })
  /** The reconcile loop (only while leading, when `leaderElection` is set); never returns. */
  const run = (options: ListenerControllerOptions = {}): Effect.Effect<never, never, KubeApi | EventRecorder> =>
    options.leaderElection === undefined ? loop(options) : runWhileLeading(options.leaderElection, loop(options))

  return { controller, caches, view, run } as const
})

/** Builds and runs the Listener controller until interrupted. Needs KubeApi and EventRecorder. */
export const runListenerController = (options: ListenerControllerOptions = {}): Effect.Effect<never, never, KubeApi | EventRecorder> =>
  Effect.scoped(Effect.flatMap(makeListenerController, (listenerController) => listenerController.run(options)))

export const ListenerController = {
  /** The controller as a layer: runs (forked) for the lifetime of the layer. */
  layer: (options: ListenerControllerOptions = {}): Layer.Layer<never, never, KubeApi | EventRecorder> =>
    Layer.effectDiscard(Effect.forkScoped(runListenerController(options)))
} as const

