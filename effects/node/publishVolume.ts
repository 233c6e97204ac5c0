/**
 * NodePublishVolume (spec §4 "Node service") in seven steps over publishSteps.ts; each
 * converges: publishing the same volume again writes nothing that is already right.
 */
import { Effect } from "effect"
import { CsiContextKeys, mountLabelKey, PV_LABEL_LISTENER_NAME, PV_LABEL_LISTENER_NAMESPACE } from "../../domain/constants.ts"
import type { Pod } from "../../domain/core/pod.ts"
import type { PersistentVolumeClaim } from "../../domain/core/persistentVolumeClaim.ts"
import type { PersistentVolume } from "../../domain/core/persistentVolume.ts"
import { Kinds } from "../../domain/kinds.ts"
import type { EventRecorder } from "../shared/EventRecorder.ts"
import type { KubeApi } from "../shared/KubeApi.ts"
import { whileCatchingUp } from "./listenerCatchUp.ts"
import { reportVolumeWaiting } from "../shared/volumeWaiting.ts"
import type { VolumeFs } from "../shared/VolumeFs.ts"
import { InlineVolumeUnsupported, ListenerHasNoClass, PodVolumeNotFound, VolumeObjectInvalid } from "../shared/volumeErrors.ts"
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
  // 4. The mount label: the Listener's Service selects the Pod by it. A Pod that lacked it
  // is published for this Listener the first time, so its PodListeners entry is new too.
  const firstPublish = yield* ensureLabels("label Pod", Kinds.Pod, { namespace, name: pod.metadata.name }, pod.metadata.labels, {
    [mountLabelKey(listenerUid)]: listenerName
  })

  // 5. This Pod's addresses. Waits a few seconds, watching, while the controller has only
  // not caught up with the Listener yet (listenerCatchUp.ts); else UNAVAILABLE: the kubelet retries.
  const { scope, addresses } = yield* whileCatchingUp(listener, (current) => addressesForPod(current, listenerClass, pod))
  const tree = yield* planTreeOf({ namespace, name: listenerName }, addresses)

  // 6. PodListeners, under the Pod's volume name.
  const podVolumeName = podVolumeNameFor(pod, pvc.metadata.name)
  if (podVolumeName === undefined) {
    return yield* new PodVolumeNotFound({ namespace, pod: pod.metadata.name, claim: pvc.metadata.name })
  }
  yield* recordPodListener(pod, podUid, podVolumeName, { scope, ingressAddresses: addresses }, firstPublish ? "new" : "maybeRecorded")

  // 7. The file tree.
  const outcome = yield* writeVolumeTree(request.targetPath, tree.entries)
  return { listener: { namespace, name: listenerName }, podVolumeName, scope, addresses, tree: outcome }
})
