/**
 * The volume binder's reconcile of one Pod the node plugin marked as published on its node
 * (`NODE_PUBLISHED_LABEL`): the objects that node's plugin will update are bound to the Pod's
 * node (`BOUND_NODE_LABEL`, domain/volumeBinding.ts) — by the controller, which learns the
 * node from the Pod itself, never by the first writer (a node could otherwise create another
 * node's objects first). The node plugin may not create them at all.
 *
 * - PodListeners `pod-<uid>`: created (owned by the Pod, no entries) bound to the Pod's node;
 *   one that exists unbound (the upstream operator's, an older version's) gets the label.
 * - The per-volume Listener of each claim the Pod mounts whose PV is ours and listener-class:
 *   created (named after the claim, owned by the PV, the claim's labels, ports from the Pod's
 *   containers) bound to the node of the newest live Pod mounting the claim; re-bound when
 *   that Pod is on another node (a StatefulSet replica rescheduled), or taken over unbound.
 * - The Pod's mount labels (domain/mountLabels.ts): one per Listener it mounts — those per-volume
 *   Listeners, and the shared Listener each of its volumes of our driver names — in one patch,
 *   only when one is missing. The node plugin may not set them (the admission policy).
 *
 * Reads come from the binder's caches (k8s/volumeBinder.ts), which hold only bound objects:
 * an object already bound right costs nothing, so a restart writes nothing.
 */
import { Effect, Option } from "effect"
import { BOUND_NODE_LABEL, CSI_DRIVER_NAME, podListenersName, VOLUME_BINDER_FIELD_MANAGER } from "../../domain/constants.ts"
import { Kinds } from "../../domain/kinds.ts"
import { missingMountLabels, sharedListenerNameOf } from "../../domain/mountLabels.ts"
import type { MountedListener } from "../../domain/mountLabels.ts"
import { isPublishedOnNodeLabel, PUBLISHED_ON_NODE_VALUE, publishedOnNodeLabel } from "../../domain/publishedOnNode.ts"
import {
  bindingPodOf,
  boundNodeOf,
  boundPerVolumeListener,
  boundPodListeners,
  claimNamesOf,
  formerPerVolumeListener,
  listenerPortsOf,
  perVolumeClassOf,
  perVolumeListenerBound,
  perVolumeOwner,
  perVolumeSpecMatches
} from "../../domain/volumeBinding.ts"
import type { BindingPod, ListenerPort } from "../../domain/volumeBinding.ts"
import { getOption, KubeApi } from "../shared/KubeApi.ts"
import type { KubeApiError, KubeObject } from "../shared/KubeApi.ts"

/** What the reconcile reads: the binder's caches (k8s/volumeBinder.ts). */
export interface BinderView {
  /** The PodListeners, if it is cached bound (any node). */
  boundPodListeners(namespace: string, name: string): Effect.Effect<Option.Option<KubeObject>>
  /** The Listener, if it is cached bound (any node). */
  boundListener(namespace: string, name: string): Effect.Effect<Option.Option<KubeObject>>
  /** The Listener, bound or not (a shared Listener's uid, for its mount label). */
  listener(namespace: string, name: string): Effect.Effect<Option.Option<KubeObject>>
  /** Listener-labelled PVs whose claimRef is `namespace/claim`. */
  volumesOfClaim(namespace: string, claim: string): Effect.Effect<ReadonlyArray<KubeObject>>
  /** Marked Pods mounting `namespace/claim`. */
  podsOfClaim(namespace: string, claim: string): Effect.Effect<ReadonlyArray<KubeObject>>
  /** Puts an object a write returned into its cache. */
  written(object: KubeObject): Effect.Effect<void>
}

/** What one reconcile wrote, for logs and tests. */
export interface BindOutcome {
  readonly podListeners: "bound" | "created" | "rebound"
  readonly listeners: ReadonlyArray<{ readonly name: string; readonly outcome: "bound" | "created" | "rebound" | "foreign" }>
  /** The mount labels the Pod was patched with; undefined when it carried them all (no write). */
  readonly mountLabels: Readonly<Record<string, string>> | undefined
}

const merge = { type: "merge" as const, fieldManager: VOLUME_BINDER_FIELD_MANAGER }

/** `pod-<uid>` of a marked Pod, bound to `nodeName`. */
const bindPodListeners = (view: BinderView, pod: { namespace: string; name: string; uid: string }, nodeName: string) =>
  Effect.gen(function*() {
    const api = yield* KubeApi
    const name = podListenersName(pod.uid)
    const cached = yield* view.boundPodListeners(pod.namespace, name)
    if (Option.isSome(cached) && boundNodeOf(cached.value) === nodeName) return "bound" as const
    // Not cached bound: missing, or unbound (upstream's, an older version's). Create; if it
    // exists, bind it. A Pod never moves, so a binding to another node is only ever a forgery
    // attempt's leftover — the Pod's own node wins.
    const created = yield* Effect.result(api.create(Kinds.PodListeners, boundPodListeners(pod, nodeName), { fieldManager: VOLUME_BINDER_FIELD_MANAGER }))
    if (created._tag === "Success") {
      yield* view.written(created.success)
      return "created" as const
    }
    if (created.failure.reason !== "AlreadyExists") return yield* Effect.fail(created.failure)
    const patched = yield* api.patch(Kinds.PodListeners, { namespace: pod.namespace, name }, { metadata: { labels: { [BOUND_NODE_LABEL]: nodeName } } }, merge)
    yield* view.written(patched)
    return "rebound" as const
  })

/** The labels that re-bind a Listener to `nodeName`: the binding, this node's published-on label, no other node's. */
const rebindLabels = (live: KubeObject, nodeName: string): Record<string, string | null> => {
  const own = publishedOnNodeLabel(nodeName)
  const stale = Object.keys(live.metadata.labels ?? {}).filter((key) => isPublishedOnNodeLabel(key) && key !== own)
  return { ...Object.fromEntries(stale.map((key) => [key, null])), [own]: PUBLISHED_ON_NODE_VALUE, [BOUND_NODE_LABEL]: nodeName }
}

/** The per-volume Listener `namespace/claim` of PV `pv`, bound to `nodeName`. */
const bindListener = (
  view: BinderView,
  args: {
    namespace: string
    claim: string
    className: string
    pv: { name: string; uid: string }
    ports: ReadonlyArray<ListenerPort>
    nodeName: string
    podOwnerUids: ReadonlyArray<string>
  }
) =>
  Effect.gen(function*() {
    const api = yield* KubeApi
    const ref = { namespace: args.namespace, name: args.claim }
    const wanted = { pvUid: args.pv.uid, className: args.className, ports: args.ports, nodeName: args.nodeName }
    const cached = yield* view.boundListener(args.namespace, args.claim)
    if (Option.isSome(cached) && perVolumeListenerBound(cached.value, wanted)) return { outcome: "bound" as const, listener: cached.value }
    let live = cached
    if (Option.isNone(live)) {
      // Missing (a new volume), or unbound: create it as the node plugin used to, with the
      // claim's labels; if it exists, it is bound below.
      const claim = yield* getOption(api.get(Kinds.PersistentVolumeClaim, ref))
      const labels = Option.isSome(claim) ? claim.value.metadata.labels ?? {} : {}
      const desired = boundPerVolumeListener({ ...args, name: args.claim, labels })
      const created = yield* Effect.result(api.create(Kinds.Listener, desired, { fieldManager: VOLUME_BINDER_FIELD_MANAGER }))
      if (created._tag === "Success") {
        yield* view.written(created.success)
        return { outcome: "created" as const, listener: created.success }
      }
      if (created.failure.reason !== "AlreadyExists") return yield* Effect.fail(created.failure)
      live = yield* getOption(api.get(Kinds.Listener, ref))
      if (Option.isNone(live)) return yield* Effect.fail(created.failure)
    }
    // A Listener of the claim's name that the volume does not own: the claim's former
    // volume's, or one kept through a node loss, is adopted (the owner reference added, as
    // the node plugin's apply did); anyone else's is never bound.
    const owners = live.value.metadata.ownerReferences ?? []
    const ownedByVolume = owners.some((owner) => owner.kind === "PersistentVolume" && owner.uid === args.pv.uid)
    if (!ownedByVolume && !formerPerVolumeListener(live.value, args.podOwnerUids)) {
      yield* Effect.logWarning(
        `Listener ${args.namespace}/${args.claim} is not owned by PersistentVolume ${args.pv.name}, whose per-volume Listener it would be: not bound; ` +
          `the volume's publish waits until it is deleted (the node plugin of node ${args.nodeName} may not write it)`
      )
      return { outcome: "foreign" as const, listener: undefined }
    }
    const desiredSpec = boundPerVolumeListener({ ...args, name: args.claim, labels: {} }).spec
    const specPatch = perVolumeSpecMatches(live.value, wanted) ? {} : { spec: desiredSpec }
    const adoption = ownedByVolume ? {} : { ownerReferences: [...owners, perVolumeOwner(args.pv)] }
    const patched = yield* api.patch(Kinds.Listener, ref, {
      metadata: { labels: rebindLabels(live.value, args.nodeName), ...adoption },
      ...specPatch
    }, merge)
    yield* view.written(patched)
    return { outcome: "rebound" as const, listener: patched }
  })

/** The Listener as a mount label names it (a Listener the API returned always has a uid). */
const mountedOf = (listener: KubeObject | undefined): ReadonlyArray<MountedListener> =>
  listener?.metadata.uid !== undefined && listener.metadata.name !== undefined ? [{ name: listener.metadata.name, uid: listener.metadata.uid }] : []

/**
 * The mount labels of the Listeners the Pod mounts, in one merge patch of just the missing
 * keys (other labels stay), and none when it carries them all. Set here and not by the
 * node plugin (the admission policy refuses it): the Service selects by them.
 */
const labelPod = (pod: { namespace: string; name: string }, labels: Readonly<Record<string, string>> | undefined, mounted: ReadonlyArray<MountedListener>) =>
  Effect.gen(function*() {
    const missing = missingMountLabels(labels, mounted)
    if (missing === undefined) return undefined
    const api = yield* KubeApi
    yield* api.patch(Kinds.Pod, pod, { metadata: { labels: missing } }, merge)
    return missing
  })

/** One marked Pod (as cached). */
export const bindPodVolumes = (view: BinderView, object: KubeObject): Effect.Effect<BindOutcome | undefined, KubeApiError, KubeApi> =>
  Effect.gen(function*() {
    const pod = object as unknown as BindingPod
    const namespace = pod.metadata.namespace ?? ""
    const name = pod.metadata.name ?? ""
    const uid = pod.metadata.uid ?? ""
    const nodeName = pod.spec?.nodeName ?? ""
    // A Pod on its way out publishes nothing more; an unscheduled one has no node to bind to.
    if (pod.metadata.deletionTimestamp !== undefined || nodeName === "" || uid === "") return undefined
    const listeners: Array<BindOutcome["listeners"][number]> = []
    const mounted: Array<MountedListener> = []
    for (const claim of claimNamesOf(pod)) {
      const volumes = yield* view.volumesOfClaim(namespace, claim)
      // A shared Listener (listener-name): its mount label, if the Listener exists in the
      // Pod's namespace (its creation maps back to this Pod, k8s/volumeBinder.ts).
      for (const candidate of volumes) {
        const shared = sharedListenerNameOf(candidate, CSI_DRIVER_NAME, { namespace, name: claim })
        if (shared !== undefined) mounted.push(...mountedOf(Option.getOrUndefined(yield* view.listener(namespace, shared))))
      }
      const pv = volumes.find((candidate) => perVolumeClassOf(candidate, CSI_DRIVER_NAME, { namespace, name: claim }) !== undefined)
      // Not ours, shared, or not labelled by the node plugin yet (the PV's watch event maps
      // back to this Pod when it is).
      if (pv === undefined || pv.metadata.uid === undefined) continue
      const className = perVolumeClassOf(pv, CSI_DRIVER_NAME, { namespace, name: claim })!
      // Several Pods may mount the claim (a replaced replica still listed): the newest live one decides.
      const binding = bindingPodOf((yield* view.podsOfClaim(namespace, claim)) as unknown as ReadonlyArray<BindingPod>)
      if (binding !== undefined && binding.metadata.uid !== uid) continue
      const bound = yield* bindListener(view, {
        namespace,
        claim,
        className,
        pv: { name: pv.metadata.name ?? "", uid: pv.metadata.uid },
        ports: listenerPortsOf(pod),
        nodeName,
        podOwnerUids: (pod.metadata.ownerReferences ?? []).map((owner) => owner.uid)
      })
      listeners.push({ name: claim, outcome: bound.outcome })
      mounted.push(...mountedOf(bound.listener))
    }
    // The mount labels before the PodListeners: a publish that finds its PodListeners bound
    // finds the Pod in its Listeners' Services too (when both come from this reconcile).
    const mountLabels = yield* labelPod({ namespace, name }, pod.metadata.labels, mounted)
    const podListeners = yield* bindPodListeners(view, { namespace, name, uid }, nodeName)
    const outcome: BindOutcome = { podListeners, listeners, mountLabels }
    if (podListeners !== "bound" || mountLabels !== undefined || listeners.some((l) => l.outcome !== "bound")) {
      yield* Effect.logDebug(`bound the listener objects of Pod ${namespace}/${name} to node ${nodeName}`, outcome)
    }
    return outcome
  })
