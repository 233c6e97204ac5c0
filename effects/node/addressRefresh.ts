/**
 * Live address refresh (spec §7): when a Listener's addresses change after its Pods
 * started — a load balancer gets a new address, a Node a new address or override — the
 * files in their mounted volumes change too, in place and atomically (the tree is swapped
 * inside the mounted directory, writeVolumeTree.ts), without restarting anything.
 *
 * Driven by watches, not polling (issue 21): the node's caches (NodeView.ts) report each
 * change of a Listener it publishes, of a ListenerClass or of its own Node, and a pass runs
 * over the volumes that change can touch — a Listener's own volumes, or all of them for a
 * class or the Node. A pass reads the Listener, its class and the Node from the caches (no
 * request), recomputes the addresses as NodePublishVolume would, and re-publishes only the
 * volumes whose addresses differ: the Pod's PodListeners entry and the tree, 2 requests per
 * volume (`rewriteAddresses`). A safety
 * resync re-checks every volume from the caches now and then, again without a request.
 * Without caches (`NodeView.uncached`: tests, tools) a pass reads the API instead.
 *
 * A Listener without addresses at the moment keeps the old tree: a running Pod is never
 * left with none. A record whose PV, PVC or Pod is gone, or whose Pod is being deleted, is
 * forgotten (its tree is left for the kubelet's NodeUnpublishVolume to remove).
 *
 * Every re-publish holds the target's lock (TargetLocks.ts), shared with the kubelet's
 * NodePublishVolume and NodeUnpublishVolume: a pass that overlaps an unpublish never
 * re-creates the target or its record, and two writers never meet in one tree.
 */
import { Duration, Effect, Option, Schedule } from "effect"
import { recordRefresh } from "../shared/volumeMetrics.ts"
import type { RefreshOutcome } from "../shared/volumeMetrics.ts"
import { Kinds } from "../../domain/kinds.ts"
import { Listener } from "../../domain/listener.ts"
import { ListenerClass } from "../../domain/listenerClass.ts"
import { jsonEquals } from "../../domain/listenerPlan/json.ts"
import type { EventRecorder } from "../shared/EventRecorder.ts"
import { getOption, isTransientReason, KubeApi } from "../shared/KubeApi.ts"
import type { KubeApiError, KubeObject } from "../shared/KubeApi.ts"
import { NodeView } from "./NodeView.ts"
import type { NodeViewChange } from "./NodeView.ts"
import { relabelListener } from "./listenerNodeLabel.ts"
import { PublishedVolumes } from "./PublishedVolumes.ts"
import type { PublishedRecord } from "./PublishedVolumes.ts"
import type { ListenerIngress } from "../../domain/listener.ts"
import { mergePodListenerEntry } from "../shared/podListenersRecord.ts"
import { addressesForPod, ensureLabels, livePodUid, planTreeOf } from "./publishSteps.ts"
import { NODE_PUBLISHED_LABEL } from "../../domain/constants.ts"
import { publishVolume } from "./publishVolume.ts"
import { writeVolumeTree } from "./writeVolumeTree.ts"
import type { VolumeFs } from "../shared/VolumeFs.ts"
import { TargetLocks } from "./TargetLocks.ts"
import { decodeObject, loadObject } from "../shared/volumeObjects.ts"
import { PodLiveness } from "../../domain/core/pod.ts"
import { planVolumeTree, UnsafeVolumeEntry } from "../../domain/volumeTree.ts"

const decodeListener = decodeObject(Kinds.Listener, Listener)
// Only the Pod's uid and deletion mark: all a re-publish checks (see `rewriteAddresses`).
const loadPodLiveness = loadObject("load Pod", Kinds.Pod, PodLiveness)
const decodeClass = decodeObject(Kinds.ListenerClass, ListenerClass)

/** What a pass reads: the caches, or (no caches) the API. */
const readers = Effect.gen(function*() {
  const view = yield* NodeView
  const api = yield* KubeApi
  const cached = view.nodeName !== undefined
  const fromApi = (kind: typeof Kinds.Listener | typeof Kinds.ListenerClass | typeof Kinds.Node) => (ref: { readonly namespace?: string; readonly name: string }) =>
    getOption(api.get(kind, ref))
  return {
    cached,
    listener: cached ? (ref: { readonly namespace: string; readonly name: string }) => view.listener(ref) : fromApi(Kinds.Listener),
    listenerClass: cached ? (name: string) => view.listenerClass(name) : (name: string) => fromApi(Kinds.ListenerClass)({ name }),
    node: cached ? (name: string) => view.node(name) : (name: string) => fromApi(Kinds.Node)({ name })
  }
})
type Readers = Effect.Success<typeof readers>

/**
 * The Listener without its labels, which no address depends on: a Listener shared by many
 * nodes carries one per node (`publishedOnNodeLabel`) — 200 on the scale benchmark's
 * shared one — and decoding them was most of its decoding, on every node at every change.
 */
const withoutLabels = (object: KubeObject): KubeObject => {
  const { labels: _, ...metadata } = object.metadata
  return { ...object, metadata }
}

/** The scope and addresses a volume of `listenerRef` on `nodeName` would get now; none if unknown or not ready. */
const currentAddresses = (read: Readers, listenerRef: PublishedRecord["listener"], nodeName: string) =>
  Effect.gen(function*() {
    const raw: Option.Option<KubeObject> = yield* read.listener(listenerRef)
    if (Option.isNone(raw)) return "missing" as const
    const listener = yield* decodeListener(withoutLabels(raw.value), listenerRef)
    const className = listener.spec.className
    if (className === undefined) return undefined
    const rawClass: Option.Option<KubeObject> = yield* read.listenerClass(className)
    if (Option.isNone(rawClass)) return undefined
    const listenerClass = yield* decodeClass(rawClass.value, { name: className })
    const pod = { metadata: { name: "", namespace: listenerRef.namespace }, spec: { nodeName } }
    return yield* addressesForPod(listener, listenerClass, pod).pipe(
      // The Node from the same source as the Listener (addressesForPod reads it through the
      // caches, or the API without them).
      Effect.provideService(NodeView, yield* NodeView)
    )
  }).pipe(
    // Not ready, gone, or unreadable right now: keep what the volume has.
    Effect.catch((error: { readonly message: string } | KubeApiError) =>
      Effect.as(Effect.logDebug(`address refresh of Listener ${listenerRef.namespace}/${listenerRef.name} skipped: ${error.message}`), undefined)
    )
  )

type TargetRefresh = "republished" | "forgotten" | "unchanged"
/** What a publish would give the volume now (scope and addresses), as `addressesForPod` computes it. */
type CurrentAddresses = Effect.Success<ReturnType<typeof addressesForPod>>

/**
 * The re-publish of a volume our publish recorded. Everything a publish established — the
 * PV bound to its claim, the Listener, the labels, the Pod's volume name — holds for the
 * life of the volume (a PV in use cannot be deleted, a Pod's volumes and node cannot
 * change), so what changes on a new address is only the Pod's PodListeners entry and the
 * tree: 2 requests per volume (GET Pod, PATCH PodListeners) instead of a publish's 5. The
 * Pod is read fresh: one replaced under the same name, or on its way out, is not refreshed.
 * The tree the record's addresses gave is handed to writeVolumeTree, which then need not
 * read the live tree back to see that it changes.
 */
const rewriteAddresses = Effect.fn("rewriteAddresses")(function*(
  record: PublishedRecord,
  podVolume: NonNullable<PublishedRecord["podVolume"]>,
  addresses: ReadonlyArray<ListenerIngress>
) {
  const { request, listener } = record
  const pod = yield* loadPodLiveness(request.pod)
  const podUid = yield* livePodUid(request, pod)
  const tree = yield* planTreeOf(listener, addresses)
  // Published by an older version (no mark, so its PodListeners is not bound yet): mark it now.
  const nodeName = pod.spec?.nodeName
  if (nodeName !== undefined && nodeName !== "") {
    yield* ensureLabels("mark Pod", Kinds.Pod, { namespace: request.pod.namespace, name: pod.metadata.name }, pod.metadata.labels, { [NODE_PUBLISHED_LABEL]: nodeName })
  }
  const written = planVolumeTree(record.addresses)
  yield* mergePodListenerEntry(request.pod.namespace, podUid, podVolume.name, { scope: podVolume.scope, ingressAddresses: addresses })
  yield* writeVolumeTree(request.targetPath, tree.entries, written instanceof UnsafeVolumeEntry ? undefined : written.entries)
  return { podVolumeName: podVolume.name, scope: podVolume.scope, addresses }
})

/**
 * Only the PodListeners entry and the tree when the record knows the Pod's volume and the
 * scope stays (`rewriteAddresses`); else — a record found on disk, a Listener whose class
 * changed its scope, a PodListeners object someone deleted — the whole publish, which
 * re-creates what is missing.
 */
const republish = (record: PublishedRecord, current: CurrentAddresses) => {
  const podVolume = record.podVolume
  if (podVolume === undefined || podVolume.scope !== current.scope) return publishVolume(record.request)
  return rewriteAddresses(record, podVolume, current.addresses).pipe(
    Effect.catchIf(
      // Gone, or not bound to this node yet (the policy's 403): the publish waits for the binder.
      (error) => error._tag === "VolumeApiStepFailed" && error.kind === Kinds.PodListeners.kind && (error.cause.reason === "NotFound" || error.cause.reason === "Forbidden"),
      () => publishVolume(record.request)
    )
  )
}

/**
 * A re-publish that met transient API trouble — the API server closing a keep-alive socket
 * under the request, overload — is tried again soon, under the same lock. Without this the
 * volume waited for the next change or the safety resync: one volume of 200 in the scale
 * benchmark got its address after 31.9 s instead of ~2 s (issue 30). Every step converges
 * (a GET, a merge patch of the same entry, a tree that is left alone when identical), so
 * a repeat is safe; three repeats within ~2 s, then the next pass.
 */
const TRANSIENT_RETRY = Schedule.exponential("250 millis").pipe(Schedule.jittered, Schedule.upTo({ times: 3 }))

/**
 * Re-publish one target whose addresses look stale, holding its lock (TargetLocks.ts) so
 * that no NodePublishVolume or NodeUnpublishVolume of the kubelet runs meanwhile. The
 * record is read again under the lock: one that is gone was unpublished since the pass
 * began — its target must stay gone — and one that already holds `addresses` was
 * re-published by the kubelet meanwhile.
 */
const refreshTarget = (targetPath: string, current: CurrentAddresses) =>
  Effect.gen(function*() {
    const registry = yield* PublishedVolumes
    const record = yield* registry.get(targetPath)
    if (record === undefined || jsonEquals(record.addresses, current.addresses)) return "unchanged" as const
    const outcome = yield* Effect.result(republish(record, current).pipe(Effect.retry({
      schedule: TRANSIENT_RETRY,
      while: (error) => error._tag === "VolumeApiStepFailed" && isTransientReason(error.cause.reason)
    })))
    if (outcome._tag === "Success") {
      const { addresses, podVolumeName, scope } = outcome.success
      yield* registry.record({ ...record, addresses, podVolume: { name: podVolumeName, scope } })
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

/** How many targets one pass re-publishes at once. */
const REPUBLISH_CONCURRENCY = 8

/** Which volumes a pass checks: all, or those of the Listeners named `namespace/name`. */
export type RefreshScope = "all" | ReadonlySet<string>

const listenerKey = (listener: PublishedRecord["listener"]): string => `${listener.namespace}/${listener.name}`

/** The volumes a batch of changes can touch: a Listener's own, or all for a class or the Node. */
export const scopeOfChanges = (changes: ReadonlyArray<NodeViewChange>): RefreshScope => {
  const keys = new Set<string>()
  for (const change of changes) {
    if (change._tag !== "Listener") return "all"
    keys.add(listenerKey(change))
  }
  return keys
}

/**
 * One pass over the published volumes of this node (of `scope`). `relabelled` remembers the
 * Listeners whose missing node label a pass restored once (see `runAddressRefresh`).
 */
export const refreshPublishedVolumes = (
  nodeName: string,
  scope: RefreshScope = "all",
  relabelled?: Set<string>
): Effect.Effect<RefreshOutcome, never, KubeApi | VolumeFs | EventRecorder | PublishedVolumes | TargetLocks> =>
  Effect.gen(function*() {
    const registry = yield* PublishedVolumes
    const locks = yield* TargetLocks
    const view = yield* NodeView
    const read = yield* readers
    const records = (yield* registry.all).filter((record) => scope === "all" || scope.has(listenerKey(record.listener)))
    const byListener = new Map<string, Array<PublishedRecord>>()
    for (const record of records) {
      const key = listenerKey(record.listener)
      byListener.set(key, [...(byListener.get(key) ?? []), record])
    }
    const stale: Array<{ readonly record: PublishedRecord; readonly current: CurrentAddresses }> = []
    for (const [key, group] of byListener) {
      const current = yield* currentAddresses(read, group[0]!.listener, nodeName)
      if (current === "missing") {
        // Published here, yet not in this node's Listener cache: gone, or its node label was
        // removed by an unpublish that raced a publish of another of its volumes. Restored
        // once (a merge patch; none if the Listener is gone), so the watch reports it again.
        if (read.cached && relabelled !== undefined && !relabelled.has(key) && (yield* view.listenersReady)) {
          relabelled.add(key)
          yield* relabelListener(group[0]!.listener)
        }
        continue
      }
      relabelled?.delete(key)
      if (current === undefined || current.addresses.length === 0) continue
      for (const record of group) if (!jsonEquals(record.addresses, current.addresses)) stale.push({ record, current })
    }
    // Several targets at once, each under its own lock: a Node's new address touches every
    // NodePort volume of the node, and each re-publish waits on API round trips.
    const outcomes = yield* Effect.forEach(
      stale,
      ({ current, record }) => locks.withTarget(record.request.targetPath)(refreshTarget(record.request.targetPath, current)),
      { concurrency: REPUBLISH_CONCURRENCY }
    )
    const republished = outcomes.filter((done: TargetRefresh) => done === "republished").length
    const forgotten = outcomes.filter((done: TargetRefresh) => done === "forgotten").length
    return { checked: records.length, republished, forgotten }
  })

/**
 * The node role's refresh loop: a pass for each batch of cache changes (scoped to what they
 * can touch), and a pass over everything after `resyncInterval` without one — served from
 * the caches, so it costs the API server nothing either (0: no resync). Never ends.
 */
export const runAddressRefresh = (
  nodeName: string,
  resyncInterval: Duration.Input
): Effect.Effect<never, never, KubeApi | VolumeFs | EventRecorder | PublishedVolumes | TargetLocks> =>
  Effect.gen(function*() {
    const view = yield* NodeView
    const resync = Duration.fromInputUnsafe(resyncInterval)
    const relabelled = new Set<string>()
    for (;;) {
      const changes = Duration.isPositive(resync)
        ? yield* Effect.timeoutOption(view.nextChanges, resync)
        : Option.some(yield* view.nextChanges)
      const scope = Option.isNone(changes) ? "all" : scopeOfChanges(changes.value)
      const outcome = yield* refreshPublishedVolumes(nodeName, scope, relabelled)
      yield* recordRefresh(outcome)
      if (outcome.republished > 0 || outcome.forgotten > 0) {
        yield* Effect.logDebug(`address refresh: ${outcome.republished} re-published, ${outcome.forgotten} forgotten of ${outcome.checked} checked`)
      }
    }
  })
