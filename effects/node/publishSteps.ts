/**
 * The steps of a publish (spec §4 "Node service"), in one module that NodePublishVolume
 * (publishVolume.ts), the address refresh's re-publish (`rewriteAddresses`) and the
 * refresh itself (addressRefresh.ts) use: load the PV, its PVC and the Pod; label the PV
 * and the Pod; pick this Pod's addresses; plan its file tree. Every step converges:
 * publishing the same volume again (kubelet retry, node restart) writes nothing that is
 * already right.
 */
import { Effect } from "effect"
import { FieldManagers } from "../../domain/constants.ts"
import type { Pod } from "../../domain/core/pod.ts"
import { Node } from "../../domain/core/node.ts"
import { Pod as PodSchema } from "../../domain/core/pod.ts"
import { PersistentVolumeClaim } from "../../domain/core/persistentVolumeClaim.ts"
import { Kinds } from "../../domain/kinds.ts"
import { Listener } from "../../domain/listener.ts"
import type { ListenerIngress } from "../../domain/listener.ts"
import { ListenerClass } from "../../domain/listenerClass.ts"
import { nodeAddressPolicyOf } from "../../domain/listenerPlan/addresses.ts"
import { acceptedNodeAddressTypes, nodeAddressOverride, nodeAddresses } from "../../domain/listenerPlan/nodeAddresses.ts"
import { renderHostname, templatedAddresses } from "../../domain/listenerPlan/hostnameTemplate.ts"
import type { ListenerScope } from "../../domain/podListeners.ts"
import { planVolumeTree, UnsafeVolumeEntry } from "../../domain/volumeTree.ts"
import { cachedOrLoad } from "./cachedReads.ts"
import { KubeApi } from "../shared/KubeApi.ts"
import type { ListenerSelection } from "../shared/listenerSelection.ts"
import {
  InlineVolumeUnsupported,
  ListenerAddressesNotReady,
  ListenerHasNoClass,
  PodNotScheduled,
  PodReplaced,
  PodTerminating,
  PodVolumeNotFound,
  VolumeAddressRefused,
  VolumeNotBound,
  VolumeObjectInvalid
} from "../shared/volumeErrors.ts"
import type { AwaitingNodeBinding, TargetParentMissing, VolumeApiStepFailed, VolumeTreeWriteFailed } from "../shared/volumeErrors.ts"
import { apiStepFailed, loadObject, loadPersistentVolume } from "../shared/volumeObjects.ts"
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
  | AwaitingNodeBinding
  | ListenerAddressesNotReady
  | PodReplaced
  | PodTerminating
  | PodVolumeNotFound
  | VolumeAddressRefused
  | TargetParentMissing
  | VolumeTreeWriteFailed

const loadPvc = loadObject("load PersistentVolumeClaim", Kinds.PersistentVolumeClaim, PersistentVolumeClaim)
export const loadPod = loadObject("load Pod", Kinds.Pod, PodSchema)
// Through the node's caches (cachedReads.ts): the class and the Node may be a watch round
// trip old, and the address refresh follows any change; the PV, PVC and Pod are read fresh.
const loadNode = cachedOrLoad("load Node", Kinds.Node, Node, (view, ref) => view.node(ref.name))
export const loadListenerClass = cachedOrLoad("load ListenerClass", Kinds.ListenerClass, ListenerClass, (view, ref) => view.listenerClass(ref.name))

/** The PV of `volumeId`, and the PVC its claimRef names (the same claim, not an earlier one of that name). */
export const loadClaim = Effect.fn("loadClaim")(function*(volumeId: string) {
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
  return { pv, pvc, claimRef: { namespace: claimRef.namespace, name: claimRef.name } }
})

/**
 * Merge-patch labels onto an object unless it already carries them (no write when
 * converged). Whether it wrote: the object lacked one of them.
 */
export const ensureLabels = Effect.fn("ensureLabels")(function*(
  step: string,
  kind: typeof Kinds.Pod | typeof Kinds.PersistentVolume,
  ref: { readonly namespace?: string | undefined; readonly name: string },
  current: Readonly<Record<string, string>> | undefined,
  wanted: Readonly<Record<string, string>>
) {
  if (Object.entries(wanted).every(([key, value]) => current?.[key] === value)) return false
  const api = yield* KubeApi
  // A merge patch names only these keys: every other label (other listeners' mount labels) stays.
  yield* Effect.mapError(
    api.patch(kind, ref, { metadata: { labels: wanted } }, { type: "merge", fieldManager: FieldManagers.csiNode }),
    apiStepFailed(step, kind, ref)
  )
  return true
})

/**
 * spec §4 step 5: the addresses this Pod is reachable on through the Listener. Also what
 * the address refresh (addressRefresh.ts) recomputes for volumes already published.
 */
export const addressesForPod = Effect.fn("addressesForPod")(function*(
  listener: Listener,
  listenerClass: ListenerClass,
  pod: { readonly metadata: { readonly name: string; readonly namespace?: string | undefined }; readonly spec?: { readonly nodeName?: string | undefined } | undefined }
) {
  const namespace = listener.metadata.namespace ?? ""
  const notReady = (awaiting: ListenerAddressesNotReady["awaiting"], problem: string, acceptedAddressTypes?: ListenerAddressesNotReady["acceptedAddressTypes"]) =>
    new ListenerAddressesNotReady({ namespace, listener: listener.metadata.name, awaiting, problem, acceptedAddressTypes })
  if (listenerClass.spec.serviceType !== "NodePort") {
    const addresses = listener.status?.ingressAddresses ?? []
    if (addresses.length === 0) return yield* notReady("ListenerAddresses", "status.ingressAddresses is empty")
    return { scope: "Cluster" as const, addresses }
  }
  const nodeName = pod.spec?.nodeName
  if (nodeName === undefined || nodeName === "") {
    return yield* new PodNotScheduled({ namespace: pod.metadata.namespace ?? "", pod: pod.metadata.name })
  }
  const ports = listener.status?.nodePorts ?? {}
  if (Object.keys(ports).length === 0) return yield* notReady("NodePorts", "status.nodePorts is empty (no node ports allocated yet)")
  const node = yield* loadNode({ name: nodeName })
  const policy = nodeAddressPolicyOf({
    preferred: listenerClass.spec.preferredAddressType,
    nodeAddressTypes: listenerClass.spec.nodeAddressTypes,
    nodeAddressSelection: listenerClass.spec.nodeAddressSelection
  })
  const picked = nodeAddresses(node, policy)
  if (picked.length === 0) {
    const ofTypes = (types: ReadonlyArray<string>) => (node.status?.addresses ?? []).filter((a) => types.includes(a.type)).map((a) => a.address)
    const offered = [
      ...(nodeAddressOverride(node)?.refused.map((r) => r.address) ?? []),
      ...ofTypes(["ExternalIP", "InternalIP"]),
      ...ofTypes(["Hostname", "ExternalDNS", "InternalDNS"])
    ]
    const fromClass = (listenerClass.spec.nodeAddressTypes ?? []).length > 0
    const accepted = {
      listenerClass: listenerClass.metadata.name ?? "",
      types: acceptedNodeAddressTypes(policy),
      source: fromClass ? "nodeAddressTypes" as const : "preferredAddressType" as const
    }
    return yield* notReady(
      "NodeAddress",
      fromClass
        ? `node ${nodeName} has no usable address of the class's nodeAddressTypes (${(listenerClass.spec.nodeAddressTypes ?? []).join(", ")})`
        : offered.length === 0
        ? `node ${nodeName} has no ExternalIP, InternalIP or Hostname address`
        : `node ${nodeName} has no address that is an IP address or DNS name (${offered.map((a) => JSON.stringify(a)).join(", ")})`,
      accepted
    )
  }
  const addresses: ReadonlyArray<ListenerIngress> = picked.map((a) => ({ ...a, ports: { ...ports } }))
  // A templated hostname names this Listener on whichever node it runs (hostnameTemplate.ts).
  const template = listenerClass.spec.hostnameTemplate
  if (template == null) return { scope: "Node" as const, addresses }
  const rendered = renderHostname(template, { listener: listener.metadata.name, namespace, className: listenerClass.metadata.name ?? "" })
  if (rendered._tag === "Unusable") return yield* notReady("ListenerAddresses", rendered.problem)
  return { scope: "Node" as const, addresses: templatedAddresses(rendered.hostname, addresses) }
})

/** The volume's file tree for `addresses`; an address unsafe as a path is refused naming the Listener's field. */
export const planTreeOf = (listener: { readonly namespace: string; readonly name: string }, addresses: ReadonlyArray<ListenerIngress>) => {
  const tree = planVolumeTree(addresses)
  return tree instanceof UnsafeVolumeEntry
    ? Effect.fail(new VolumeAddressRefused({ namespace: listener.namespace, listener: listener.name, field: tree.field, value: tree.value, problem: tree.problem }))
    : Effect.succeed(tree)
}

/**
 * The uid of the Pod the request is for, once it is known to be that Pod and alive: not
 * replaced by another of the same name, not on its way out — labels, PodListeners or a tree
 * for a Pod being deleted would only outlive it, and the address refresh must not re-create
 * what NodeUnpublishVolume removes.
 */
export const livePodUid = Effect.fn("livePodUid")(function*(request: PublishVolumeRequest, pod: Pod) {
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
  const deletionTimestamp = pod.metadata.deletionTimestamp
  if (deletionTimestamp !== undefined) {
    return yield* new PodTerminating({ namespace: request.pod.namespace, pod: request.pod.name, deletionTimestamp })
  }
  return podUid
})
