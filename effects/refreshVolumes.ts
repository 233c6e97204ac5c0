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
 * none. A record whose PV, PVC or Pod is gone, or whose Pod is being deleted, is forgotten
 * (its tree is left for the kubelet's NodeUnpublishVolume to remove).
 *
 * Every re-publish holds the target's lock (targetLocks.ts), shared with the kubelet's
 * NodePublishVolume and NodeUnpublishVolume: a pass that overlaps an unpublish never
 * re-creates the target or its record, and two writers never meet in one tree.
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
import { TargetLocks } from "./targetLocks.ts"
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

type TargetRefresh = "republished" | "forgotten" | "unchanged"

/**
 * Re-publish one target whose addresses look stale, holding its lock (targetLocks.ts) so
 * that no NodePublishVolume or NodeUnpublishVolume of the kubelet runs meanwhile. The
 * record is read again under the lock: one that is gone was unpublished since the pass
 * began — its target must stay gone — and one that already holds `addresses` was
 * re-published by the kubelet meanwhile.
 */
const refreshTarget = (targetPath: string, addresses: ReadonlyArray<ListenerIngress>) =>
  Effect.gen(function*() {
    const registry = yield* PublishedVolumes
    const record = yield* registry.get(targetPath)
    if (record === undefined || jsonEquals(record.addresses, addresses)) return "unchanged" as const
    const outcome = yield* Effect.result(publishVolume(record.request))
    if (outcome._tag === "Success") {
      yield* registry.record({ ...record, addresses: outcome.success.addresses })
      yield* Effect.logInfo(`refreshed the addresses of volume ${record.request.volumeId}`).pipe(
        Effect.annotateLogs({ target: targetPath, listener: `${record.listener.namespace}/${record.listener.name}` })
      )
      return "republished" as const
    }
    const failure = outcome.failure
    if (
      (failure._tag === "VolumeApiStepFailed" && failure.cause.reason === "NotFound") ||
      failure._tag === "PodReplaced" || failure._tag === "PodTerminating"
    ) {
      // The volume's PV, PVC or Pod is gone or going: the kubelet unpublishes it (or already
      // did). publishVolume wrote nothing, and the tree stays for containers still stopping.
      yield* registry.forget(targetPath)
      return "forgotten" as const
    }
    yield* Effect.logWarning(`address refresh of volume ${record.request.volumeId} failed: ${failure.message}`)
    return "unchanged" as const
  })

/** One pass over the published volumes of this node. */
export const refreshPublishedVolumes = (
  nodeName: string
): Effect.Effect<RefreshOutcome, never, KubeApi | VolumeFs | EventRecorder | PublishedVolumes | TargetLocks> =>
  Effect.gen(function*() {
    const registry = yield* PublishedVolumes
    const locks = yield* TargetLocks
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
        const targetPath = record.request.targetPath
        const done: TargetRefresh = yield* locks.withTarget(targetPath)(refreshTarget(targetPath, addresses))
        if (done === "republished") republished++
        if (done === "forgotten") forgotten++
      }
    }
    return { checked: records.length, republished, forgotten }
  })
