/**
 * Resource descriptors: the group/version/kind/plural of every Kubernetes kind the
 * operator reads or writes. Adapters build request paths from these; programs name a
 * kind by its descriptor instead of by strings scattered through the code.
 */
export interface ResourceKind {
  readonly group: string // "" for the core group
  readonly version: string
  readonly kind: string
  readonly plural: string
  readonly namespaced: boolean
}

const kind = (group: string, version: string, kind: string, plural: string, namespaced: boolean): ResourceKind =>
  ({ group, version, kind, plural, namespaced })

export const apiVersionOf = (k: ResourceKind): string => (k.group === "" ? k.version : `${k.group}/${k.version}`)

/** `plural.group` (or just `plural` for the core group): the key the API server's metrics and RBAC use. */
export const resourceKeyOf = (k: ResourceKind): string => (k.group === "" ? k.plural : `${k.plural}.${k.group}`)

export const LISTENER_GROUP = "listeners.stackable.tech"
export const LISTENER_VERSION = "v1alpha1"

export const Kinds = {
  Listener: kind(LISTENER_GROUP, LISTENER_VERSION, "Listener", "listeners", true),
  ListenerClass: kind(LISTENER_GROUP, LISTENER_VERSION, "ListenerClass", "listenerclasses", false),
  PodListeners: kind(LISTENER_GROUP, LISTENER_VERSION, "PodListeners", "podlisteners", true),
  Service: kind("", "v1", "Service", "services", true),
  Node: kind("", "v1", "Node", "nodes", false),
  Pod: kind("", "v1", "Pod", "pods", true),
  Namespace: kind("", "v1", "Namespace", "namespaces", false),
  ConfigMap: kind("", "v1", "ConfigMap", "configmaps", true),
  PersistentVolume: kind("", "v1", "PersistentVolume", "persistentvolumes", false),
  PersistentVolumeClaim: kind("", "v1", "PersistentVolumeClaim", "persistentvolumeclaims", true),
  EndpointSlice: kind("discovery.k8s.io", "v1", "EndpointSlice", "endpointslices", true),
  Event: kind("events.k8s.io", "v1", "Event", "events", true),
  Lease: kind("coordination.k8s.io", "v1", "Lease", "leases", true),
  StorageClass: kind("storage.k8s.io", "v1", "StorageClass", "storageclasses", false),
  CSIDriver: kind("storage.k8s.io", "v1", "CSIDriver", "csidrivers", false),
  CSINode: kind("storage.k8s.io", "v1", "CSINode", "csinodes", false),
  CustomResourceDefinition: kind("apiextensions.k8s.io", "v1", "CustomResourceDefinition", "customresourcedefinitions", false)
} as const satisfies Record<string, ResourceKind>
