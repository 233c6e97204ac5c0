/**
 * Every exact key of the wire contract in one place: API group, CSI driver and storage
 * class names, annotation/label/topology keys, CSI volume-context keys, field managers
 * and preset names (spec §2–§6). Other modules import these instead of spelling strings.
 */
import { LISTENER_GROUP, LISTENER_VERSION } from "./kinds.ts"

export { LISTENER_GROUP, LISTENER_VERSION } from "./kinds.ts"

/** `listeners.stackable.tech/v1alpha1`, the apiVersion of Listener, ListenerClass and PodListeners. */
export const LISTENER_API_VERSION = `${LISTENER_GROUP}/${LISTENER_VERSION}` as const

/** The CSI driver (plugin) name, also the provisioner of the storage class. */
export const CSI_DRIVER_NAME = "listeners.stackable.tech"

/** The StorageClass a listener PVC names in `spec.storageClassName`. */
export const STORAGE_CLASS_NAME = "listeners.stackable.tech"

/** PVC annotation: bind the volume to an existing Listener (shared exposure). */
export const PVC_ANNOTATION_LISTENER_NAME = "listeners.stackable.tech/listener-name"

/** PVC annotation: create a Listener of this ListenerClass per volume (per-replica exposure). */
export const PVC_ANNOTATION_LISTENER_CLASS = "listeners.stackable.tech/listener-class"

/** PV label: namespace of the Listener the volume is bound to. */
export const PV_LABEL_LISTENER_NAMESPACE = "listeners.stackable.tech/listener-namespace"

/** PV label: name of the Listener the volume is bound to. */
export const PV_LABEL_LISTENER_NAME = "listeners.stackable.tech/listener-name"

/** Topology key of a node (NodeGetInfo) and of a pinned volume's node affinity. */
export const TOPOLOGY_KEY_HOSTNAME = "listeners.stackable.tech/hostname"

/**
 * Prefix of the Pod label that the Listener's Service selects. Note the singular
 * `listener.` (not `listeners.`): it is the seeds' wire key.
 */
export const MOUNT_LABEL_PREFIX = "listener.stackable.tech/mnt."

/**
 * The mount label key for a Listener: the prefix plus the Listener's uid without dashes,
 * which keeps the name part (`mnt.` + 32 hex digits) under the 63-character limit.
 * The label's value is the Listener's name.
 */
export const mountLabelKey = (listenerUid: string): string => `${MOUNT_LABEL_PREFIX}${listenerUid.replaceAll("-", "")}`

/**
 * Label values are at most 63 characters. A Listener's name is a label value three times
 * over (the mount label, `app.kubernetes.io/instance`, the PV's listener-name label), so a
 * longer name — legal for the object itself — cannot be exposed; it is refused with this
 * reason rather than failing later at the API server.
 */
export const MAX_LABEL_VALUE_LENGTH = 63

export const listenerNameProblem = (name: string): string | undefined =>
  name.length > MAX_LABEL_VALUE_LENGTH
    ? `is ${name.length} characters long; a Listener's name is used as a label value, which is at most ${MAX_LABEL_VALUE_LENGTH}`
    : undefined

/** Operator labels put on every object created for a Listener. */
export const LABEL_APP_NAME = "app.kubernetes.io/name"
export const LABEL_APP_INSTANCE = "app.kubernetes.io/instance"
export const LABEL_APP_MANAGED_BY = "app.kubernetes.io/managed-by"
export const APP_NAME = "listener"
export const MANAGED_BY = "listeners.stackable.tech_listener"

/** The operator's own labels for the objects it creates for the Listener `listenerName`. */
export const operatorLabels = (listenerName: string): Readonly<Record<string, string>> => ({
  [LABEL_APP_NAME]: APP_NAME,
  [LABEL_APP_INSTANCE]: listenerName,
  [LABEL_APP_MANAGED_BY]: MANAGED_BY
})

/**
 * Keys of the CSI volume context / CreateVolume parameters set by the kubelet
 * (`podInfoOnMount: true`) and by the external provisioner (`--extra-create-metadata`).
 */
export const CsiContextKeys = {
  podName: "csi.storage.k8s.io/pod.name",
  podNamespace: "csi.storage.k8s.io/pod.namespace",
  podUid: "csi.storage.k8s.io/pod.uid",
  serviceAccountName: "csi.storage.k8s.io/serviceAccount.name",
  ephemeral: "csi.storage.k8s.io/ephemeral",
  pvcName: "csi.storage.k8s.io/pvc/name",
  pvcNamespace: "csi.storage.k8s.io/pvc/namespace",
  pvName: "csi.storage.k8s.io/pv/name"
} as const

/** Server-side apply field managers, one per writer so ownership stays apart. */
export const FieldManagers = {
  /** The Listener controller (Services, Listener status). */
  controller: "listeners.stackable.tech_listener",
  /** The CSI node plugin (per-volume Listeners, PodListeners, PV and Pod labels). */
  csiNode: "listeners.stackable.tech_csi-node",
  /** Preset ListenerClasses created at controller start. */
  presets: "listeners.stackable.tech_presets",
  /** The CRDs, kept current by the controller at start (k8s/crdSync.ts). */
  crds: "listeners.stackable.tech_crds"
} as const

/** Default Kubernetes cluster DNS domain (`KUBERNETES_CLUSTER_DOMAIN`). */
export const DEFAULT_CLUSTER_DOMAIN = "cluster.local"

/** ListenerClass presets (`LISTENER_CLASS_PRESET`), spec §5. */
export const LISTENER_CLASS_PRESETS = ["ephemeral-nodes", "stable-nodes", "none"] as const
export type ListenerClassPreset = (typeof LISTENER_CLASS_PRESETS)[number]
export const DEFAULT_LISTENER_CLASS_PRESET: ListenerClassPreset = "ephemeral-nodes"

/** PodListeners objects are named `pod-<pod uid>`. */
export const PODLISTENERS_NAME_PREFIX = "pod-"
export const podListenersName = (podUid: string): string => `${PODLISTENERS_NAME_PREFIX}${podUid}`

/**
 * Label on every PodListeners and every per-volume Listener: the node whose plugin may
 * update it (the node admission policy compares it with the writer's node, docs/security.md).
 * Only the controller's volume binder sets or changes it (effects/controller/bindPodVolumes.ts),
 * from the node of a Pod the node plugin marked with `NODE_PUBLISHED_LABEL`.
 */
export const BOUND_NODE_LABEL = "listeners.stackable.tech/bound-node"

/**
 * Pod label: the node plugin of this node published a listener volume of the Pod (its value
 * is the node's name, which the policy requires to be the writer's node and the Pod's
 * `spec.nodeName`). The controller's volume binder watches Pods carrying it.
 */
export const NODE_PUBLISHED_LABEL = "listeners.stackable.tech/node-published"

/** The field manager of the controller's volume binder (PodListeners and per-volume Listeners it creates or binds). */
export const VOLUME_BINDER_FIELD_MANAGER = "listeners.stackable.tech_volume-binder"
