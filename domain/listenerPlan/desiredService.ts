/**
 * The Service a Listener should have (spec §3), as the object to server-side apply.
 *
 * Layering, later wins: generated fields → class `serviceAnnotations` → the class's
 * `hostnameAnnotation` (hostnameTemplate.ts) → class `serviceOverrides` → the Listener's
 * `objectOverrides` that name this Service. Only the
 * fields we mean to own are present; whatever the API server defaults (clusterIP,
 * nodePort, targetPort, sessionAffinity, …) is left to it.
 */
import { deepMerge } from "./deepMerge.ts"
import { fingerprint, isJsonObject } from "./json.ts"
import type { ListenerClassInput, ListenerInput, ListenerPortInput, ServiceType } from "./inputs.ts"
import { LISTENER_API_VERSION, mountLabelKey, operatorLabels } from "./labels.ts"
import { withoutPublishedOnNodeLabels } from "../publishedOnNode.ts"

/**
 * Annotation carrying the fingerprint of everything we applied. Server-side apply removes
 * fields we stop applying, which a cache comparison alone cannot see (the field is still
 * there, we just no longer want it); comparing fingerprints catches those removals without
 * keeping managedFields in the cache.
 */
export const APPLIED_FINGERPRINT_ANNOTATION = "listeners.stackable.tech/applied-fingerprint"

export interface DesiredService {
  readonly apiVersion: "v1"
  readonly kind: "Service"
  readonly metadata: {
    readonly name: string
    readonly namespace: string
    readonly labels: Record<string, string>
    readonly annotations: Record<string, string>
    readonly ownerReferences: ReadonlyArray<{
      readonly apiVersion: string
      readonly kind: string
      readonly name: string
      readonly uid: string
      readonly controller: true
      readonly blockOwnerDeletion: true
    }>
  } & Record<string, unknown>
  readonly spec: Record<string, unknown>
  readonly [field: string]: unknown
}

/** Ports deduplicated by protocol + name (first wins), protocol defaulted to TCP; no targetPort/nodePort. */
export const servicePorts = (ports: ReadonlyArray<ListenerPortInput>) => {
  const seen = new Set<string>()
  const result: Array<{ name: string; port: number; protocol: string }> = []
  for (const port of ports) {
    const protocol = port.protocol ?? "TCP"
    const key = `${protocol}/${port.name}`
    if (seen.has(key)) continue
    seen.add(key)
    result.push({ name: port.name, port: port.port, protocol })
  }
  return result
}

const typeSpecificFields = (cls: ListenerClassInput["spec"]): Record<string, unknown> => {
  const type: ServiceType = cls.serviceType
  const fields: Record<string, unknown> = {}
  if ((type === "NodePort" || type === "LoadBalancer") && cls.serviceExternalTrafficPolicy != null) {
    fields["externalTrafficPolicy"] = cls.serviceExternalTrafficPolicy
  }
  if (type === "LoadBalancer") {
    if (cls.loadBalancerClass != null) fields["loadBalancerClass"] = cls.loadBalancerClass
    fields["allocateLoadBalancerNodePorts"] = cls.loadBalancerAllocateNodePorts ?? true
  }
  return fields
}

/** Does an entry of `objectOverrides` address this Service (apiVersion v1, kind Service, same namespace and name)? */
const overridesThisService = (override: unknown, namespace: string, name: string): boolean => {
  if (!isJsonObject(override) || override["apiVersion"] !== "v1" || override["kind"] !== "Service") return false
  const metadata = override["metadata"]
  if (!isJsonObject(metadata) || metadata["name"] !== name) return false
  // A namespace-less override means "the Listener's namespace", as in a manifest applied there.
  return metadata["namespace"] === undefined || metadata["namespace"] === namespace
}

/** `hostname`: the Listener's rendered hostnameTemplate, written under the class's hostnameAnnotation. */
export const planService = (listener: ListenerInput, listenerClass: ListenerClassInput, hostname?: string): DesiredService => {
  const { name, namespace, uid } = listener.metadata
  const spec = listener.spec
  const cls = listenerClass.spec
  const generated: DesiredService = {
    apiVersion: "v1",
    kind: "Service",
    metadata: {
      name,
      namespace,
      labels: { ...withoutPublishedOnNodeLabels(listener.metadata.labels), ...operatorLabels(name) },
      annotations: {
        ...cls.serviceAnnotations,
        ...(hostname !== undefined && cls.hostnameAnnotation != null ? { [cls.hostnameAnnotation]: hostname } : {})
      },
      ownerReferences: [
        { apiVersion: LISTENER_API_VERSION, kind: "Listener", name, uid, controller: true, blockOwnerDeletion: true }
      ]
    },
    spec: {
      type: cls.serviceType,
      ports: servicePorts(spec.ports ?? []),
      selector: { ...spec.extraPodSelectorLabels, [mountLabelKey(uid)]: name },
      publishNotReadyAddresses: spec.publishNotReadyAddresses ?? true,
      ...typeSpecificFields(cls)
    }
  }
  let merged: unknown = generated
  if (isJsonObject(cls.serviceOverrides)) merged = deepMerge(merged, cls.serviceOverrides)
  for (const override of spec.objectOverrides ?? []) {
    if (overridesThisService(override, namespace, name)) merged = deepMerge(merged, override)
  }
  return pinIdentity(merged, generated)
}

/**
 * Overrides may change anything except what makes the object this Listener's Service:
 * kind, name, namespace, the controller reference and the operator labels (otherwise the
 * foreign-Service guard, garbage collection, stale-object cleanup and the label-scoped
 * EndpointSlice watch would no longer hold). The fingerprint is added last.
 */
const pinIdentity = (merged: unknown, generated: DesiredService): DesiredService => {
  const object = isJsonObject(merged) ? merged : {}
  const metadata = isJsonObject(object["metadata"]) ? object["metadata"] : {}
  const labels = isJsonObject(metadata["labels"]) ? (metadata["labels"] as Record<string, string>) : {}
  const annotations = isJsonObject(metadata["annotations"]) ? (metadata["annotations"] as Record<string, string>) : {}
  const spec = isJsonObject(object["spec"]) ? object["spec"] : {}
  const withoutFingerprint = {
    ...object,
    apiVersion: "v1" as const,
    kind: "Service" as const,
    metadata: {
      ...metadata,
      name: generated.metadata.name,
      namespace: generated.metadata.namespace,
      labels: { ...labels, ...operatorLabels(generated.metadata.name) },
      annotations,
      ownerReferences: generated.metadata.ownerReferences
    },
    spec
  }
  const { [APPLIED_FINGERPRINT_ANNOTATION]: _ignored, ...userAnnotations } = annotations
  const body = { ...withoutFingerprint, metadata: { ...withoutFingerprint.metadata, annotations: userAnnotations } }
  return {
    ...body,
    metadata: { ...body.metadata, annotations: { ...userAnnotations, [APPLIED_FINGERPRINT_ANNOTATION]: fingerprint(body) } }
  }
}
