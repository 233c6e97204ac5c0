/**
 * The CSI node programs (SPEC §4 "Node service"): NodePublishVolume's seven steps — load
 * the PV, its PVC and the Pod; find or create the Listener; label the PV and the Pod;
 * pick this Pod's addresses; record them in the Pod's PodListeners; write the volume's
 * file tree — and NodeUnpublishVolume. Every step converges: publishing the same volume
 * again (kubelet retry, node restart) writes nothing that is already right.
 */
import { Effect, Option } from "effect"
import {
  CsiContextKeys,
  FieldManagers,
  LISTENER_API_VERSION,
  mountLabelKey,
  podListenersName,
  PV_LABEL_LISTENER_NAME,
  PV_LABEL_LISTENER_NAMESPACE
} from "../domain/constants.ts"
import type { Pod } from "../domain/core/pod.ts"
import type { PersistentVolume } from "../domain/core/persistentVolume.ts"
import { Node } from "../domain/core/node.ts"
import { Pod as PodSchema } from "../domain/core/pod.ts"
import { PersistentVolumeClaim } from "../domain/core/persistentVolumeClaim.ts"
import { Kinds } from "../domain/kinds.ts"
import { Listener } from "../domain/listener.ts"
import type { ListenerIngress } from "../domain/listener.ts"
import { ListenerClass } from "../domain/listenerClass.ts"
import { nodeCandidates, pickAddresses, resolvePreference } from "../domain/listenerPlan/addresses.ts"
import { jsonEquals } from "../domain/listenerPlan/json.ts"
import { PodListeners } from "../domain/podListeners.ts"
import type { ListenerScope, PodListener } from "../domain/podListeners.ts"
import { planVolumeTree, UnsafeVolumeEntry } from "../domain/volumeTree.ts"
import { getOption, KubeApi } from "./KubeApi.ts"
import type { KubeObject } from "./KubeApi.ts"
import type { ListenerSelection } from "./listenerSelection.ts"
import type { VolumeFs } from "./VolumeFs.ts"
import {
  InlineVolumeUnsupported,
  ListenerAddressesNotReady,
  ListenerHasNoClass,
  PodNotScheduled,
  PodReplaced,
  PodVolumeNotFound,
  VolumeAddressRefused,
  VolumeNotBound,
  VolumeObjectInvalid
} from "./volumeErrors.ts"
import type { VolumeApiStepFailed, VolumeTreeWriteFailed } from "./volumeErrors.ts"
import { apiStepFailed, decodeObject, loadObject, loadPersistentVolume } from "./volumeObjects.ts"
import { writeVolumeTree } from "./writeVolumeTree.ts"
import type { TreeWriteOutcome } from "./writeVolumeTree.ts"

export interface PublishVolumeRequest {
  readonly volumeId: string
  /** Absolute and normalised; the publisher creates it (the CO creates only the parent). */
  readonly targetPath: string
  /** `uid` (from `csi.storage.k8s.io/pod.uid`), when given, must be the live Pod's. */
  readonly pod: { readonly namespace: string; readonly name: string; readonly uid?: string | undefined }
  /** From the frozen volume context (see `listenerSelectionOf`). */
  readonly listener: ListenerSelection
  /** The whole volume context verbatim. */
  readonly volumeContext: Readonly<Record<string, string>>
}

/** What a publish did, for logs and tests. */
export interface PublishedVolume {
  readonly listener: { readonly namespace: string; readonly name: string }
  readonly podVolumeName: string
  readonly scope: ListenerScope
  readonly addresses: ReadonlyArray<ListenerIngress>
  readonly tree: TreeWriteOutcome
}

export type PublishVolumeError =
  | VolumeApiStepFailed
  | VolumeObjectInvalid
  | VolumeNotBound
  | InlineVolumeUnsupported
  | ListenerHasNoClass
  | PodNotScheduled
  | ListenerAddressesNotReady
  | PodReplaced
  | PodVolumeNotFound
  | VolumeAddressRefused
  | VolumeTreeWriteFailed

const loadPvc = loadObject("load PersistentVolumeClaim", Kinds.PersistentVolumeClaim, PersistentVolumeClaim)
const loadPod = loadObject("load Pod", Kinds.Pod, PodSchema)
const loadNode = loadObject("load Node", Kinds.Node, Node)
const loadListener = loadObject("load Listener", Kinds.Listener, Listener)
const loadListenerClass = loadObject("load ListenerClass", Kinds.ListenerClass, ListenerClass)
const decodeListener = decodeObject(Kinds.Listener, Listener)
const decodePodListeners = decodeObject(Kinds.PodListeners, PodListeners)

/** SPEC §4 step 2: one Listener port per port of the Pod's (non-init) containers. */
export const listenerPortsOf = (pod: Pod): ReadonlyArray<{ name: string; port: number; protocol?: string }> => {
  const seen = new Set<string>()
  const ports: Array<{ name: string; port: number; protocol?: string }> = []
  for (const container of pod.spec?.containers ?? []) {
    for (const port of container.ports ?? []) {
      const name = port.name ?? `port-${port.containerPort}`
      // Port names are the Listener's list-map key: a repeated name would be refused.
      if (seen.has(name)) continue
      seen.add(name)
      ports.push({ name, port: port.containerPort, ...(port.protocol !== undefined ? { protocol: port.protocol } : {}) })
    }
  }
  return ports
}

/** SPEC §4 step 6: the name of the Pod volume that uses PVC `claimName`, if any. */
export const podVolumeNameFor = (pod: Pod, claimName: string): string | undefined =>
  (pod.spec?.volumes ?? []).find((volume) =>
    volume.persistentVolumeClaim?.claimName === claimName ||
    (volume.ephemeral !== undefined && `${pod.metadata.name}-${volume.name}` === claimName)
  )?.name

/** The per-volume Listener of a listener-class volume, as the object to server-side apply. */
export const perVolumeListener = (args: {
  readonly namespace: string
  readonly name: string
  readonly className: string
  readonly labels: Readonly<Record<string, string>>
  readonly pv: { readonly name: string; readonly uid: string }
  readonly pod: Pod
}): KubeObject => ({
  apiVersion: LISTENER_API_VERSION,
  kind: Kinds.Listener.kind,
  metadata: {
    name: args.name,
    namespace: args.namespace,
    labels: { ...args.labels },
    // Plain owner (not controller): the Listener lives exactly as long as the volume.
    ownerReferences: [{ apiVersion: "v1", kind: Kinds.PersistentVolume.kind, name: args.pv.name, uid: args.pv.uid }]
  },
  spec: { className: args.className, ports: listenerPortsOf(args.pod), publishNotReadyAddresses: true }
})

const findOrApplyListener = Effect.fn("findOrApplyListener")(function*(
  selection: ListenerSelection,
  pod: Pod,
  namespace: string,
  pvc: { readonly name: string; readonly labels: Readonly<Record<string, string>> },
  pv: PersistentVolume
) {
  if (selection._tag === "ListenerName") return yield* loadListener({ namespace, name: selection.listenerName })
  const pvUid = pv.metadata.uid
  if (pvUid === undefined) {
    return yield* new VolumeObjectInvalid({
      kind: Kinds.PersistentVolume.kind,
      name: pv.metadata.name,
      problem: "has no metadata.uid to own the Listener"
    })
  }
  const api = yield* KubeApi
  const ref = { namespace, name: pvc.name }
  const desired = perVolumeListener({
    namespace,
    name: pvc.name,
    className: selection.className,
    labels: pvc.labels,
    pv: { name: pv.metadata.name, uid: pvUid },
    pod
  })
  // Read first: re-publishing (kubelet retries, restarts) then writes nothing.
  const live = yield* Effect.mapError(getOption(api.get(Kinds.Listener, ref)), apiStepFailed("load Listener", Kinds.Listener, ref))
  if (Option.isSome(live) && listenerUpToDate(live.value, desired)) return yield* decodeListener(live.value, ref)
  const applied = yield* Effect.mapError(
    api.apply(Kinds.Listener, desired, { fieldManager: FieldManagers.csiNode, force: true }),
    apiStepFailed("apply Listener", Kinds.Listener, ref)
  )
  return yield* decodeListener(applied, ref)
})

const normalisedPorts = (ports: unknown): unknown =>
  Array.isArray(ports)
    ? ports.map((port: { name?: unknown; port?: unknown; protocol?: unknown }) => ({
      name: port.name,
      port: port.port,
      protocol: port.protocol ?? "TCP"
    }))
    : ports

/**
 * Whether the live per-volume Listener already has everything `desired` applies: labels,
 * the PV owner reference, class, ports and publishNotReadyAddresses. Anything else (fields
 * other writers own, status) does not matter.
 */
export const listenerUpToDate = (live: KubeObject, desired: KubeObject): boolean => {
  const liveSpec = (live["spec"] ?? {}) as Record<string, unknown>
  const desiredSpec = desired["spec"] as Record<string, unknown>
  const owner = desired.metadata.ownerReferences?.[0]
  return jsonEquals(live.metadata.labels ?? {}, desired.metadata.labels ?? {}) &&
    (live.metadata.ownerReferences ?? []).some((ref) => ref.uid === owner?.uid && ref.kind === owner?.kind) &&
    liveSpec["className"] === desiredSpec["className"] &&
    liveSpec["publishNotReadyAddresses"] === desiredSpec["publishNotReadyAddresses"] &&
    jsonEquals(normalisedPorts(liveSpec["ports"]), normalisedPorts(desiredSpec["ports"]))
}

/** Merge-patch labels onto an object unless it already carries them (no write when converged). */
const ensureLabels = Effect.fn("ensureLabels")(function*(
  step: string,
  kind: typeof Kinds.Pod | typeof Kinds.PersistentVolume,
  ref: { readonly namespace?: string | undefined; readonly name: string },
  current: Readonly<Record<string, string>> | undefined,
  wanted: Readonly<Record<string, string>>
) {
  if (Object.entries(wanted).every(([key, value]) => current?.[key] === value)) return
  const api = yield* KubeApi
  // A merge patch names only these keys: every other label (other listeners' mount labels) stays.
  yield* Effect.mapError(
    api.patch(kind, ref, { metadata: { labels: wanted } }, { type: "merge", fieldManager: FieldManagers.csiNode }),
    apiStepFailed(step, kind, ref)
  )
})

/** SPEC §4 step 5: the addresses this Pod is reachable on through the Listener. */
const addressesForPod = Effect.fn("addressesForPod")(function*(
  listener: Listener,
  listenerClass: ListenerClass,
  pod: Pod
) {
  const namespace = listener.metadata.namespace ?? ""
  const notReady = (problem: string) => new ListenerAddressesNotReady({ namespace, listener: listener.metadata.name, problem })
  if (listenerClass.spec.serviceType !== "NodePort") {
    const addresses = listener.status?.ingressAddresses ?? []
    if (addresses.length === 0) return yield* notReady("status.ingressAddresses is empty")
    return { scope: "Cluster" as const, addresses }
  }
  const nodeName = pod.spec?.nodeName
  if (nodeName === undefined || nodeName === "") {
    return yield* new PodNotScheduled({ namespace: pod.metadata.namespace ?? "", pod: pod.metadata.name })
  }
  const ports = listener.status?.nodePorts ?? {}
  if (Object.keys(ports).length === 0) return yield* notReady("status.nodePorts is empty (no node ports allocated yet)")
  const node = yield* loadNode({ name: nodeName })
  const candidates = nodeCandidates(node)
  const picked = pickAddresses(candidates, resolvePreference(listenerClass.spec.preferredAddressType, "NodePort"))
  if (picked.length === 0) {
    const offered = [...candidates.ips, ...candidates.hostnames]
    return yield* notReady(
      offered.length === 0
        ? `node ${nodeName} has no ExternalIP, InternalIP or Hostname address`
        : `node ${nodeName} has no address that is an IP address or DNS name (${offered.map((a) => JSON.stringify(a)).join(", ")})`
    )
  }
  const addresses: ReadonlyArray<ListenerIngress> = picked.slice(0, 1).map((a) => ({ ...a, ports: { ...ports } }))
  return { scope: "Node" as const, addresses }
})

/**
 * SPEC §4 step 6. Create `pod-<uid>` (owned by the Pod), or merge-patch just this volume's
 * key into `spec.listeners`. Why a merge patch and not a read-modify-write update or one
 * shared apply: the Pod's other listener volumes are published concurrently by the same
 * plugin; a JSON merge patch of one map key is applied atomically by the API server and
 * cannot drop or overwrite another volume's entry, and needs no resourceVersion retry loop.
 */
const recordPodListener = Effect.fn("recordPodListener")(function*(pod: Pod, podUid: string, volumeName: string, entry: PodListener) {
  const api = yield* KubeApi
  const namespace = pod.metadata.namespace ?? ""
  const ref = { namespace, name: podListenersName(podUid) }
  const failed = (step: string) => apiStepFailed(step, Kinds.PodListeners, ref)
  const patchEntry = Effect.mapError(
    api.patch(Kinds.PodListeners, ref, { spec: { listeners: { [volumeName]: entry } } }, {
      type: "merge",
      fieldManager: FieldManagers.csiNode
    }),
    failed("record in PodListeners")
  )
  const existing = yield* Effect.mapError(getOption(api.get(Kinds.PodListeners, ref)), failed("load PodListeners"))
  if (Option.isSome(existing)) {
    const current = yield* Effect.option(decodePodListeners(existing.value, ref))
    if (Option.isSome(current) && jsonEquals(current.value.spec.listeners[volumeName], entry)) return
    yield* patchEntry
    return
  }
  const created: KubeObject = {
    apiVersion: LISTENER_API_VERSION,
    kind: Kinds.PodListeners.kind,
    metadata: {
      name: ref.name,
      namespace,
      ownerReferences: [{ apiVersion: "v1", kind: Kinds.Pod.kind, name: pod.metadata.name, uid: podUid }]
    },
    spec: { listeners: { [volumeName]: entry } }
  }
  yield* api.create(Kinds.PodListeners, created, { fieldManager: FieldManagers.csiNode }).pipe(
    Effect.asVoid,
    // Another volume of the same Pod created it first: merge ours in.
    Effect.catchIf((e) => e.reason === "AlreadyExists", () => patchEntry),
    Effect.mapError((e) => (e._tag === "KubeApiError" ? failed("create PodListeners")(e) : e))
  )
})

/** SPEC §4 NodePublishVolume. */
export const publishVolume: (
  request: PublishVolumeRequest
) => Effect.Effect<PublishedVolume, PublishVolumeError, KubeApi | VolumeFs> = Effect.fn("publishVolume")(function*(
  request: PublishVolumeRequest
) {
  const { volumeId } = request
  if (request.volumeContext[CsiContextKeys.ephemeral] === "true") return yield* new InlineVolumeUnsupported({ volumeId })

  // 1. The PV, its PVC (from the claimRef) and the Pod.
  const pv = yield* loadPersistentVolume(volumeId)
  const claimRef = pv.spec?.claimRef
  if (claimRef?.name === undefined || claimRef.namespace === undefined) {
    return yield* new VolumeNotBound({ volumeId, problem: `PersistentVolume ${pv.metadata.name} has no spec.claimRef` })
  }
  const pvc = yield* loadPvc({ namespace: claimRef.namespace, name: claimRef.name })
  if (claimRef.uid !== undefined && pvc.metadata.uid !== undefined && claimRef.uid !== pvc.metadata.uid) {
    return yield* new VolumeNotBound({
      volumeId,
      problem: `PersistentVolume ${pv.metadata.name} is bound to an earlier PersistentVolumeClaim ${claimRef.namespace}/${claimRef.name} (uid ${claimRef.uid})`
    })
  }
  const pod = yield* loadPod(request.pod)
  const podUid = pod.metadata.uid
  if (podUid === undefined) {
    return yield* new VolumeObjectInvalid({
      kind: Kinds.Pod.kind,
      namespace: request.pod.namespace,
      name: request.pod.name,
      problem: "has no metadata.uid"
    })
  }
  if (request.pod.uid !== undefined && request.pod.uid !== podUid) {
    return yield* new PodReplaced({
      namespace: request.pod.namespace,
      pod: request.pod.name,
      expectedUid: request.pod.uid,
      actualUid: podUid
    })
  }
  const namespace = request.pod.namespace

  // 2. The Listener (bound by name, or created per volume), and its class.
  const listener = yield* findOrApplyListener(request.listener, pod, namespace, {
    name: pvc.metadata.name,
    labels: pvc.metadata.labels ?? {}
  }, pv)
  const listenerName = listener.metadata.name
  const className = listener.spec.className
  if (className === undefined) return yield* new ListenerHasNoClass({ namespace, listener: listenerName })
  const listenerClass = yield* loadListenerClass({ name: className })
  const listenerUid = listener.metadata.uid
  if (listenerUid === undefined) {
    return yield* new VolumeObjectInvalid({ kind: Kinds.Listener.kind, namespace, name: listenerName, problem: "has no metadata.uid" })
  }

  // 3. PV labels: the controller finds the pinned nodes of a Listener through them.
  yield* ensureLabels("label PersistentVolume", Kinds.PersistentVolume, { name: pv.metadata.name }, pv.metadata.labels, {
    [PV_LABEL_LISTENER_NAMESPACE]: namespace,
    [PV_LABEL_LISTENER_NAME]: listenerName
  })
  // 4. The mount label: the Listener's Service selects the Pod by it.
  yield* ensureLabels("label Pod", Kinds.Pod, { namespace, name: pod.metadata.name }, pod.metadata.labels, {
    [mountLabelKey(listenerUid)]: listenerName
  })

  // 5. This Pod's addresses (UNAVAILABLE until there are some: the kubelet retries).
  const { scope, addresses } = yield* addressesForPod(listener, listenerClass, pod)
  const tree = planVolumeTree(addresses)
  if (tree instanceof UnsafeVolumeEntry) {
    return yield* new VolumeAddressRefused({
      namespace,
      listener: listenerName,
      field: tree.field,
      value: tree.value,
      problem: tree.problem
    })
  }

  // 6. PodListeners, under the Pod's volume name.
  const podVolumeName = podVolumeNameFor(pod, pvc.metadata.name)
  if (podVolumeName === undefined) {
    return yield* new PodVolumeNotFound({ namespace, pod: pod.metadata.name, claim: pvc.metadata.name })
  }
  yield* recordPodListener(pod, podUid, podVolumeName, { scope, ingressAddresses: addresses })

  // 7. The file tree.
  const outcome = yield* writeVolumeTree(request.targetPath, tree.entries)
  return { listener: { namespace, name: listenerName }, podVolumeName, scope, addresses, tree: outcome }
})
