/**
 * Live address refresh (SPEC §7): when a Listener's addresses change after its Pods
 * started — a load balancer gets a new address, a Node a new address or override — the
 * files in their mounted volumes change too, in place and atomically (the tree is swapped
 * inside the mounted directory, writeVolumeTree.ts), without restarting anything.
 *
 * Each pass reads, per distinct Listener of the volumes this plugin published: the
 * Listener, its class and (NodePort) this Node — a handful of GETs per node, however many
 * Pods — recomputes the addresses as NodePublishVolume would, and re-publishes only the
 * volumes whose addresses differ (which also updates the Pod's PodListeners). A Listener
 * without addresses at the moment keeps the old tree: a running Pod is never left with
 * none. A record whose PV, PVC or Pod is gone is forgotten.
 */
import { Effect, Option } from "effect"
import { Kinds } from "../domain/kinds.ts"
import { Listener } from "../domain/listener.ts"
import { ListenerClass } from "../domain/listenerClass.ts"
import { jsonEquals } from "../domain/listenerPlan/json.ts"
import type { ListenerIngress } from "../domain/listenerPlan/inputs.ts"
import type { EventRecorder } from "./EventRecorder.ts"
import { getOption, KubeApi } from "./KubeApi.ts"
import { PublishedVolumes } from "./publishedVolumes.ts"
import type { PublishedRecord } from "./publishedVolumes.ts"
import { addressesForPod, publishVolume } from "./publishVolume.ts"
import type { VolumeFs } from "./VolumeFs.ts"
import { decodeObject } from "./volumeObjects.ts"

export interface RefreshOutcome {
  readonly checked: number
  readonly republished: number
  readonly forgotten: number
}

const decodeListener = decodeObject(Kinds.Listener, Listener)
const decodeClass = decodeObject(Kinds.ListenerClass, ListenerClass)

/** The addresses a volume of `listenerRef` on `nodeName` would get now; none if unknown or not ready. */
const currentAddresses = (listenerRef: PublishedRecord["listener"], nodeName: string) =>
  Effect.gen(function*() {
    const api = yield* KubeApi
    const raw = yield* getOption(api.get(Kinds.Listener, listenerRef))
    if (Option.isNone(raw)) return undefined
    const listener = yield* decodeListener(raw.value, listenerRef)
    const className = listener.spec.className
    if (className === undefined) return undefined
    const rawClass = yield* getOption(api.get(Kinds.ListenerClass, { name: className }))
    if (Option.isNone(rawClass)) return undefined
    const listenerClass = yield* decodeClass(rawClass.value, { name: className })
    const pod = { metadata: { name: "", namespace: listenerRef.namespace }, spec: { nodeName } }
    return (yield* addressesForPod(listener, listenerClass, pod)).addresses
  }).pipe(
    // Not ready, gone, or unreadable right now: keep what the volume has.
    Effect.catch((error) => Effect.as(Effect.logDebug(`address refresh of Listener ${listenerRef.namespace}/${listenerRef.name} skipped: ${error.message}`), undefined))
  )

/** One pass over the published volumes of this node. */
export const refreshPublishedVolumes = (nodeName: string): Effect.Effect<RefreshOutcome, never, KubeApi | VolumeFs | EventRecorder | PublishedVolumes> =>
  Effect.gen(function*() {
    const registry = yield* PublishedVolumes
    const records = yield* registry.all
    const byListener = new Map<string, Array<PublishedRecord>>()
    for (const record of records) {
      const key = `${record.listener.namespace}/${record.listener.name}`
      byListener.set(key, [...(byListener.get(key) ?? []), record])
    }
    let republished = 0
    let forgotten = 0
    for (const group of byListener.values()) {
      const addresses: ReadonlyArray<ListenerIngress> | undefined = yield* currentAddresses(group[0]!.listener, nodeName)
      if (addresses === undefined || addresses.length === 0) continue
      for (const record of group.filter((r) => !jsonEquals(r.addresses, addresses))) {
        const outcome = yield* Effect.result(publishVolume(record.request))
        if (outcome._tag === "Success") {
          republished++
          yield* registry.record({ ...record, addresses: outcome.success.addresses })
          yield* Effect.logInfo(`refreshed the addresses of volume ${record.request.volumeId}`).pipe(
            Effect.annotateLogs({ target: record.request.targetPath, listener: `${record.listener.namespace}/${record.listener.name}` })
          )
        } else if (outcome.failure._tag === "VolumeApiStepFailed" && outcome.failure.cause.reason === "NotFound" || outcome.failure._tag === "PodReplaced") {
          // The volume's PV, PVC or Pod is gone: the kubelet unpublishes it (or already did).
          forgotten++
          yield* registry.forget(record.request.targetPath)
        } else {
          yield* Effect.logWarning(`address refresh of volume ${record.request.volumeId} failed: ${outcome.failure.message}`)
        }
      }
    }
    return { checked: records.length, republished, forgotten }
  })
