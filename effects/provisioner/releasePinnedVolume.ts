/**
 * Node-loss recovery, the effectful half (spec §7; the decision is domain/nodeLoss.ts):
 * find the ListenerClass policy of a pinned listener volume, tell the user when its Node
 * is lost, and — when the class opts in — release the volume so the replica moves.
 *
 * Release order, each step idempotent (re-running after a failure converges) and each
 * reported as an Event on the PVC and on the Pods involved:
 * 1. Keep the per-volume Listener: it is owned by the PV only, so deleting the PV would
 *    garbage-collect it and its Service (and node ports) before the replacement volume
 *    adopts it. It gets the Pod's workload (e.g. the StatefulSet) as a second owner.
 * 2. Delete the PVC (uid precondition). It stays Terminating while a Pod bound to the lost
 *    Node still uses it (pvc-protection).
 * 3. Delete the Pods that use the PVC and are bound to the lost Node (force: no kubelet is
 *    left to confirm) or not scheduled at all (they wait for the old volume). The workload
 *    controller recreates each Pod, and — StatefulSet — its PVC.
 * 4. Delete the PV (uid precondition): a listener volume holds no data, and a PV pinned to
 *    a Node that is gone can never be used again.
 * A Listener named by `listener-name` is never touched: other volumes may use it.
 */
import { Effect, Option } from "effect"
import type { NodeLossPolicy } from "../../domain/nodeLoss.ts"
import { Kinds } from "../../domain/kinds.ts"
import { EventRecorder } from "../shared/EventRecorder.ts"
import type { EventRegarding } from "../shared/EventRecorder.ts"
import { getOption, ignoreNotFound, KubeApi } from "../shared/KubeApi.ts"
import type { KubeApiError, KubeObject, OwnerReference } from "../shared/KubeApi.ts"
import { listenerSelectionOf } from "../shared/listenerSelection.ts"
import type { ListenerSelection } from "../shared/listenerSelection.ts"
import { podVolumeNameFor } from "../shared/podListenersRecord.ts"
import type { Pod } from "../../domain/core/pod.ts"

/** Field manager of the owner reference added to a kept Listener. */
export const NODE_LOSS_FIELD_MANAGER = "listeners.stackable.tech_node-loss"

/** What the release needs of a pinned listener PV (as the controller's cache keeps it). */
export interface PinnedVolume {
  readonly name: string
  readonly uid: string | undefined
  readonly nodeName: string
  readonly claim: { readonly namespace: string; readonly name: string; readonly uid?: string | undefined } | undefined
  readonly volumeAttributes: Readonly<Record<string, string>>
}

export interface VolumePolicy {
  /** The ListenerClass the volume uses, when it could be found. */
  readonly className: string | undefined
  readonly policy: NodeLossPolicy
  /** Why no class was found (a Listener or class that is gone), for the report. */
  readonly problem?: string | undefined
}

const classSpecOf = (listenerClass: KubeObject): NodeLossPolicy => {
  const spec = (listenerClass["spec"] ?? {}) as { pinnedNodeLossRecovery?: unknown; pinnedNodeLossGracePeriod?: unknown }
  return {
    pinnedNodeLossRecovery: spec.pinnedNodeLossRecovery === true,
    ...(typeof spec.pinnedNodeLossGracePeriod === "string" ? { pinnedNodeLossGracePeriod: spec.pinnedNodeLossGracePeriod } : {})
  }
}

const classNameOf = (volume: PinnedVolume, selection: ListenerSelection) =>
  Effect.gen(function*() {
    if (selection._tag === "ListenerClass") return Option.some(selection.className)
    const api = yield* KubeApi
    const namespace = volume.claim?.namespace
    if (namespace === undefined) return Option.none<string>()
    const listener = yield* getOption(api.get(Kinds.Listener, { namespace, name: selection.listenerName }))
    const className = Option.map(listener, (l) => (l["spec"] as { className?: unknown } | undefined)?.className)
    return Option.filter(className, (name): name is string => typeof name === "string" && name !== "")
  })

/** The node-loss policy of the volume's ListenerClass (read only when its Node is in trouble). */
export const volumePolicyOf = (volume: PinnedVolume): Effect.Effect<VolumePolicy, KubeApiError, KubeApi> =>
  Effect.gen(function*() {
    const selection = listenerSelectionOf(volume.volumeAttributes, `volume context of ${volume.name}`)
    if (selection._tag === "ListenerSelectionInvalid") {
      return { className: undefined, policy: {}, problem: "its volume context names no Listener" }
    }
    const className = yield* classNameOf(volume, selection)
    if (Option.isNone(className)) return { className: undefined, policy: {}, problem: "its Listener has no ListenerClass" }
    const api = yield* KubeApi
    const listenerClass = yield* getOption(api.get(Kinds.ListenerClass, { name: className.value }))
    if (Option.isNone(listenerClass)) {
      return { className: className.value, policy: {}, problem: `ListenerClass ${className.value} does not exist` }
    }
    return { className: className.value, policy: classSpecOf(listenerClass.value) }
  })

const podUsesClaim = (pod: KubeObject, claimName: string): boolean =>
  podVolumeNameFor(pod as unknown as Pod, claimName) !== undefined

const nodeNameOf = (pod: KubeObject): string => ((pod["spec"] as { nodeName?: unknown } | undefined)?.nodeName as string | undefined) ?? ""

/** Pods that use the claim: all of them (for reports), and those the release deletes. */
const podsOfClaim = (claim: NonNullable<PinnedVolume["claim"]>) =>
  Effect.gen(function*() {
    const api = yield* KubeApi
    const pods = yield* api.list(Kinds.Pod, { namespace: claim.namespace })
    return pods.items.filter((pod) => podUsesClaim(pod, claim.name))
  })

const podRegarding = (pod: KubeObject): EventRegarding => ({
  apiVersion: "v1",
  kind: Kinds.Pod.kind,
  namespace: pod.metadata.namespace,
  name: pod.metadata.name ?? "",
  uid: pod.metadata.uid
})

const claimRegarding = (claim: NonNullable<PinnedVolume["claim"]>): EventRegarding => ({
  apiVersion: "v1",
  kind: Kinds.PersistentVolumeClaim.kind,
  namespace: claim.namespace,
  name: claim.name,
  uid: claim.uid
})

const recordOn = (subjects: ReadonlyArray<EventRegarding>, type: "Normal" | "Warning", reason: string, note: string) =>
  Effect.gen(function*() {
    const events = yield* EventRecorder
    for (const regarding of subjects) yield* events.record({ regarding, type, reason, action: "RecoverFromNodeLoss", note })
  })

/** Recovery is off (or the class unknown): say what was found and what to do by hand. */
export const reportPinnedNodeLost = Effect.fn("reportPinnedNodeLost")(function*(volume: PinnedVolume, why: string, policy: VolumePolicy) {
  const claim = volume.claim
  const pods = claim === undefined ? [] : yield* podsOfClaim(claim)
  const subjects = [...(claim === undefined ? [] : [claimRegarding(claim)]), ...pods.map(podRegarding)]
  const byHand = claim === undefined
    ? `delete PersistentVolume ${volume.name}`
    : `delete PVC ${claim.namespace}/${claim.name} and its Pod so that the replica is scheduled on another node`
  const enable = policy.className === undefined
    ? `(${policy.problem ?? "its ListenerClass is unknown"})`
    : `or set spec.pinnedNodeLossRecovery: true on ListenerClass ${policy.className} to have this done automatically`
  yield* recordOn(subjects, "Warning", "PinnedNodeLost", `${why}; listener volume ${volume.name} is pinned to it and its Pod cannot run elsewhere: ${byHand}, ${enable}`)
  yield* Effect.logWarning(`${why}; pinned listener volume ${volume.name} left alone (recovery off)`).pipe(
    Effect.annotateLogs({ volume: volume.name, node: volume.nodeName })
  )
})

/** Step 1: the workload that will recreate the Pod, as an owner reference. */
const workloadOwnerOf = (pods: ReadonlyArray<KubeObject>): OwnerReference | undefined =>
  pods.flatMap((pod) => pod.metadata.ownerReferences ?? []).find((owner) => owner.controller === true)

const keepPerVolumeListener = (volume: PinnedVolume, claim: NonNullable<PinnedVolume["claim"]>, pods: ReadonlyArray<KubeObject>) =>
  Effect.gen(function*() {
    const api = yield* KubeApi
    const listener = yield* getOption(api.get(Kinds.Listener, { namespace: claim.namespace, name: claim.name }))
    if (Option.isNone(listener)) return undefined
    const owners = listener.value.metadata.ownerReferences ?? []
    // Only the per-volume Listener this PV owns; a listener-name Listener is not the volume's.
    if (volume.uid === undefined || !owners.some((owner) => owner.uid === volume.uid)) return undefined
    const workload = workloadOwnerOf(pods)
    if (workload === undefined) return undefined
    if (!owners.some((owner) => owner.uid === workload.uid)) {
      yield* api.apply(Kinds.Listener, {
        apiVersion: listener.value.apiVersion,
        kind: Kinds.Listener.kind,
        metadata: {
          name: claim.name,
          namespace: claim.namespace,
          ownerReferences: [{ apiVersion: workload.apiVersion, kind: workload.kind, name: workload.name, uid: workload.uid }]
        }
      }, { fieldManager: NODE_LOSS_FIELD_MANAGER, force: true })
    }
    return `${workload.kind}/${workload.name}`
  })

/** Recovery is on: release the volume (steps in the module comment). */
export const releasePinnedVolume = Effect.fn("releasePinnedVolume")(function*(volume: PinnedVolume, why: string, className: string) {
  const api = yield* KubeApi
  const claim = volume.claim
  const pods = claim === undefined ? [] : yield* podsOfClaim(claim)
  // Pods on the lost Node, and Pods never scheduled (waiting for the pinned volume).
  const stranded = pods.filter((pod) => nodeNameOf(pod) === volume.nodeName || nodeNameOf(pod) === "")
  const subjects = [...(claim === undefined ? [] : [claimRegarding(claim)]), ...pods.map(podRegarding)]
  const log = (message: string) => Effect.logInfo(message).pipe(Effect.annotateLogs({ volume: volume.name, node: volume.nodeName }))

  yield* recordOn(subjects, "Warning", "PinnedNodeLost", `${why}; releasing listener volume ${volume.name} (pinnedNodeLossRecovery of ListenerClass ${className}) so that the replica is scheduled on another node`)
  yield* log(`${why}; releasing pinned listener volume ${volume.name}`)

  if (claim !== undefined) {
    const keptBy = yield* keepPerVolumeListener(volume, claim, pods)
    if (keptBy !== undefined) {
      yield* recordOn(subjects, "Normal", "ListenerKept", `Listener ${claim.namespace}/${claim.name} is kept for the replacement volume (now also owned by ${keptBy}), so its Service and node ports stay`)
    }
    yield* ignoreNotFound(api.delete(Kinds.PersistentVolumeClaim, { namespace: claim.namespace, name: claim.name }, {
      preconditions: { uid: claim.uid }
    }))
    yield* recordOn(subjects, "Normal", "PinnedClaimDeleted", `deleted PVC ${claim.namespace}/${claim.name}, bound to volume ${volume.name} pinned to the lost Node ${volume.nodeName}; the workload recreates it`)
  }
  for (const pod of stranded) {
    yield* ignoreNotFound(api.delete(Kinds.Pod, { namespace: pod.metadata.namespace, name: pod.metadata.name ?? "" }, {
      gracePeriodSeconds: 0,
      preconditions: { uid: pod.metadata.uid }
    }))
    yield* recordOn([...subjects.filter((s) => s.kind !== Kinds.Pod.kind), podRegarding(pod)], "Normal", "StrandedPodDeleted", nodeNameOf(pod) === ""
      ? `deleted Pod ${pod.metadata.namespace}/${pod.metadata.name}, which waited for volume ${volume.name} pinned to the lost Node ${volume.nodeName}; its workload recreates it`
      : `force-deleted Pod ${pod.metadata.namespace}/${pod.metadata.name} from the lost Node ${volume.nodeName}; its workload recreates it elsewhere`)
  }
  yield* ignoreNotFound(api.delete(Kinds.PersistentVolume, { name: volume.name }, { preconditions: { uid: volume.uid } }))
  yield* recordOn(subjects, "Normal", "PinnedVolumeDeleted", `deleted listener volume ${volume.name}, pinned to the lost Node ${volume.nodeName}; a new one is provisioned on the node the replica is scheduled to`)
  yield* log(`released pinned listener volume ${volume.name}: ${stranded.length} Pod(s) deleted`)
})
