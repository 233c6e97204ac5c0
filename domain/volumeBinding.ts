/**
 * Binding the objects a node plugin writes to that node (docs/security.md, issue 27): every
 * PodListeners and every per-volume Listener carries `BOUND_NODE_LABEL` = the node whose
 * plugin may update it. The controller's volume binder (effects/controller/bindPodVolumes.ts)
 * decides it from the Pods the node plugins mark (`NODE_PUBLISHED_LABEL`); the node admission
 * policy compares it with the writer's node, one label against one user-info value, whatever
 * the size of the namespace or the cluster's storage.
 *
 * Pure: what the bound objects look like, and when one is already right (no write).
 */
import {
  BOUND_NODE_LABEL,
  LISTENER_API_VERSION,
  PVC_ANNOTATION_LISTENER_CLASS,
  PVC_ANNOTATION_LISTENER_NAME,
  podListenersName
} from "./constants.ts"
import { jsonEquals } from "./listenerPlan/json.ts"
import { PUBLISHED_ON_NODE_VALUE, publishedOnNodeLabel } from "./publishedOnNode.ts"

/** The parts of a Pod the binder and the per-volume Listener read. */
export interface BindingPod {
  readonly metadata: {
    readonly name?: string | undefined
    readonly namespace?: string | undefined
    readonly uid?: string | undefined
    readonly creationTimestamp?: string | undefined
    readonly deletionTimestamp?: string | undefined
    readonly labels?: Readonly<Record<string, string>> | undefined
    readonly ownerReferences?: ReadonlyArray<{ readonly uid: string }> | undefined
  }
  readonly spec?: {
    readonly nodeName?: string | undefined
    readonly containers?: ReadonlyArray<{ readonly ports?: ReadonlyArray<{ readonly name?: string | undefined; readonly containerPort: number; readonly protocol?: string | undefined }> | undefined }> | undefined
    readonly volumes?: ReadonlyArray<{
      readonly name: string
      readonly persistentVolumeClaim?: { readonly claimName: string } | undefined
      readonly ephemeral?: unknown
    }> | undefined
  } | undefined
}

/** An object as the API returns it, as far as the binding reads it. */
export interface BindingObject {
  readonly metadata: {
    readonly name?: string | undefined
    readonly labels?: Readonly<Record<string, string>> | undefined
    readonly ownerReferences?: ReadonlyArray<{ readonly kind: string; readonly uid: string }> | undefined
  }
  readonly [key: string]: unknown
}

export type ListenerPort = { name: string; port: number; protocol?: string }

/** spec §4 step 2: one Listener port per port of the Pod's (non-init) containers. */
export const listenerPortsOf = (pod: BindingPod): ReadonlyArray<ListenerPort> => {
  const seen = new Set<string>()
  const ports: Array<ListenerPort> = []
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

/** The PVC names a Pod mounts: its claims, and the `<pod>-<volume>` claims of its generic ephemeral volumes. */
export const claimNamesOf = (pod: BindingPod): ReadonlyArray<string> =>
  (pod.spec?.volumes ?? []).flatMap((volume) =>
    volume.persistentVolumeClaim !== undefined
      ? [volume.persistentVolumeClaim.claimName]
      : volume.ephemeral !== undefined && pod.metadata.name !== undefined
      ? [`${pod.metadata.name}-${volume.name}`]
      : []
  )

/** The node an object is bound to; undefined when it carries no binding (upstream's, an older version's). */
export const boundNodeOf = (object: BindingObject | undefined): string | undefined => object?.metadata.labels?.[BOUND_NODE_LABEL]

/** The PodListeners `pod-<uid>` the binder creates: owned by the Pod (as the node plugin made it), bound, no entries yet. */
export const boundPodListeners = (pod: { readonly namespace: string; readonly name: string; readonly uid: string }, nodeName: string) => ({
  apiVersion: LISTENER_API_VERSION,
  kind: "PodListeners",
  metadata: {
    name: podListenersName(pod.uid),
    namespace: pod.namespace,
    labels: { [BOUND_NODE_LABEL]: nodeName },
    ownerReferences: [{ apiVersion: "v1", kind: "Pod", name: pod.name, uid: pod.uid }]
  },
  spec: { listeners: {} }
})

/** The volume attributes of `pv` if it is `driver`'s and bound to `claim`; undefined otherwise. */
export const claimedVolumeAttributes = (
  pv: { readonly [key: string]: unknown },
  driver: string,
  claim: { readonly namespace: string; readonly name: string }
): Readonly<Record<string, unknown>> | undefined => {
  const spec = (pv["spec"] ?? {}) as {
    csi?: { driver?: unknown; volumeAttributes?: Record<string, unknown> }
    claimRef?: { namespace?: unknown; name?: unknown }
  }
  if (spec.csi?.driver !== driver) return undefined
  if (spec.claimRef?.namespace !== claim.namespace || spec.claimRef?.name !== claim.name) return undefined
  return spec.csi.volumeAttributes ?? {}
}

/** The per-volume Listener's class, if `pv` is a volume of ours that gets one (listener-class, no listener-name) bound to `claim`. */
export const perVolumeClassOf = (
  pv: BindingObject,
  driver: string,
  claim: { readonly namespace: string; readonly name: string }
): string | undefined => {
  const attributes = claimedVolumeAttributes(pv, driver, claim)
  if (attributes === undefined || typeof attributes[PVC_ANNOTATION_LISTENER_NAME] === "string") return undefined
  const className = attributes[PVC_ANNOTATION_LISTENER_CLASS]
  return typeof className === "string" && className !== "" ? className : undefined
}

/**
 * The per-volume Listener of a listener-class volume, as the binder server-side applies it:
 * named after the claim, owned by the PV (plain owner: it lives exactly as long as the
 * volume), the claim's labels, the label that puts it into the node's watch, bound to the node.
 */
export const boundPerVolumeListener = (args: {
  readonly namespace: string
  readonly name: string
  readonly className: string
  readonly labels: Readonly<Record<string, string>>
  readonly pv: { readonly name: string; readonly uid: string }
  readonly ports: ReadonlyArray<ListenerPort>
  readonly nodeName: string
}) => ({
  apiVersion: LISTENER_API_VERSION,
  kind: "Listener",
  metadata: {
    name: args.name,
    namespace: args.namespace,
    labels: { ...args.labels, [publishedOnNodeLabel(args.nodeName)]: PUBLISHED_ON_NODE_VALUE, [BOUND_NODE_LABEL]: args.nodeName },
    ownerReferences: [perVolumeOwner(args.pv)]
  },
  spec: { className: args.className, ports: args.ports.map((port) => ({ ...port })), publishNotReadyAddresses: true }
})

const normalisedPorts = (ports: unknown): unknown =>
  Array.isArray(ports)
    ? ports.map((port: { name?: unknown; port?: unknown; protocol?: unknown }) => ({ name: port.name, port: port.port, protocol: port.protocol ?? "TCP" }))
    : ports

/** Whether the live per-volume Listener's class, ports and publishNotReadyAddresses are what the binder would apply. */
export const perVolumeSpecMatches = (live: BindingObject, wanted: { readonly className: string; readonly ports: ReadonlyArray<ListenerPort> }): boolean => {
  const spec = (live["spec"] ?? {}) as Record<string, unknown>
  return spec["className"] === wanted.className && spec["publishNotReadyAddresses"] === true &&
    jsonEquals(normalisedPorts(spec["ports"]), normalisedPorts(wanted.ports))
}

/**
 * Whether the live per-volume Listener is bound to `nodeName` with the PV's owner reference,
 * carries the node's published-on label, and its spec matches (`perVolumeSpecMatches`). Its
 * other labels (the claim's, at creation) are not compared: a restart must not rewrite
 * Listeners that are already bound, and the binder reads the claim only when it creates.
 */
export const perVolumeListenerBound = (
  live: BindingObject,
  wanted: { readonly pvUid: string; readonly className: string; readonly ports: ReadonlyArray<ListenerPort>; readonly nodeName: string }
): boolean =>
  boundNodeOf(live) === wanted.nodeName &&
  live.metadata.labels?.[publishedOnNodeLabel(wanted.nodeName)] === PUBLISHED_ON_NODE_VALUE &&
  (live.metadata.ownerReferences ?? []).some((ref) => ref.uid === wanted.pvUid && ref.kind === "PersistentVolume") &&
  perVolumeSpecMatches(live, wanted)

/**
 * Which of the live, scheduled Pods mounting one claim its per-volume Listener is bound to:
 * the newest (a StatefulSet's replacement on another node, while the old Pod is still
 * listed); ties by name, so every reconcile picks the same one. Pods being deleted are not
 * candidates.
 */
export const bindingPodOf = <P extends BindingPod>(pods: ReadonlyArray<P>): P | undefined => {
  const live = pods.filter((pod) => pod.metadata.deletionTimestamp === undefined && (pod.spec?.nodeName ?? "") !== "")
  return live.reduce<P | undefined>((best, pod) => {
    if (best === undefined) return pod
    const a = best.metadata.creationTimestamp ?? ""
    const b = pod.metadata.creationTimestamp ?? ""
    if (b !== a) return b > a ? pod : best
    return (pod.metadata.name ?? "") > (best.metadata.name ?? "") ? pod : best
  }, undefined)
}

/**
 * Whether a Listener named after a claim, not owned by the claim's current volume, is still
 * that claim's per-volume Listener: owned by a former volume (a PersistentVolume), or kept
 * through a node loss for the Pod's workload (effects/provisioner/releasePinnedVolume.ts
 * adds the workload as owner before it deletes the volume). A user's Listener is neither.
 */
export const formerPerVolumeListener = (live: BindingObject, podOwnerUids: ReadonlyArray<string>): boolean =>
  (live.metadata.ownerReferences ?? []).some((ref) => ref.kind === "PersistentVolume" || podOwnerUids.includes(ref.uid))

/** A per-volume Listener's owner: a plain one (not controller), so it lives exactly as long as the volume. */
export const perVolumeOwner = (pv: { readonly name: string; readonly uid: string }) => ({ apiVersion: "v1", kind: "PersistentVolume", name: pv.name, uid: pv.uid })
