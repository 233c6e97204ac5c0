/**
 * The merge shapes of the kinds we use, as server-side apply sees them: which lists are
 * associative (merged item by item, keyed by some fields), which are sets, and which
 * maps or lists are atomic (replaced whole). Everything not described here merges like a
 * CRD field without list annotations: objects field by field, lists atomically.
 *
 * Sources: the `+listType`/`+listMapKey`/`+mapType` markers of k8s.io/api (core/v1,
 * discovery/v1) and the CRDs of this project (Listener `spec.ports` keyed by name).
 */

export interface ListKey {
  readonly name: string
  /** The schema default used when an item omits this key (e.g. `protocol: TCP`). */
  readonly default?: string | number | undefined
}

export type TypeDef =
  | { readonly kind: "object"; readonly fields?: Readonly<Record<string, TypeDef>>; readonly elem?: TypeDef }
  | { readonly kind: "atomic" }
  | { readonly kind: "listMap"; readonly keys: ReadonlyArray<ListKey>; readonly elem?: TypeDef }
  | { readonly kind: "set" }

const object = (fields: Readonly<Record<string, TypeDef>>, elem?: TypeDef): TypeDef =>
  elem === undefined ? { kind: "object", fields } : { kind: "object", fields, elem }
const atomic: TypeDef = { kind: "atomic" }
const set: TypeDef = { kind: "set" }
const listMap = (keys: ReadonlyArray<string | ListKey>, elem?: TypeDef): TypeDef => {
  const normalized = keys.map((k) => (typeof k === "string" ? { name: k } : k))
  return elem === undefined ? { kind: "listMap", keys: normalized } : { kind: "listMap", keys: normalized, elem }
}

/** The child type of `key` inside `type`; undefined means "deduced" (objects granular, lists atomic). */
export const childType = (type: TypeDef | undefined, key: string): TypeDef | undefined => {
  if (type === undefined || type.kind !== "object") return undefined
  return type.fields?.[key] ?? type.elem
}

export const itemType = (type: TypeDef | undefined): TypeDef | undefined =>
  type !== undefined && type.kind === "listMap" ? type.elem : undefined

const conditions = listMap(["type"])

const metadata = object({
  ownerReferences: listMap(["uid"]),
  finalizers: set,
  managedFields: atomic
})

const containerPort = listMap(["containerPort", { name: "protocol", default: "TCP" }])
const container = object({
  ports: containerPort,
  env: listMap(["name"]),
  volumeMounts: listMap(["mountPath"]),
  volumeDevices: listMap(["devicePath"]),
  resizePolicy: atomic,
  command: atomic,
  args: atomic
})

const pod = object({
  metadata,
  spec: object({
    containers: listMap(["name"], container),
    initContainers: listMap(["name"], container),
    ephemeralContainers: listMap(["name"], container),
    volumes: listMap(["name"]),
    imagePullSecrets: listMap(["name"]),
    hostAliases: listMap(["ip"]),
    topologySpreadConstraints: listMap(["topologyKey", "whenUnsatisfiable"]),
    nodeSelector: atomic,
    readinessGates: atomic,
    resourceClaims: listMap(["name"]),
    schedulingGates: listMap(["name"])
  }),
  status: object({
    conditions,
    podIPs: listMap(["ip"]),
    hostIPs: listMap(["ip"])
  })
})

const service = object({
  metadata,
  spec: object({
    ports: listMap(["port", { name: "protocol", default: "TCP" }]),
    selector: atomic,
    clusterIPs: atomic,
    ipFamilies: atomic,
    externalIPs: atomic,
    loadBalancerSourceRanges: atomic
  }),
  status: object({ conditions, loadBalancer: object({ ingress: atomic }) })
})

const node = object({
  metadata,
  spec: object({ podCIDRs: set, taints: atomic }),
  status: object({ addresses: listMap(["type"]), conditions, images: atomic, volumesAttached: atomic })
})

const listener = object({
  metadata,
  spec: object({ ports: listMap(["name"]) }),
  status: object({ conditions })
})

const withMetadata = object({ metadata })

/** Merge shapes by resource key (`plural` or `plural.group`). */
export const typeDefs: Readonly<Record<string, TypeDef>> = {
  pods: pod,
  services: service,
  nodes: node,
  namespaces: object({ metadata, status: object({ conditions }) }),
  persistentvolumes: object({ metadata, status: object({}) }),
  persistentvolumeclaims: object({ metadata, status: object({ conditions }) }),
  "listeners.listeners.stackable.tech": listener,
  "endpointslices.discovery.k8s.io": object({ metadata, endpoints: atomic, ports: atomic }),
  "customresourcedefinitions.apiextensions.k8s.io": object({ metadata, status: object({ conditions }) })
}

export const typeDefFor = (resourceKey: string): TypeDef => typeDefs[resourceKey] ?? withMetadata
