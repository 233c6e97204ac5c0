/**
 * Bring a cluster to the state the upstream operator left in the recording (fixtures.ts),
 * as far as the API is concerned: its CRDs, ListenerClasses, Listeners with status,
 * Services, PersistentVolumes and claims, Pods with its labels, and PodListeners.
 *
 * Objects the upstream operator wrote are replayed manager by manager from their recorded
 * managedFields (managedFields.ts): each manager applies (or updates) exactly the fields it
 * owned, under its own name, in the recorded order — so the field ownership our operator
 * meets is upstream's. New uids are mapped in wherever the recording refers to one (owner
 * references, the Pods' mount label, PodListeners names). Services keep their recorded
 * cluster IPs and node ports (so the volume trees stay true): they are created with them,
 * then the same manager applies again without them — the API server keeps allocated values
 * an update leaves out — so they stay owned by nobody, as upstream left them.
 *
 * Pods are replayed as bare Pods on their recorded nodes (their StatefulSets are not: a
 * StatefulSet would make Pods of its own). Kubelets publish their volumes through the
 * stand-in node plugin (standInNodePlugin.ts), which writes the recorded trees.
 */
import { LISTENER_API_VERSION } from "../../domain/constants.ts"
import { eventually } from "../envtest/kubeClient.ts"
import type { KubeClient, KubeObject } from "../envtest/kubeClient.ts"
import type { UpstreamFixtures } from "./fixtures.ts"
import { ownedPart } from "./managedFields.ts"
import type { ManagedFieldsEntry } from "./managedFields.ts"

const RESOURCES: Record<string, { readonly prefix: string; readonly plural: string }> = {
  CustomResourceDefinition: { prefix: "/apis/apiextensions.k8s.io/v1", plural: "customresourcedefinitions" },
  ListenerClass: { prefix: `/apis/${LISTENER_API_VERSION}`, plural: "listenerclasses" },
  Listener: { prefix: `/apis/${LISTENER_API_VERSION}`, plural: "listeners" },
  PodListeners: { prefix: `/apis/${LISTENER_API_VERSION}`, plural: "podlisteners" },
  Service: { prefix: "/api/v1", plural: "services" },
  PersistentVolume: { prefix: "/api/v1", plural: "persistentvolumes" },
  PersistentVolumeClaim: { prefix: "/api/v1", plural: "persistentvolumeclaims" },
  Pod: { prefix: "/api/v1", plural: "pods" },
  CSIDriver: { prefix: "/apis/storage.k8s.io/v1", plural: "csidrivers" },
  StorageClass: { prefix: "/apis/storage.k8s.io/v1", plural: "storageclasses" }
}

export const collectionPath = (o: KubeObject): string => {
  const resource = RESOURCES[String(o.kind)]
  if (resource === undefined) throw new Error(`replay: no resource path for kind ${String(o.kind)}`)
  return `${resource.prefix}${o.metadata.namespace !== undefined ? `/namespaces/${o.metadata.namespace}` : ""}/${resource.plural}`
}
export const objectPath = (o: KubeObject): string => `${collectionPath(o)}/${o.metadata.name}`

/**
 * Recorded uids → the uids of the replayed objects; applied to a recorded object before it is used.
 *
 * A PersistentVolume's name (`pvc-<uid of the claim it was provisioned for>`, chosen by the
 * csi-provisioner) is a name, not a reference: it stays as recorded, like the volume handle
 * equal to it and every reference to it by name (a claim's `volumeName`, a Listener's owner
 * reference, the recorded volume trees). Renaming it would leave the StatefulSets' claims
 * bound to names that no longer exist (the PV binder marks them Lost and releases their
 * volumes) and the stand-in node plugin without a tree for the volume it is asked to publish.
 */
export class UidMap {
  private readonly pairs: Array<[RegExp, string]> = []
  add(recorded: string | undefined, replayed: string | undefined): void {
    if (recorded === undefined || replayed === undefined) throw new Error("replay: an object without uid")
    // uids are hex digits and dashes: nothing to escape.
    this.pairs.push([new RegExp(`(?<!pvc-)${recorded}`, "g"), replayed], [new RegExp(recorded.replaceAll("-", ""), "g"), replayed.replaceAll("-", "")])
  }
  /** The object with every recorded uid (also without dashes, as in mount labels) replaced, volume names aside. */
  map<T>(value: T): T {
    let text = JSON.stringify(value)
    for (const [from, to] of this.pairs) text = text.replace(from, to)
    return JSON.parse(text) as T
  }
}

const SERVER_SET = ["uid", "resourceVersion", "creationTimestamp", "generation", "managedFields", "selfLink"] as const

/** The recorded object without what only the server sets. */
const clientView = (o: KubeObject): KubeObject => {
  const metadata: Record<string, unknown> = { ...o.metadata }
  for (const key of SERVER_SET) delete metadata[key]
  return { ...o, metadata: metadata as KubeObject["metadata"] }
}

const entriesOf = (o: KubeObject): ManagedFieldsEntry[] =>
  [...((o.metadata as { managedFields?: ManagedFieldsEntry[] }).managedFields ?? [])]
    // Recorded order; a status write after the main object's at the same second.
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => String(a.entry.time).localeCompare(String(b.entry.time)) || a.index - b.index)
    .map(({ entry }) => entry)

const deepMerge = (a: unknown, b: unknown): unknown => {
  if (typeof a === "object" && a !== null && !Array.isArray(a) && typeof b === "object" && b !== null && !Array.isArray(b)) {
    const out: Record<string, unknown> = { ...(a as Record<string, unknown>) }
    for (const [k, v] of Object.entries(b)) out[k] = k in out ? deepMerge(out[k], v) : v
    return out
  }
  return b
}

export interface ReplayOptions {
  /** Which entries to replay (default: all). */
  readonly only?: (entry: ManagedFieldsEntry) => boolean
  /** Merged into the first (creating) request only. */
  readonly onCreate?: Record<string, unknown>
  /** Leave the object out of these parts of the recording before replaying (e.g. its owner references). */
  readonly strip?: (o: KubeObject) => KubeObject
}

/**
 * Replay `recorded` (uids already mapped) manager by manager. Returns the object as the
 * server has it after the last request.
 */
export const replayManaged = async (kube: KubeClient, recorded: KubeObject, options: ReplayOptions = {}): Promise<KubeObject> => {
  const view = (options.strip ?? ((o) => o))(clientView(recorded))
  const base = { apiVersion: recorded.apiVersion, kind: recorded.kind, metadata: { name: recorded.metadata.name, ...(recorded.metadata.namespace !== undefined ? { namespace: recorded.metadata.namespace } : {}) } }
  const entries = entriesOf(recorded).filter(options.only ?? (() => true))
  let live = await kube.getOrUndefined(objectPath(recorded))
  for (const entry of entries) {
    const part = deepMerge(base, ownedPart(view, entry.fieldsV1 ?? {})) as KubeObject
    const subresource = entry.subresource !== undefined && entry.subresource !== "" ? `/${entry.subresource}` : ""
    const creating = live === undefined
    const body = creating && options.onCreate !== undefined ? deepMerge(part, options.onCreate) : part
    if (entry.operation === "Apply") {
      live = await kube.patch(objectPath(recorded) + subresource, body, "apply", { fieldManager: entry.manager, force: true })
      if (creating && options.onCreate !== undefined) {
        // Again without what only the creation needed: the server keeps it, nobody owns it.
        live = await kube.patch(objectPath(recorded) + subresource, part, "apply", { fieldManager: entry.manager, force: true })
      }
    } else if (creating && subresource === "") {
      live = await kube.create(collectionPath(recorded), body, { fieldManager: entry.manager })
    } else {
      live = await kube.patch(objectPath(recorded) + subresource, part, "merge", { fieldManager: entry.manager })
    }
  }
  if (live === undefined) throw new Error(`replay: nothing replayed for ${String(recorded.kind)} ${recorded.metadata.name}`)
  return live
}

/**
 * What a Service was created with, so that it keeps its recorded addresses: cluster IPs and
 * node ports. The ports keep their names: when the next apply leaves a node port out, the
 * API server carries the allocated one over from the port of the same name (and allocates
 * a new one for a port whose name changed).
 */
const allocatedValues = (service: KubeObject): Record<string, unknown> => {
  const spec = (service.spec ?? {}) as { clusterIP?: string; clusterIPs?: string[]; ports?: Array<{ name?: string; port: number; protocol?: string; nodePort?: number }> }
  return {
    spec: {
      ...(spec.clusterIP !== undefined && spec.clusterIP !== "None" ? { clusterIP: spec.clusterIP, clusterIPs: spec.clusterIPs } : {}),
      ...(spec.ports?.some((p) => p.nodePort !== undefined) === true
        ? {
          ports: spec.ports.map((p) => ({
            ...(p.name !== undefined ? { name: p.name } : {}),
            port: p.port,
            protocol: p.protocol ?? "TCP",
            ...(p.nodePort !== undefined ? { nodePort: p.nodePort } : {})
          }))
        }
        : {})
    }
  }
}

/** The load-balancer addresses of a Service's status. */
export const ingressOf = (service: KubeObject): string[] =>
  ((service.status?.["loadBalancer"] as { ingress?: Array<{ ip?: string; hostname?: string }> } | undefined)?.ingress ?? []).map((i) => i.ip ?? i.hostname ?? "")

/** `created` once the load balancer has given it the recorded addresses (at once for a Service without them). */
const withRecordedIngress = async (kube: KubeClient, recorded: KubeObject, created: KubeObject): Promise<KubeObject> => {
  const wanted = ingressOf(recorded)
  if (wanted.length === 0) return created
  return eventually(`Service ${recorded.metadata.name} given its recorded load-balancer address ${wanted.join(", ")} by MetalLB`, async () => {
    const live = await kube.get(objectPath(recorded))
    return JSON.stringify(ingressOf(live)) === JSON.stringify(wanted) ? live : undefined
  }, { timeoutMs: 120_000, intervalMs: 500 })
}

const isSystemStatus = (entry: ManagedFieldsEntry): boolean =>
  entry.subresource === "status" && ["kube-apiserver", "kubelet", "kube-controller-manager"].includes(entry.manager)

/** The replayed state: every replayed object by kind and recorded name, and the uid map. */
export interface ReplayedState {
  readonly uids: UidMap
  readonly services: Map<string, KubeObject>
  readonly listeners: Map<string, KubeObject>
  readonly pods: Map<string, KubeObject>
}

/**
 * Phase 1, before the node plugin stand-in runs: the cluster-wide objects (CRDs, the
 * upstream chart's CSIDriver and StorageClass, ListenerClasses).
 */
export const replayClusterObjects = async (kube: KubeClient, fixtures: UpstreamFixtures): Promise<void> => {
  for (const crd of fixtures.crds) {
    await replayManaged(kube, crd, { only: (e) => !isSystemStatus(e) })
    await eventually(`CRD ${crd.metadata.name} established`, async () => {
      const live = await kube.get(objectPath(crd))
      return ((live.status?.["conditions"] ?? []) as Array<{ type: string; status: string }>).some((c) => c.type === "Established" && c.status === "True")
    }, { timeoutMs: 60_000 })
  }
  for (const o of [fixtures.csiDriver, fixtures.storageClass]) await kube.create(collectionPath(o), clientView(o), { fieldManager: "helm" })
  for (const c of fixtures.listenerClasses) await replayManaged(kube, c)
}

const recordedUid = (o: KubeObject): string => String(o.metadata.uid)

/**
 * Phase 2: the namespaced state, in the order its references need: claims of
 * StatefulSets, Pods (their ephemeral claims follow from the ephemeral volume controller),
 * volumes bound to the claims, Listeners owned by their volumes, Services owned by their
 * Listeners, Listener status, the Pods' mount labels, PodListeners owned by the Pods.
 */
export const replayNamespace = async (kube: KubeClient, fixtures: UpstreamFixtures): Promise<ReplayedState> => {
  const ns = fixtures.recording.namespace
  const uids = new UidMap()
  const state: ReplayedState = { uids, services: new Map(), listeners: new Map(), pods: new Map() }
  const byName = (list: KubeObject[], name: string) => list.find((o) => o.metadata.name === name)
  const ownedByPod = (o: KubeObject) => (o.metadata.ownerReferences ?? []).some((r) => r.kind === "Pod")

  // Claims of StatefulSets (ephemeral claims are made by the ephemeral volume controller).
  for (const claim of fixtures.persistentVolumeClaims.filter((c) => !ownedByPod(c))) {
    const view = clientView(claim)
    const created = await kube.create(collectionPath(claim), { ...view, status: undefined }, { fieldManager: entriesOf(claim)[0]?.manager ?? "replay" })
    uids.add(recordedUid(claim), created.metadata.uid)
  }
  // Pods on their recorded nodes, without their StatefulSet owner and without the labels upstream's node plugin added.
  const pluginLabelWrites = (e: ManagedFieldsEntry) => e.operation === "Update" && e.subresource === undefined && JSON.stringify(e.fieldsV1 ?? {}).includes("listener.stackable.tech/mnt.")
  const withoutOwners = (o: KubeObject): KubeObject => ({ ...o, metadata: { ...o.metadata, ownerReferences: undefined } as KubeObject["metadata"] })
  for (const pod of fixtures.pods) {
    const creator = entriesOf(pod).find((e) => (e.subresource ?? "") === "")
    if (creator === undefined) throw new Error(`replay: Pod ${pod.metadata.name} has no managedFields`)
    const created = await replayManaged(kube, pod, { only: (e) => e === creator, onCreate: { spec: { nodeName: pod.spec?.["nodeName"] } }, strip: withoutOwners })
    uids.add(recordedUid(pod), created.metadata.uid)
    state.pods.set(String(pod.metadata.name), created)
  }
  // Volumes, pre-bound to their claims (an ephemeral claim's uid once the controller made it).
  for (const pv of fixtures.persistentVolumes) {
    const claimRef = pv.spec?.["claimRef"] as { name: string; uid: string }
    const recordedClaim = byName(fixtures.persistentVolumeClaims, claimRef.name)
    if (recordedClaim !== undefined && ownedByPod(recordedClaim)) {
      const live = await eventually<KubeObject>(`ephemeral claim ${claimRef.name}`, () => kube.getOrUndefined(`/api/v1/namespaces/${ns}/persistentvolumeclaims/${claimRef.name}`), { timeoutMs: 60_000 })
      uids.add(recordedUid(recordedClaim), live.metadata.uid)
    }
    const mapped = uids.map(pv)
    const created = await replayManaged(kube, mapped, { only: (e) => !isSystemStatus(e) })
    uids.add(recordedUid(pv), created.metadata.uid)
  }
  // Listeners (spec), then their Services, then the Listeners' status.
  for (const listener of fixtures.listeners) {
    const created = await replayManaged(kube, uids.map(listener), { only: (e) => e.subresource !== "status" })
    uids.add(recordedUid(listener), created.metadata.uid)
  }
  for (const service of fixtures.services) {
    if (service.metadata.name === "kubernetes") continue
    const mapped = uids.map(service)
    // A Service's status is its load balancer's to write: the cluster's MetalLB, whose pool
    // holds the recorded address, gives it back (the recording's was written by hand, before
    // the test cluster had a load balancer).
    const created = await replayManaged(kube, mapped, { onCreate: allocatedValues(service), only: (e) => e.subresource !== "status" })
    state.services.set(String(service.metadata.name), await withRecordedIngress(kube, service, created))
  }
  for (const listener of fixtures.listeners) {
    state.listeners.set(String(listener.metadata.name), await replayManaged(kube, uids.map(listener), { only: (e) => e.subresource === "status" }))
  }
  for (const pod of fixtures.pods) {
    state.pods.set(String(pod.metadata.name), await replayManaged(kube, uids.map(pod), { only: pluginLabelWrites, strip: withoutOwners }))
  }
  for (const podListeners of fixtures.podListeners) await replayManaged(kube, uids.map(podListeners))
  return state
}
