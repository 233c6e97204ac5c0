/**
 * NodePublishVolume (spec §4 "Node service") in steps over publishSteps.ts; each
 * converges: publishing the same volume again writes nothing that is already right.
 */
import { Effect } from "effect"
import {
  CsiContextKeys,
  listenerNameProblem,
  mountLabelKey,
  NODE_PUBLISHED_LABEL,
  PV_LABEL_LISTENER_NAME,
  PV_LABEL_LISTENER_NAMESPACE
} from "../../domain/constants.ts"
import type { Pod } from "../../domain/core/pod.ts"
import type { PersistentVolumeClaim } from "../../domain/core/persistentVolumeClaim.ts"
import type { PersistentVolume } from "../../domain/core/persistentVolume.ts"
import { Kinds } from "../../domain/kinds.ts"
import type { EventRecorder } from "../shared/EventRecorder.ts"
import type { KubeApi } from "../shared/KubeApi.ts"
import { whileCatchingUp } from "./listenerCatchUp.ts"
import { reportVolumeWaiting } from "../shared/volumeWaiting.ts"
import type { VolumeFs } from "../shared/VolumeFs.ts"
import { InlineVolumeUnsupported, ListenerHasNoClass, PodNotScheduled, PodVolumeNotFound, VolumeObjectInvalid } from "../shared/volumeErrors.ts"
import { podVolumeNameFor, recordPodListener } from "../shared/podListenersRecord.ts"
import { findOrApplyListener } from "./volumeListener.ts"
import { writeVolumeTree } from "./writeVolumeTree.ts"
import { addressesForPod, ensureLabels, livePodUid, loadClaim, loadListenerClass, loadPod, planTreeOf } from "./publishSteps.ts"
import type { PublishedVolume, PublishVolumeError, PublishVolumeRequest } from "./publishSteps.ts"

export type { PublishedVolume, PublishVolumeError, PublishVolumeRequest } from "./publishSteps.ts"

/** spec §4 NodePublishVolume. */
export const publishVolume: (
  request: PublishVolumeRequest
) => Effect.Effect<PublishedVolume, PublishVolumeError, KubeApi | VolumeFs | EventRecorder> = Effect.fn("publishVolume")(function*(
  request: PublishVolumeRequest
) {
  const { volumeId } = request
  if (request.volumeContext[CsiContextKeys.ephemeral] === "true") return yield* new InlineVolumeUnsupported({ volumeId })

  // 1. The PV, its PVC (from the claimRef) and the Pod. The Pod's read needs nothing from
  // the PV, so it runs beside the PV → PVC chain: a Pod's start waits for one round trip
  // less. Both finish before anything is judged, so a failure of the PV or PVC is reported
  // first, as when they were read one after the other.
  const [claim, podRead] = yield* Effect.all([Effect.result(loadClaim(volumeId)), Effect.result(loadPod(request.pod))], { concurrency: 2 })
  const { pv, pvc, claimRef } = yield* Effect.fromResult(claim)
  const pod = yield* Effect.fromResult(podRead)
  const podUid = yield* livePodUid(request, pod)
  const subjects = [
    { apiVersion: "v1", kind: Kinds.Pod.kind, namespace: request.pod.namespace, name: pod.metadata.name, uid: podUid },
    { apiVersion: "v1", kind: Kinds.PersistentVolumeClaim.kind, namespace: claimRef.namespace, name: pvc.metadata.name, uid: pvc.metadata.uid }
  ]
  return yield* publishFor(request, pv, pvc, pod, podUid).pipe(Effect.tapError(reportVolumeWaiting("PublishVolume", subjects)))
})

/** Steps 2–7, once the PV, PVC and Pod are known (waiting failures are reported on the last two). */
const publishFor = Effect.fn("publishFor")(function*(
  request: PublishVolumeRequest,
  pv: PersistentVolume,
  pvc: PersistentVolumeClaim,
  pod: Pod,
  podUid: string
) {
  const namespace = request.pod.namespace

  // 2. PV labels: the controller finds the pinned nodes of a Listener through them, and its
  // volume binder the volume of a marked Pod. Refused before any write: the name becomes
  // label values (PV, Pod) that cannot hold it.
  const listenerName = request.listener._tag === "ListenerName" ? request.listener.listenerName : pvc.metadata.name
  const nameProblem = listenerNameProblem(listenerName)
  if (nameProblem !== undefined) {
    return yield* new VolumeObjectInvalid({ kind: Kinds.Listener.kind, namespace, name: listenerName, problem: `its name ${nameProblem}` })
  }
  const nodeName = pod.spec?.nodeName
  if (nodeName === undefined || nodeName === "") return yield* new PodNotScheduled({ namespace, pod: pod.metadata.name })
  // The Pod's volume of this claim: the binder makes the volume's Listener only for a claim the Pod mounts.
  const podVolumeName = podVolumeNameFor(pod, pvc.metadata.name)
  if (podVolumeName === undefined) {
    return yield* new PodVolumeNotFound({ namespace, pod: pod.metadata.name, claim: pvc.metadata.name })
  }
  yield* ensureLabels("label PersistentVolume", Kinds.PersistentVolume, { name: pv.metadata.name }, pv.metadata.labels, {
    [PV_LABEL_LISTENER_NAMESPACE]: namespace,
    [PV_LABEL_LISTENER_NAME]: listenerName
  })
  // 3. The mark: the controller's volume binder creates the Pod's PodListeners and the
  // volume's per-volume Listener bound to this node (the node plugin may create neither).
  yield* ensureLabels("mark Pod", Kinds.Pod, { namespace, name: pod.metadata.name }, pod.metadata.labels, { [NODE_PUBLISHED_LABEL]: nodeName })

  // 4. The Listener (bound by name, or the per-volume one once bound), and its class.
  const listener = yield* findOrApplyListener(request.listener, pod, namespace, {
    name: pvc.metadata.name,
    labels: pvc.metadata.labels ?? {}
  }, pv)
  const className = listener.spec.className
  if (className === undefined) return yield* new ListenerHasNoClass({ namespace, listener: listenerName })
  const listenerClass = yield* loadListenerClass({ name: className })
  const listenerUid = listener.metadata.uid
  if (listenerUid === undefined) {
    return yield* new VolumeObjectInvalid({ kind: Kinds.Listener.kind, namespace, name: listenerName, problem: "has no metadata.uid" })
  }

  // The mount label (the Listener's Service selects the Pod by it) is the controller's
  // volume binder's to set, not ours (the admission policy refuses it). A Pod that lacked
  // it when read above is published for this Listener the first time, so its PodListeners
  // entry is new too: patched at once, without a read first.
  const firstPublish = pod.metadata.labels?.[mountLabelKey(listenerUid)] !== listenerName

  // 5. This Pod's addresses. Waits a few seconds, watching, while the controller has only
  // not caught up with the Listener yet (listenerCatchUp.ts); else UNAVAILABLE: the kubelet retries.
  const { scope, addresses } = yield* whileCatchingUp(listener, (current) => addressesForPod(current, listenerClass, pod))
  const tree = yield* planTreeOf({ namespace, name: listenerName }, addresses)

  // 6. PodListeners, under the Pod's volume name.
  yield* recordPodListener(pod, podUid, podVolumeName, { scope, ingressAddresses: addresses }, firstPublish ? "new" : "maybeRecorded")

  // 7. The file tree.
  const outcome = yield* writeVolumeTree(request.targetPath, tree.entries)
  return { listener: { namespace, name: listenerName }, podVolumeName, scope, addresses, tree: outcome }
})
