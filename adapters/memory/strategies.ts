/**
 * Per-kind registry behaviour, mirroring the REST strategies of the real API server
 * (pkg/registry/... and the custom-resource strategy of apiextensions-apiserver): which
 * kinds have a status subresource, how `metadata.generation` moves, whether an update
 * may omit `resourceVersion` or create the object, how names are validated, what is
 * defaulted and what create resets.
 */
import type { ResourceKind } from "../../domain/kinds.ts"
import { resourceKeyOf } from "../../domain/kinds.ts"
import type { FieldError } from "./errors.ts"
import { validateEvent } from "./eventValidation.ts"
import { isObject } from "./json.ts"
import type { JsonObject } from "./json.ts"
import { defaultService, validateService } from "./serviceDefaults.ts"
import type { NameRule } from "./validation.ts"

export type GenerationPolicy =
  /** no generation at all (Service, ConfigMap, Node, …) */
  | "none"
  /** 1 on create, +1 when anything outside metadata changes (custom resources) */
  | "nonMetadata"
  /** 1 on create, +1 when `spec` changes (Pod, CRD) */
  | "spec"
  /** 1 on create, +1 when anything outside metadata, or the labels, change (EndpointSlice) */
  | "nonMetadataOrLabels"

export interface KindStrategy {
  readonly statusSubresource: boolean
  /** Custom resources: a status write keeps everything but `status`; core kinds keep only `spec`. */
  readonly customResource: boolean
  readonly generation: GenerationPolicy
  readonly allowCreateOnUpdate: boolean
  readonly allowUnconditionalUpdate: boolean
  readonly nameRule: NameRule
  /** Pods: deletion waits for the kubelet (deletionTimestamp + grace period). */
  readonly gracefulDeletion: boolean
  /** Decoding defaults, applied to every object the server receives for this kind. */
  readonly applyDefaults?: (object: JsonObject) => void
  /** PrepareForCreate: what create resets or fills (status, finalizers, …). */
  readonly prepareForCreate?: (object: JsonObject, now: string) => void
  readonly validate?: (object: JsonObject, old: JsonObject | undefined) => ReadonlyArray<FieldError>
}

const base = {
  statusSubresource: false,
  customResource: false,
  generation: "none",
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  nameRule: "subdomain",
  gracefulDeletion: false
} as const satisfies KindStrategy

const section = (object: JsonObject, key: string): JsonObject => {
  if (!isObject(object[key])) object[key] = {}
  return object[key] as JsonObject
}

const qosClass = (pod: JsonObject): string => {
  const spec = section(pod, "spec")
  const containers = [
    ...(Array.isArray(spec["containers"]) ? spec["containers"] : []),
    ...(Array.isArray(spec["initContainers"]) ? spec["initContainers"] : [])
  ].filter(isObject)
  let any = false
  let guaranteed = containers.length > 0
  for (const c of containers) {
    const resources = isObject(c["resources"]) ? c["resources"] : {}
    const requests = isObject(resources["requests"]) ? resources["requests"] : {}
    const limits = isObject(resources["limits"]) ? resources["limits"] : {}
    if (Object.keys(requests).length > 0 || Object.keys(limits).length > 0) any = true
    for (const r of ["cpu", "memory"]) {
      const limit = limits[r]
      const request = requests[r] ?? limit
      if (limit === undefined || request !== limit) guaranteed = false
    }
  }
  if (!any) return "BestEffort"
  return guaranteed ? "Guaranteed" : "Burstable"
}

const defaultContainer = (c: JsonObject): void => {
  if (c["terminationMessagePath"] === undefined) c["terminationMessagePath"] = "/dev/termination-log"
  if (c["terminationMessagePolicy"] === undefined) c["terminationMessagePolicy"] = "File"
  if (c["imagePullPolicy"] === undefined && typeof c["image"] === "string") {
    const image = c["image"]
    const tag = image.includes("@") ? "digest" : image.slice(image.lastIndexOf("/") + 1).split(":")[1]
    c["imagePullPolicy"] = tag === undefined || tag === "latest" ? "Always" : "IfNotPresent"
  }
  if (c["resources"] === undefined) c["resources"] = {}
  if (Array.isArray(c["ports"])) {
    for (const port of c["ports"]) if (isObject(port) && port["protocol"] === undefined) port["protocol"] = "TCP"
  }
}

const defaultPod = (pod: JsonObject): void => {
  const spec = section(pod, "spec")
  for (const key of ["containers", "initContainers"]) {
    if (Array.isArray(spec[key])) for (const c of spec[key]) if (isObject(c)) defaultContainer(c)
  }
  if (spec["restartPolicy"] === undefined) spec["restartPolicy"] = "Always"
  if (spec["terminationGracePeriodSeconds"] === undefined) spec["terminationGracePeriodSeconds"] = 30
  if (spec["dnsPolicy"] === undefined) spec["dnsPolicy"] = "ClusterFirst"
  if (spec["schedulerName"] === undefined) spec["schedulerName"] = "default-scheduler"
  if (spec["securityContext"] === undefined) spec["securityContext"] = {}
  if (spec["enableServiceLinks"] === undefined) spec["enableServiceLinks"] = true
}

const defaults = (values: JsonObject) => (object: JsonObject): void => {
  const spec = section(object, "spec")
  for (const [k, v] of Object.entries(values)) if (spec[k] === undefined) spec[k] = v
}

const core = {
  pods: {
    ...base,
    statusSubresource: true,
    generation: "spec",
    gracefulDeletion: true,
    applyDefaults: defaultPod,
    prepareForCreate: (pod) => {
      pod["status"] = { phase: "Pending", qosClass: qosClass(pod) }
    }
  },
  services: {
    ...base,
    statusSubresource: true,
    allowCreateOnUpdate: true,
    nameRule: "dns1035",
    applyDefaults: defaultService,
    prepareForCreate: (svc) => {
      svc["status"] = { loadBalancer: {} }
    },
    validate: validateService
  },
  nodes: { ...base, statusSubresource: true },
  namespaces: {
    ...base,
    statusSubresource: true,
    nameRule: "label",
    prepareForCreate: (ns) => {
      ns["status"] = { phase: "Active" }
      const spec = section(ns, "spec")
      const finalizers = Array.isArray(spec["finalizers"]) ? spec["finalizers"] : []
      if (!finalizers.includes("kubernetes")) spec["finalizers"] = [...finalizers, "kubernetes"]
    }
  },
  configmaps: { ...base },
  persistentvolumes: {
    ...base,
    statusSubresource: true,
    nameRule: "pathSegment",
    applyDefaults: defaults({ persistentVolumeReclaimPolicy: "Retain", volumeMode: "Filesystem" }),
    prepareForCreate: (pv, now) => {
      pv["status"] = { phase: "Pending", lastPhaseTransitionTime: now }
    }
  },
  persistentvolumeclaims: {
    ...base,
    statusSubresource: true,
    applyDefaults: defaults({ volumeMode: "Filesystem" }),
    prepareForCreate: (pvc) => {
      pvc["status"] = { phase: "Pending" }
    }
  },
  "endpointslices.discovery.k8s.io": { ...base, generation: "nonMetadataOrLabels" },
  "events.events.k8s.io": { ...base, allowCreateOnUpdate: true, validate: validateEvent },
  "leases.coordination.k8s.io": { ...base, allowCreateOnUpdate: true, allowUnconditionalUpdate: false },
  "storageclasses.storage.k8s.io": {
    ...base,
    applyDefaults: (sc) => {
      if (sc["reclaimPolicy"] === undefined) sc["reclaimPolicy"] = "Delete"
      if (sc["volumeBindingMode"] === undefined) sc["volumeBindingMode"] = "Immediate"
    }
  },
  "csidrivers.storage.k8s.io": {
    ...base,
    allowUnconditionalUpdate: false,
    applyDefaults: defaults({
      attachRequired: true,
      podInfoOnMount: false,
      requiresRepublish: false,
      storageCapacity: false,
      fsGroupPolicy: "ReadWriteOnceWithFSType",
      volumeLifecycleModes: ["Persistent"]
    })
  },
  "csinodes.storage.k8s.io": { ...base, allowUnconditionalUpdate: false },
  "customresourcedefinitions.apiextensions.k8s.io": {
    ...base,
    statusSubresource: true,
    generation: "spec",
    prepareForCreate: (crd) => {
      delete crd["status"]
    }
  }
} satisfies Record<string, KindStrategy>

const customResource: KindStrategy = {
  ...base,
  customResource: true,
  generation: "nonMetadata",
  allowUnconditionalUpdate: false
}

/** Custom resources of this project that have a status subresource (see the CRDs in k8s/). */
const customResourcesWithStatus = new Set(["listeners.listeners.stackable.tech"])

/** Built-in API groups: kinds from these we do not model behave like plain core objects. */
const builtInGroups = new Set([
  "",
  "apps",
  "batch",
  "policy",
  "rbac.authorization.k8s.io",
  "networking.k8s.io",
  "storage.k8s.io",
  "discovery.k8s.io",
  "events.k8s.io",
  "coordination.k8s.io",
  "apiextensions.k8s.io",
  "admissionregistration.k8s.io",
  "scheduling.k8s.io",
  "node.k8s.io"
])

export const strategyFor = (kind: ResourceKind): KindStrategy => {
  const key = resourceKeyOf(kind)
  const known = (core as Record<string, KindStrategy>)[key]
  if (known !== undefined) return known
  if (builtInGroups.has(kind.group)) return base
  return customResourcesWithStatus.has(key) ? { ...customResource, statusSubresource: true } : customResource
}
