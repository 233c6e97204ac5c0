/**
 * The Listener controller: the controller runtime wired for Listeners (spec §3).
 *
 * Primary: Listener. Caches (all reads of the reconcile come from them, see listenerCaches.ts)
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
 * Mappers read the caches they are built with (ListenerClass and Node mappers go through
 * the caches' indexes). The caches run wherever the controller is built; leader election,
 * when there is one, is the caller's (k8s/reconcilers.ts).
 */
import { Effect, Layer } from "effect"
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
import type { EventRecorder } from "../effects/shared/EventRecorder.ts"
import type { KubeApi, KubeObject, ObjectRef } from "../effects/shared/KubeApi.ts"
import type { ListenerError } from "../effects/controller/listenerErrors.ts"
import { ListenerView } from "../effects/controller/ListenerView.ts"
import { listenerErrorPolicy, reconcileListener } from "../effects/controller/reconcileListener.ts"
import { makeStatusSchemaGaps, StatusSchemaGaps } from "../effects/takeover/StatusSchemaGaps.ts"
import { listenerCacheSpecs, ListenerIndex, listenerViewOf } from "./listenerCaches.ts"
import type { ListenerCaches } from "./listenerCaches.ts"
import { trackListenerReadiness } from "./listenerMetrics.ts"
import type { BackoffPolicy } from "./runtime/backoff.ts"
import { controllerOwnerRefOf, makeController } from "./runtime/controller.ts"
import { refOf } from "./runtime/objectRef.ts"
import type { Change } from "./runtime/store.ts"

export interface ListenerControllerOptions {
  /** Listeners reconciled at once (default 4). */
  readonly concurrency?: number | undefined
  /** Re-reconcile every cached Listener this often, from the cache (default 10 minutes). */
  readonly resyncInterval?: Duration.Input | undefined
  /** Backoff for transient failures (runtime default: 1 s doubling to 5 min). */
  readonly backoff?: BackoffPolicy | undefined
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

/** The Listener of the same name (the Service name = Listener name), and the controlling Listener. */
const listenersOfService = (service: KubeObject): ReadonlyArray<ObjectRef> => {
  const sameName = refOf(service)
  const owner = controllerOwnerRefOf("Listener", service)
  return owner === undefined || owner.name === sameName.name ? [sameName] : [sameName, owner]
}

const addressesOf = (node: KubeObject | undefined): unknown =>
  (node?.["status"] as { addresses?: unknown } | undefined)?.addresses

const overrideOf = (node: KubeObject | undefined): string | undefined => node?.metadata.annotations?.[NODE_ADDRESS_ANNOTATION]

const nodeAddressesChanged = (change: Change): boolean =>
  change.previous === undefined || change.current === undefined ||
  !jsonEquals(addressesOf(change.previous), addressesOf(change.current)) || overrideOf(change.previous) !== overrideOf(change.current)

/** How often listener_operator_listeners is recounted from the cache (k8s/listenerMetrics.ts). */
const LISTENER_READINESS_SAMPLE_EVERY = "5 seconds"

/**
 * Builds the controller: caches start filling at once (in the current scope). `run` starts
 * reconciling once every cache has listed, and never returns; interrupt it to stop (the
 * caches stay warm for a later `run`, e.g. after regaining leadership).
 */
export const makeListenerController = Effect.gen(function*() {
  const controller = yield* makeController({
    name: CONTROLLER_NAME,
    primary: listenerCacheSpecs.listeners,
    watches: {
      listenerClasses: listenerCacheSpecs.listenerClasses,
      services: listenerCacheSpecs.services,
      endpointSlices: { ...listenerCacheSpecs.endpointSlices, labelSelector: `${LABEL_APP_MANAGED_BY}=${MANAGED_BY}` },
      volumes: { ...listenerCacheSpecs.volumes, labelSelector: `${PV_LABEL_LISTENER_NAMESPACE},${PV_LABEL_LISTENER_NAME}` },
      nodes: { ...listenerCacheSpecs.nodes, shouldEnqueue: nodeAddressesChanged }
    },
    mappers: ({ primary, stores }) => ({
      listenerClasses: (listenerClass) =>
        Effect.map(primary.listBy(ListenerIndex.className, listenerClass.metadata.name ?? ""), (listeners) => listeners.map(refOf)),
      services: (service) => Effect.succeed(listenersOfService(service)),
      endpointSlices: (slice) => Effect.succeed(listenerOfEndpointSlice(slice)),
      volumes: (pv) => Effect.succeed(listenerOfLabels(pv)),
      nodes: (node) =>
        Effect.map(
          Effect.all([
            stores.volumes.listBy(ListenerIndex.pinnedNode, node.metadata.name ?? ""),
            stores.endpointSlices.listBy(ListenerIndex.node, node.metadata.name ?? "")
          ]),
          ([volumes, slices]) => [...volumes.flatMap(listenerOfLabels), ...slices.flatMap(listenerOfEndpointSlice)]
        )
    })
  })
  const caches: ListenerCaches = { listeners: controller.primary, ...controller.stores }
  const view = listenerViewOf(caches)
  const listeners = caches.listeners
  // On every replica (the cache is warm on standbys too), for the whole life of the caches.
  yield* Effect.forkScoped(trackListenerReadiness(listeners, LISTENER_READINESS_SAMPLE_EVERY))

  // What this controller learned about the installed CRD (StatusSchemaGaps.ts) is its own.
  const gaps = makeStatusSchemaGaps()
  const withView = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    effect.pipe(Effect.provideService(ListenerView, view), Effect.provideService(StatusSchemaGaps, gaps))

  // Both get the Listener as cached when its run starts (k8s/runtime/controller.ts).
  const reconcile = (listener: KubeObject) => withView(reconcileListener(listener))
  const errorPolicy = (error: ListenerError, listener: KubeObject) => withView(listenerErrorPolicy(listener, error))

  /** The reconcile loop; never returns. */
  const run = (options: ListenerControllerOptions = {}): Effect.Effect<never, never, KubeApi | EventRecorder> =>
    controller.run({
      reconcile,
      errorPolicy,
      concurrency: options.concurrency,
      resyncInterval: options.resyncInterval,
      backoff: options.backoff
    })

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

