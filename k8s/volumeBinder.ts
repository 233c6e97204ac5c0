/**
 * The volume binder (effects/controller/bindPodVolumes.ts) wired into the controller runtime.
 *
 * Primary: Pods the node plugins marked (`NODE_PUBLISHED_LABEL`, a label selector: only Pods
 * with listener volumes, however many Pods the cluster runs), slimmed to what the binder reads.
 * Caches and what a change of each enqueues:
 * - listener-labelled PersistentVolumes (the node plugin labels the PV before it marks the
 *   Pod, but the two watches may deliver in either order) → the marked Pods mounting its claim;
 * - Listeners (all: a shared one's uid names the mount label of the Pods that mount it; slimmed
 *   to metadata, plus the spec of bound ones: status changes enqueue nothing) → the Pods mounting the claim of that
 *   name (per-volume), and the Pods mounting a volume that names it (shared);
 * - bound PodListeners → their owning Pod.
 * Only bound PodListeners are cached, and a Listener counts as cached only when bound: a miss is "missing or unbound", which the reconcile settles
 * with one create (or a patch when it exists). Runs in the controller role beside the
 * Listener controller, behind the same leader election (k8s/reconcilers.ts).
 */
import { Effect, Option } from "effect"
import { BOUND_NODE_LABEL, MOUNT_LABEL_PREFIX, NODE_PUBLISHED_LABEL, PV_LABEL_LISTENER_NAME, PV_LABEL_LISTENER_NAMESPACE } from "../domain/constants.ts"
import { Kinds } from "../domain/kinds.ts"
import { jsonEquals } from "../domain/listenerPlan/json.ts"
import { boundNodeOf, claimNamesOf } from "../domain/volumeBinding.ts"
import type { BindingPod } from "../domain/volumeBinding.ts"
import { bindPodVolumes } from "../effects/controller/bindPodVolumes.ts"
import type { BinderView } from "../effects/controller/bindPodVolumes.ts"
import { Action } from "../effects/shared/action.ts"
import type { KubeApiError, KubeObject, ObjectRef } from "../effects/shared/KubeApi.ts"
import { makeController } from "./runtime/controller.ts"
import { refOf } from "./runtime/objectRef.ts"
import type { Change, Indexer } from "./runtime/store.ts"

const CLAIM_INDEX = "claim"
const LISTENER_INDEX = "listener"

const withoutVersion = (object: KubeObject | undefined): unknown =>
  object === undefined ? undefined : { ...object, metadata: { ...object.metadata, resourceVersion: undefined } }

const record = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {}

const controllerOwners = (pod: KubeObject) =>
  (pod.metadata.ownerReferences ?? []).filter((owner) => owner.controller === true).map(({ apiVersion, kind, name, uid }) => ({ apiVersion, kind, name, uid }))

/** Keeps what the binder reads of a Pod: identity, node, the marker and mount labels, its claims and container ports. */
export const slimMarkedPod = (pod: KubeObject): KubeObject => {
  const spec = record(pod["spec"])
  const containers = Array.isArray(spec["containers"]) ? spec["containers"].map(record) : []
  const volumes = Array.isArray(spec["volumes"]) ? spec["volumes"].map(record) : []
  const labels = Object.fromEntries(
    Object.entries(pod.metadata.labels ?? {}).filter(([key]) => key === NODE_PUBLISHED_LABEL || key.startsWith(MOUNT_LABEL_PREFIX))
  )
  return {
    apiVersion: pod.apiVersion,
    kind: pod.kind,
    metadata: {
      name: pod.metadata.name,
      namespace: pod.metadata.namespace,
      uid: pod.metadata.uid,
      resourceVersion: pod.metadata.resourceVersion,
      // The workload's uid: node-loss recovery keeps a per-volume Listener owned by it.
      ...(controllerOwners(pod).length > 0 ? { ownerReferences: controllerOwners(pod) } : {}),
      creationTimestamp: pod.metadata.creationTimestamp,
      ...(pod.metadata.deletionTimestamp !== undefined ? { deletionTimestamp: pod.metadata.deletionTimestamp } : {}),
      ...(Object.keys(labels).length > 0 ? { labels } : {})
    },
    spec: {
      nodeName: spec["nodeName"],
      containers: containers.map((container) => ({ ports: container["ports"] })),
      volumes: volumes.map((volume) => ({
        name: volume["name"],
        ...(volume["persistentVolumeClaim"] !== undefined ? { persistentVolumeClaim: { claimName: record(volume["persistentVolumeClaim"])["claimName"] } } : {}),
        ...(volume["ephemeral"] !== undefined ? { ephemeral: {} } : {})
      }))
    }
  }
}

const claimIndexer: Indexer = (pod) => {
  try {
    return claimNamesOf(pod as unknown as BindingPod).map((claim) => `${pod.metadata.namespace ?? ""}/${claim}`)
  } catch {
    return []
  }
}

const claimOfVolume: Indexer = (pv) => {
  const claimRef = record(record(pv["spec"])["claimRef"])
  return typeof claimRef["namespace"] === "string" && typeof claimRef["name"] === "string" ? [`${claimRef["namespace"]}/${claimRef["name"]}`] : []
}

/**
 * A Listener as the binder reads it: identity, labels, owners, and the spec of a bound
 * (per-volume) one — not its status, which the controller rewrites, and not a shared one's
 * spec: of those it needs only the uid (the mount label), and they may be many.
 */
export const slimListener = (listener: KubeObject): KubeObject => ({
  apiVersion: listener.apiVersion,
  kind: listener.kind,
  metadata: {
    name: listener.metadata.name,
    namespace: listener.metadata.namespace,
    uid: listener.metadata.uid,
    resourceVersion: listener.metadata.resourceVersion,
    ...(listener.metadata.labels !== undefined ? { labels: listener.metadata.labels } : {}),
    ...(listener.metadata.ownerReferences !== undefined ? { ownerReferences: listener.metadata.ownerReferences } : {})
  },
  ...(boundNodeOf(listener) !== undefined ? { spec: listener["spec"] } : {})
})

/** The Listener a labelled PV's volume is published for (`namespace/name`, the node plugin's labels). */
const listenerOfVolume: Indexer = (pv) => {
  const labels = pv.metadata.labels ?? {}
  const namespace = labels[PV_LABEL_LISTENER_NAMESPACE]
  const name = labels[PV_LABEL_LISTENER_NAME]
  return namespace !== undefined && name !== undefined ? [`${namespace}/${name}`] : []
}

const podOwnerOf = (object: KubeObject): ReadonlyArray<ObjectRef> =>
  (object.metadata.ownerReferences ?? []).filter((owner) => owner.kind === "Pod").map((owner) => ({ namespace: object.metadata.namespace, name: owner.name }))

/** Builds the binder (caches start filling in the current scope); `run` reconciles and never returns. */
export const makeVolumeBinder = Effect.gen(function*() {
  const controller = yield* makeController({
    name: "volume-binder",
    primary: {
      kind: Kinds.Pod,
      labelSelector: NODE_PUBLISHED_LABEL,
      transform: slimMarkedPod,
      indexes: { [CLAIM_INDEX]: claimIndexer },
      // A Pod's status updates (readiness, restarts) change nothing the binder reads.
      shouldEnqueue: (change: Change) => !jsonEquals(withoutVersion(change.previous), withoutVersion(change.current))
    },
    watches: {
      volumes: {
        kind: Kinds.PersistentVolume,
        labelSelector: `${PV_LABEL_LISTENER_NAMESPACE},${PV_LABEL_LISTENER_NAME}`,
        indexes: { [CLAIM_INDEX]: claimOfVolume, [LISTENER_INDEX]: listenerOfVolume }
      },
      listeners: {
        kind: Kinds.Listener,
        transform: slimListener,
        shouldEnqueue: (change: Change) => !jsonEquals(withoutVersion(change.previous), withoutVersion(change.current))
      },
      podListeners: { kind: Kinds.PodListeners, labelSelector: BOUND_NODE_LABEL }
    },
    mappers: ({ primary, stores }) => {
      const podsOfClaim = (key: string) => Effect.map(primary.listBy(CLAIM_INDEX, key), (pods) => pods.map(refOf))
      const podsOfVolumes = (pvs: ReadonlyArray<KubeObject>) => Effect.map(Effect.forEach(pvs.flatMap(claimOfVolume), podsOfClaim), (refs) => refs.flat())
      return {
        volumes: (pv) => podsOfVolumes([pv]),
        listeners: (listener) => {
          const key = `${listener.metadata.namespace ?? ""}/${listener.metadata.name ?? ""}`
          return Effect.gen(function*() {
            const perVolume = yield* podsOfClaim(key)
            const shared = yield* podsOfVolumes(yield* stores.volumes.listBy(LISTENER_INDEX, key))
            return [...perVolume, ...shared]
          })
        },
        podListeners: (podListeners) => Effect.succeed(podOwnerOf(podListeners))
      }
    }
  })
  const { volumes, listeners, podListeners } = controller.stores
  const view: BinderView = {
    boundPodListeners: (namespace, name) => podListeners.get({ namespace, name }),
    boundListener: (namespace, name) => Effect.map(listeners.get({ namespace, name }), Option.filter((listener) => boundNodeOf(listener) !== undefined)),
    listener: (namespace, name) => listeners.get({ namespace, name }),
    volumesOfClaim: (namespace, claim) => volumes.listBy(CLAIM_INDEX, `${namespace}/${claim}`),
    podsOfClaim: (namespace, claim) => controller.primary.listBy(CLAIM_INDEX, `${namespace}/${claim}`),
    written: (object) => {
      switch (object.kind) {
        case Kinds.Listener.kind:
          return Effect.asVoid(listeners.writeThrough(object))
        case Kinds.PodListeners.kind:
          return Effect.asVoid(podListeners.writeThrough(object))
        default:
          return Effect.void
      }
    }
  }

  const reconcile = (pod: KubeObject) => Effect.as(bindPodVolumes(view, pod), Action.awaitChange)
  const errorPolicy = (error: KubeApiError, pod: KubeObject) =>
    Effect.as(
      Effect.logWarning(`binding the listener objects of Pod ${pod.metadata.namespace}/${pod.metadata.name} failed, retrying: ${error.reason}: ${error.message}`),
      Action.retryWithBackoff
    )

  /** The reconcile loop; never returns. */
  const run = controller.run({ reconcile, errorPolicy, concurrency: 4 })
  return { controller, view, run } as const
})
