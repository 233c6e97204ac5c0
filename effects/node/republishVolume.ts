/**
 * The address refresh's re-publish of a volume our publish recorded (addressRefresh.ts).
 * Everything a publish established — the PV bound to its claim, the Listener, the labels,
 * the Pod's volume name — holds for the life of the volume (a PV in use cannot be deleted,
 * a Pod's volumes and node cannot change), so what changes on a new address is only the
 * Pod's PodListeners entry and the tree: 2 requests per volume (GET Pod, PATCH
 * PodListeners) instead of a publish's 5. The Pod is read fresh: one replaced under the
 * same name, or on its way out, is not refreshed (the record is then forgotten).
 */
import { Effect } from "effect"
import type { ListenerIngress } from "../../domain/listener.ts"
import { mergePodListenerEntry } from "../shared/podListenersRecord.ts"
import type { PublishedRecord } from "./PublishedVolumes.ts"
import { livePodUid, loadPod, planTreeOf } from "./publishSteps.ts"
import type { PublishedVolume } from "./publishSteps.ts"
import { writeVolumeTree } from "./writeVolumeTree.ts"

export const republishVolume = Effect.fn("republishVolume")(function*(
  record: PublishedRecord,
  podVolume: NonNullable<PublishedRecord["podVolume"]>,
  addresses: ReadonlyArray<ListenerIngress>
) {
  const { request, listener } = record
  const pod = yield* loadPod(request.pod)
  const podUid = yield* livePodUid(request, pod)
  const tree = yield* planTreeOf(listener, addresses)
  yield* mergePodListenerEntry(request.pod.namespace, podUid, podVolume.name, { scope: podVolume.scope, ingressAddresses: addresses })
  const outcome = yield* writeVolumeTree(request.targetPath, tree.entries)
  const published: PublishedVolume = { listener, podVolumeName: podVolume.name, scope: podVolume.scope, addresses, tree: outcome }
  return published
})
