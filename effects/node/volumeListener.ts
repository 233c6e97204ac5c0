/**
 * The Listener behind a listener volume (spec §4 step 2): the named one, or — for a
 * listener-class volume — a Listener per volume, named after the PVC and owned by the PV,
 * server-side applied by the node plugin when it is missing or out of date.
 */
import { Effect, Option } from "effect"
import { FieldManagers, LISTENER_API_VERSION, listenerNameProblem } from "../../domain/constants.ts"
import { PUBLISHED_ON_NODE_VALUE, publishedOnNodeLabel } from "../../domain/publishedOnNode.ts"
import type { PersistentVolume } from "../../domain/core/persistentVolume.ts"
import type { Pod } from "../../domain/core/pod.ts"
import { Kinds } from "../../domain/kinds.ts"
import { Listener } from "../../domain/listener.ts"
import { jsonEquals } from "../../domain/listenerPlan/json.ts"
import { getOption, KubeApi } from "../shared/KubeApi.ts"
import type { KubeObject } from "../shared/KubeApi.ts"
import type { ListenerSelection } from "../shared/listenerSelection.ts"
import { NodeView } from "./NodeView.ts"
import { VolumeObjectInvalid } from "../shared/volumeErrors.ts"
import { apiStepFailed, decodeObject } from "../shared/volumeObjects.ts"

const decodeListener = decodeObject(Kinds.Listener, Listener)

/** spec §4 step 2: one Listener port per port of the Pod's (non-init) containers. */
export const listenerPortsOf = (pod: Pod): ReadonlyArray<{ name: string; port: number; protocol?: string }> => {
  const seen = new Set<string>()
  const ports: Array<{ name: string; port: number; protocol?: string }> = []
  for (const container of pod.spec?.containers ?? []) {
    for (const port of container.ports ?? []) {
      const name = port.name ?? `port-${port.containerPort}`
      // Port names are the Listener's list-map key: a repeated name would be refused.
      if (seen.has(name)) continue
      seen.add(name)
      ports.push({ name, port: port.containerPort, ...(port.protocol !== undefined ? { protocol: port.protocol } : {}) })
    }
  }
  return ports
}

/** The per-volume Listener of a listener-class volume, as the object to server-side apply. */
export const perVolumeListener = (args: {
  readonly namespace: string
  readonly name: string
  readonly className: string
  readonly labels: Readonly<Record<string, string>>
  readonly pv: { readonly name: string; readonly uid: string }
  readonly pod: Pod
}): KubeObject => ({
  apiVersion: LISTENER_API_VERSION,
  kind: Kinds.Listener.kind,
  metadata: {
    name: args.name,
    namespace: args.namespace,
    labels: { ...args.labels },
    // Plain owner (not controller): the Listener lives exactly as long as the volume.
    ownerReferences: [{ apiVersion: "v1", kind: Kinds.PersistentVolume.kind, name: args.pv.name, uid: args.pv.uid }]
  },
  spec: { className: args.className, ports: listenerPortsOf(args.pod), publishNotReadyAddresses: true }
})

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
  const api = yield* KubeApi
  const ref = { namespace, name: pvc.name }
  const desired = perVolumeListener({
    namespace,
    name: pvc.name,
    className: selection.className,
    labels: { ...pvc.labels, ...nodeLabel },
    pv: { name: pv.metadata.name, uid: pvUid },
    pod
  })
  // Read first: re-publishing (kubelet retries, restarts) then writes nothing. With this
  // node's caches, a miss means the Listener is missing or lacks this node's label: either
  // way it is applied, without a GET.
  const cached = yield* view.listener(ref)
  const live = Option.isSome(cached) || view.nodeName !== undefined
    ? cached
    : yield* Effect.mapError(getOption(api.get(Kinds.Listener, ref)), apiStepFailed("load Listener", Kinds.Listener, ref))
  if (Option.isSome(live) && listenerUpToDate(live.value, desired)) return yield* decodeListener(live.value, ref)
  const applied = yield* Effect.mapError(
    api.apply(Kinds.Listener, desired, { fieldManager: FieldManagers.csiNode, force: true }),
    apiStepFailed("apply Listener", Kinds.Listener, ref)
  )
  yield* view.written(applied)
  return yield* decodeListener(applied, ref)
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

const normalisedPorts = (ports: unknown): unknown =>
  Array.isArray(ports)
    ? ports.map((port: { name?: unknown; port?: unknown; protocol?: unknown }) => ({
      name: port.name,
      port: port.port,
      protocol: port.protocol ?? "TCP"
    }))
    : ports

/**
 * Whether the live per-volume Listener already has everything `desired` applies: labels,
 * the PV owner reference, class, ports and publishNotReadyAddresses. Anything else (fields
 * other writers own, status) does not matter.
 */
export const listenerUpToDate = (live: KubeObject, desired: KubeObject): boolean => {
  const liveSpec = (live["spec"] ?? {}) as Record<string, unknown>
  const desiredSpec = desired["spec"] as Record<string, unknown>
  const owner = desired.metadata.ownerReferences?.[0]
  return jsonEquals(live.metadata.labels ?? {}, desired.metadata.labels ?? {}) &&
    (live.metadata.ownerReferences ?? []).some((ref) => ref.uid === owner?.uid && ref.kind === owner?.kind) &&
    liveSpec["className"] === desiredSpec["className"] &&
    liveSpec["publishNotReadyAddresses"] === desiredSpec["publishNotReadyAddresses"] &&
    jsonEquals(normalisedPorts(liveSpec["ports"]), normalisedPorts(desiredSpec["ports"]))
}

