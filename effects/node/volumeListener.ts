/**
 * The Listener behind a listener volume (spec §4 step 2): the named one, or — for a
 * listener-class volume — a Listener per volume, named after the PVC and owned by the PV,
 * which the controller's volume binder creates and binds to the Pod's node
 * (effects/controller/bindPodVolumes.ts); the node plugin waits for it (awaitBinding.ts).
 */
import { Effect, Option } from "effect"
import { FieldManagers, listenerNameProblem } from "../../domain/constants.ts"
import { PUBLISHED_ON_NODE_VALUE, publishedOnNodeLabel } from "../../domain/publishedOnNode.ts"
import type { PersistentVolume } from "../../domain/core/persistentVolume.ts"
import type { Pod } from "../../domain/core/pod.ts"
import { Kinds } from "../../domain/kinds.ts"
import { Listener } from "../../domain/listener.ts"
import { getOption, KubeApi } from "../shared/KubeApi.ts"
import type { KubeObject } from "../shared/KubeApi.ts"
import type { ListenerSelection } from "../shared/listenerSelection.ts"
import { NodeView } from "./NodeView.ts"
import { PodNotScheduled, VolumeObjectInvalid } from "../shared/volumeErrors.ts"
import { awaitBound } from "./awaitBinding.ts"
import { apiStepFailed, decodeObject } from "../shared/volumeObjects.ts"

const decodeListener = decodeObject(Kinds.Listener, Listener)

/** spec §4 step 2: one Listener port per port of the Pod's (non-init) containers (what the binder applies). */
export { listenerPortsOf } from "../../domain/volumeBinding.ts"

/** The volume's Listener: loaded (listener-name) or created/updated per volume (listener-class). */
export const findOrApplyListener = Effect.fn("findOrApplyListener")(function*(
  selection: ListenerSelection,
  pod: Pod,
  namespace: string,
  pvc: { readonly name: string; readonly labels: Readonly<Record<string, string>> },
  pv: PersistentVolume
) {
  // Refused before any write: the name becomes label values (PV, Pod) that cannot hold it.
  const listenerName = selection._tag === "ListenerName" ? selection.listenerName : pvc.name
  const nameProblem = listenerNameProblem(listenerName)
  if (nameProblem !== undefined) {
    return yield* new VolumeObjectInvalid({ kind: Kinds.Listener.kind, namespace, name: listenerName, problem: `its name ${nameProblem}` })
  }
  const view = yield* NodeView
  // The label that puts the Listener into this node's watch (domain/publishedOnNode.ts).
  const nodeLabel = view.nodeName === undefined ? {} : { [publishedOnNodeLabel(view.nodeName)]: PUBLISHED_ON_NODE_VALUE }
  if (selection._tag === "ListenerName") return yield* sharedListener({ namespace, name: selection.listenerName }, nodeLabel)
  const pvUid = pv.metadata.uid
  if (pvUid === undefined) {
    return yield* new VolumeObjectInvalid({
      kind: Kinds.PersistentVolume.kind,
      name: pv.metadata.name,
      problem: "has no metadata.uid to own the Listener"
    })
  }
  const ref = { namespace, name: pvc.name }
  const nodeName = pod.spec?.nodeName
  if (nodeName === undefined || nodeName === "") return yield* new PodNotScheduled({ namespace, pod: pod.metadata.name })
  // Created and bound to this node by the controller's volume binder once the Pod is marked
  // (never by the node plugin: awaitBinding.ts). With this node's caches it appears in the
  // Listener watch (the binder puts this node's published-on label on it); without, it is read.
  const api = yield* KubeApi
  const read = view.nodeName !== undefined
    ? Effect.suspend(() => view.listener(ref))
    : Effect.mapError(getOption(api.get(Kinds.Listener, ref)), apiStepFailed("load Listener", Kinds.Listener, ref))
  const owned = (object: KubeObject) => (object.metadata.ownerReferences ?? []).some((owner) => owner.kind === Kinds.PersistentVolume.kind && owner.uid === pvUid)
  const bound = yield* awaitBound({ kind: Kinds.Listener.kind, namespace, name: pvc.name, nodeName }, read, owned)
  return yield* decodeListener(bound, ref)
})

/**
 * A Listener named by the volume (listener-name), from this node's cache or else the API,
 * with this node's label added by a merge patch of that one key when it lacks it (other
 * nodes' keys and every other label stay). Before the cache has been listed a miss may just
 * be "not listed yet", so the Listener is read first; after, a miss means "not labelled for
 * this node" and the patch both labels it and returns it (404 when there is none).
 */
const sharedListener = Effect.fn("sharedListener")(function*(
  ref: { readonly namespace: string; readonly name: string },
  nodeLabel: Readonly<Record<string, string>>
) {
  const api = yield* KubeApi
  const view = yield* NodeView
  const cached = yield* view.listener(ref)
  const labelled = (object: KubeObject) => Object.entries(nodeLabel).every(([key, value]) => object.metadata.labels?.[key] === value)
  if (Option.isSome(cached) && labelled(cached.value)) return yield* decodeListener(cached.value, ref)
  const live = Option.isSome(cached) || (yield* view.listenersReady)
    ? cached
    : Option.some(yield* Effect.mapError(api.get(Kinds.Listener, ref), apiStepFailed("load Listener", Kinds.Listener, ref)))
  if (Option.isSome(live) && labelled(live.value)) {
    yield* view.written(live.value)
    return yield* decodeListener(live.value, ref)
  }
  const patched = yield* Effect.mapError(
    api.patch(Kinds.Listener, ref, { metadata: { labels: nodeLabel } }, { type: "merge", fieldManager: FieldManagers.csiNode }),
    apiStepFailed("load Listener", Kinds.Listener, ref)
  )
  yield* view.written(patched)
  return yield* decodeListener(patched, ref)
})
