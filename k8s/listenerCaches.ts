/**
 * The Listener controller's caches and the ListenerView over them: every read the Listener
 * reconcile makes is served from a Store, so a reconcile sends no GET or LIST; objects the
 * reconcile writes are written through into the Listener and Service caches.
 *
 * The caches and their indexes are declared here (`listenerCacheSpecs`) because the
 * mappers of k8s/listenerController.ts look objects up through the same indexes.
 */
import { Effect } from "effect"
import { Kinds } from "../domain/kinds.ts"
import type { ResourceKind } from "../domain/kinds.ts"
import { PV_LABEL_LISTENER_NAME, PV_LABEL_LISTENER_NAMESPACE } from "../domain/constants.ts"
import { ENDPOINTSLICE_SERVICE_NAME_LABEL } from "../domain/core/endpointSlice.ts"
import { endpointNodesOf, pinnedNodesOf } from "../domain/listenerPlan/backingNodes.ts"
import { NODE_ADDRESS_ANNOTATION } from "../domain/listenerPlan/nodeAddresses.ts"
import type { EndpointSliceInput, PersistentVolumeInput } from "../domain/listenerPlan/inputs.ts"
import type { KubeObject } from "../effects/shared/KubeApi.ts"
import { ListenerView } from "../effects/controller/ListenerView.ts"
import { Indexers, makeStore } from "./runtime/store.ts"
import type { Indexer, Store, StoreWriter } from "./runtime/store.ts"

/** Index names, as constants so a typo is a type error. */
export const ListenerIndex = {
  /** Listener by `spec.className`. */
  className: "className",
  /** Service by controller owner uid. */
  controllerUid: "controllerUid",
  /** EndpointSlice by `namespace/<kubernetes.io/service-name>`. */
  service: "service",
  /** PersistentVolume by `<listener namespace>/<listener name>` of its labels. */
  listener: "listener",
  /** PersistentVolume by the node its listener affinity pins it to. */
  pinnedNode: "pinnedNode",
  /** EndpointSlice by the node names of its endpoints. */
  node: "node"
} as const

const classNameIndexer: Indexer = (object) => {
  const spec = object["spec"]
  const className = typeof spec === "object" && spec !== null ? (spec as { className?: unknown }).className : undefined
  return typeof className === "string" && className !== "" ? [className] : []
}

// Cached objects are undecoded; the planners' readers only follow optional fields, and a
// malformed entry yields no node names rather than an exception.
const safely = (names: () => ReadonlyArray<unknown>): ReadonlyArray<string> => {
  try {
    return names().filter((name): name is string => typeof name === "string" && name !== "")
  } catch {
    return []
  }
}
const pinnedNodeIndexer: Indexer = (object) => safely(() => pinnedNodesOf(object as unknown as PersistentVolumeInput))
const endpointNodeIndexer: Indexer = (object) => [...new Set(safely(() => endpointNodesOf(object as unknown as EndpointSliceInput)))]

/**
 * Keeps only what the Listener controller reads of a Node (name, addresses, the address
 * override annotation), so a large
 * cluster's node objects (images, conditions, capacity) do not sit in the heap.
 */
export const slimNode = (node: KubeObject): KubeObject => {
  const status = node["status"]
  const addresses = typeof status === "object" && status !== null ? (status as { addresses?: unknown }).addresses : undefined
  const override = node.metadata.annotations?.[NODE_ADDRESS_ANNOTATION]
  return {
    apiVersion: node.apiVersion,
    kind: node.kind,
    metadata: {
      name: node.metadata.name,
      uid: node.metadata.uid,
      resourceVersion: node.metadata.resourceVersion,
      ...(override !== undefined ? { annotations: { [NODE_ADDRESS_ANNOTATION]: override } } : {})
    },
    ...(addresses !== undefined ? { status: { addresses } } : {})
  }
}

/** What each cache holds and how it is indexed; k8s/listenerController.ts adds selectors and mappers. */
export const listenerCacheSpecs = {
  listeners: { kind: Kinds.Listener, indexes: { [ListenerIndex.className]: classNameIndexer } },
  listenerClasses: { kind: Kinds.ListenerClass },
  services: { kind: Kinds.Service, indexes: { [ListenerIndex.controllerUid]: Indexers.controllerUid } },
  endpointSlices: {
    kind: Kinds.EndpointSlice,
    indexes: {
      [ListenerIndex.service]: Indexers.namespacedLabel(ENDPOINTSLICE_SERVICE_NAME_LABEL),
      [ListenerIndex.node]: endpointNodeIndexer
    }
  },
  volumes: {
    kind: Kinds.PersistentVolume,
    indexes: {
      [ListenerIndex.listener]: Indexers.labels([PV_LABEL_LISTENER_NAMESPACE, PV_LABEL_LISTENER_NAME]),
      [ListenerIndex.pinnedNode]: pinnedNodeIndexer
    }
  },
  nodes: { kind: Kinds.Node, transform: slimNode }
} as const

/** The read sides of the caches the Listener controller keeps. */
export interface ListenerCaches {
  readonly listeners: Store<typeof ListenerIndex.className>
  readonly listenerClasses: Store
  readonly services: Store<typeof ListenerIndex.controllerUid>
  readonly endpointSlices: Store<typeof ListenerIndex.service | typeof ListenerIndex.node>
  readonly volumes: Store<typeof ListenerIndex.listener | typeof ListenerIndex.pinnedNode>
  readonly nodes: Store
}

/** Stand-alone caches with the same indexes (for tests and tools that feed stores themselves). */
export const makeListenerStores = Effect.gen(function*() {
  const make = <I extends string>(spec: { readonly kind: ResourceKind; readonly indexes?: { readonly [K in I]: Indexer }; readonly transform?: (o: KubeObject) => KubeObject }) =>
    makeStore<I>(spec.kind, { indexes: spec.indexes, transform: spec.transform })
  return {
    listeners: yield* make(listenerCacheSpecs.listeners),
    listenerClasses: yield* make(listenerCacheSpecs.listenerClasses),
    services: yield* make(listenerCacheSpecs.services),
    endpointSlices: yield* make(listenerCacheSpecs.endpointSlices),
    volumes: yield* make(listenerCacheSpecs.volumes),
    nodes: yield* make(listenerCacheSpecs.nodes)
  } satisfies { readonly [K in keyof ListenerCaches]: StoreWriter<string> }
})

const writeThroughFor = (stores: { readonly listeners: Store<never>; readonly services: Store<never> }) =>
  (object: KubeObject): Effect.Effect<void> => {
    switch (object.kind) {
      case Kinds.Listener.kind:
        return Effect.asVoid(stores.listeners.writeThrough(object))
      case Kinds.Service.kind:
        return Effect.asVoid(stores.services.writeThrough(object))
      default:
        return Effect.void
    }
  }

/** The cache-backed view. Reads never fail and never reach the API server. */
export const listenerViewOf = (caches: ListenerCaches) =>
  ListenerView.of({
    listenerClass: (name) => caches.listenerClasses.get({ name }),
    service: (namespace, name) => caches.services.get({ namespace, name }),
    servicesOwnedBy: (listener) =>
      Effect.map(caches.services.listBy(ListenerIndex.controllerUid, listener.uid), (services) =>
        services.filter((service) => service.metadata.namespace === listener.namespace)
      ),
    endpointSlicesOf: (namespace, serviceName) => caches.endpointSlices.listBy(ListenerIndex.service, `${namespace}/${serviceName}`),
    volumesOf: (namespace, listenerName) => caches.volumes.listBy(ListenerIndex.listener, `${namespace}/${listenerName}`),
    node: (name) => caches.nodes.get({ name }),
    written: writeThroughFor(caches)
  })

