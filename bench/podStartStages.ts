/**
 * Where a Pod's start goes, read from the API server's audit log (every request, microsecond
 * timestamps) of the real-node cluster: the instants of each stage of one Pod — its PVC made
 * by the ephemeral-volume controller, the scheduler's choice of node, the PV, the claim's
 * binding, the Pod's binding, the node plugin's publish and our controller's writes — for
 * `bench/podStart.bench.ts`.
 */
import type { AuditEvent } from "../test/envtest/controlPlane.ts"
import { OPERATOR_NAMESPACE } from "../test/realnodes/operatorCluster.ts"

export const SCHEDULER = /^system:kube-scheduler$/u
export const EPHEMERAL = /:ephemeral-volume-controller$/u
export const PV_BINDER = /:persistent-volume-binder$/u
export const CONTROLLER_SA = new RegExp(`^system:serviceaccount:${OPERATOR_NAMESPACE}:.*-controller$`, "u")
export const NODE_SA = new RegExp(`^system:serviceaccount:${OPERATOR_NAMESPACE}:.*-node$`, "u")

/** A request of `verb` on `resource`/`name` (and `subresource`, none when not given), answered with success (or NotFound, `orNotFound`). */
export const ref = (e: AuditEvent, verb: string | ReadonlyArray<string>, resource: string, name: string, subresource?: string, orNotFound = false) =>
  (typeof verb === "string" ? e.verb === verb : verb.includes(e.verb)) &&
  e.objectRef?.resource === resource && e.objectRef.name === name &&
  (e.objectRef.subresource ?? "") === (subresource ?? "") &&
  ((e.responseStatus?.code ?? 0) < 300 || (orNotFound && e.responseStatus?.code === 404))
export const by = (e: AuditEvent, user: RegExp) => user.test(e.user.username)
/** The test cluster's kubelets use the admin credentials: known by their user agent. */
const byKubelet = (e: AuditEvent) => e.userAgent?.startsWith("kubelet/") === true

/** The first audit event matching, as epoch ms (when it was answered, or received); NaN if none. */
export const firstAt = (events: ReadonlyArray<AuditEvent>, match: (e: AuditEvent) => boolean, when: "received" | "answered" = "answered") => {
  const found = events.find(match)
  return found === undefined ? NaN : Date.parse(when === "received" ? found.requestReceivedTimestamp : found.stageTimestamp)
}

/** A Pod as the benchmark timed it, with what the audit log needs to find its objects. */
export interface TimedPod {
  readonly name: string
  /** Epoch ms the create request was sent, and Ready was first seen. */
  readonly created: number
  readonly ready: number
  readonly uid: string
  /** Its generic ephemeral volume's PVC (`<pod>-listener`) and that PVC's uid (the PV is `pvc-<uid>`), if it has one. */
  readonly pvc?: { readonly name: string; readonly uid: string } | undefined
}

export interface Stage {
  readonly label: string
  readonly whose: string
  /** The instant the stage ends (epoch ms, NaN when the audit log does not show it). */
  readonly at: (audit: ReadonlyArray<AuditEvent>, pod: TimedPod) => number
}

const pvName = (pod: TimedPod) => `pvc-${pod.pvc?.uid ?? "?"}`
const pvcName = (pod: TimedPod) => pod.pvc?.name ?? "?"

const pvcCreated: Stage = {
  label: "PVC created",
  whose: "kube-controller-manager: ephemeral-volume controller",
  at: (audit, pod) => firstAt(audit, (e) => ref(e, "create", "persistentvolumeclaims", pvcName(pod)) && by(e, EPHEMERAL))
}
const nodeSelected: Stage = {
  label: "node selected (PVC annotated)",
  whose: "kube-scheduler",
  at: (audit, pod) => firstAt(audit, (e) => ref(e, ["update", "patch"], "persistentvolumeclaims", pvcName(pod)) && by(e, SCHEDULER))
}
const pvcBound: Stage = {
  label: "PVC bound",
  whose: "kube-controller-manager: PV controller",
  at: (audit, pod) => firstAt(audit, (e) => ref(e, "update", "persistentvolumeclaims", pvcName(pod), "status") && by(e, PV_BINDER))
}
export const podBound: Stage = {
  label: "Pod bound",
  whose: "kube-scheduler: PreBind checks the claims 1 s after annotating them, then every 1 s",
  at: (audit, pod) => firstAt(audit, (e) => ref(e, "create", "pods", pod.name, "binding") && by(e, SCHEDULER))
}
const ready = (whose: string): Stage => ({ label: "Ready", whose, at: (_, pod) => pod.ready })

/** The stages of a Pod with a listener volume: each row is "previous stage's end → this one's". */
export const LISTENER_STAGES: ReadonlyArray<Stage> = [
  pvcCreated,
  nodeSelected,
  {
    label: "PV created",
    whose: "**ours**: csi-provisioner sidecar + our CreateVolume",
    at: (audit, pod) => firstAt(audit, (e) => ref(e, "create", "persistentvolumes", pvName(pod)) && by(e, CONTROLLER_SA))
  },
  pvcBound,
  podBound,
  {
    label: "NodePublishVolume starts",
    whose: "kubelet: admission, volume manager",
    at: (audit, pod) => firstAt(audit, (e) => ref(e, "get", "persistentvolumes", pvName(pod)) && by(e, NODE_SA), "received")
  },
  {
    label: "Listener applied",
    whose: "**ours**: node plugin (GET PV, PVC, Pod; APPLY Listener)",
    at: (audit, pod) => firstAt(audit, (e) => ref(e, "patch", "listeners", pvcName(pod)) && by(e, NODE_SA))
  },
  {
    label: "Service applied",
    whose: "**ours**: controller",
    at: (audit, pod) => firstAt(audit, (e) => ref(e, "patch", "services", pvcName(pod)) && by(e, CONTROLLER_SA))
  },
  {
    label: "Listener status applied",
    whose: "**ours**: controller",
    at: (audit, pod) => firstAt(audit, (e) => ref(e, "patch", "listeners", pvcName(pod), "status") && by(e, CONTROLLER_SA))
  },
  {
    label: "PodListeners written (publish done)",
    whose: "**ours**: node plugin",
    at: (audit, pod) => firstAt(audit, (e) => ref(e, ["create", "patch"], "podlisteners", `pod-${pod.uid}`) && by(e, NODE_SA))
  },
  ready("kubelet: mount, sandbox, container, readiness probe")
]

/** The stages of a Pod whose generic ephemeral volume the in-tree hostPath provisioner of kube-controller-manager serves. */
export const HOST_PATH_STAGES: ReadonlyArray<Stage> = [
  pvcCreated,
  nodeSelected,
  {
    label: "PV created",
    whose: "kube-controller-manager: PV controller (in-tree hostPath provisioner)",
    at: (audit, pod) => firstAt(audit, (e) => ref(e, "create", "persistentvolumes", pvName(pod)) && by(e, PV_BINDER))
  },
  pvcBound,
  podBound,
  ready("kubelet: mount, sandbox, container, readiness probe")
]

export const EMPTY_DIR_STAGES: ReadonlyArray<Stage> = [
  { ...podBound, whose: "kube-scheduler" },
  ready("kubelet: sandbox, container, readiness probe")
]

/** Each stage's duration for one Pod (NaN where the audit log lacks either end). */
export const stageDurations = (stages: ReadonlyArray<Stage>, audit: ReadonlyArray<AuditEvent>, pod: TimedPod): ReadonlyArray<number> => {
  const at = [pod.created, ...stages.map((stage) => stage.at(audit, pod))]
  return stages.map((_, i) => at[i + 1]! - at[i]!)
}

/**
 * The WaitForFirstConsumer floor, per Pod: from the scheduler's annotation of the claim
 * (`volume.kubernetes.io/selected-node`, the end of its bindAPIUpdate) to the Pod's binding.
 * kube-scheduler's volume binding PreBind looks at the claims first one poll interval (1 s)
 * after that annotation, then every 1 s (k8s.io/kubernetes v1.36.1,
 * pkg/scheduler/framework/plugins/volumebinding/binder.go:496), so this cannot be under 1 s.
 */
export const annotatedToBound = (audit: ReadonlyArray<AuditEvent>, pod: TimedPod) => podBound.at(audit, pod) - nodeSelected.at(audit, pod)

/** A point of a listener Pod's publish, as ms after the Pod was bound. */
export interface PublishPoint {
  readonly label: string
  readonly at: (audit: ReadonlyArray<AuditEvent>, pod: TimedPod) => number
}

const nodePlugin = (verb: string | ReadonlyArray<string>, resource: string, name: (pod: TimedPod) => string, when: "received" | "answered" = "answered", orNotFound = false) =>
  (audit: ReadonlyArray<AuditEvent>, pod: TimedPod) => firstAt(audit, (e) => ref(e, verb, resource, name(pod), undefined, orNotFound) && by(e, NODE_SA), when)

/** The publish of a listener Pod request by request, to see what of it is ours and what waits. */
export const PUBLISH_TIMELINE: ReadonlyArray<PublishPoint> = [
  { label: "kubelet: first request for the PVC answered", at: (audit, pod) => firstAt(audit, (e) => e.objectRef?.name === pvcName(pod) && e.objectRef.resource === "persistentvolumeclaims" && byKubelet(e)) },
  { label: "kubelet: first request for the PV answered", at: (audit, pod) => firstAt(audit, (e) => e.objectRef?.name === pvName(pod) && e.objectRef.resource === "persistentvolumes" && byKubelet(e)) },
  { label: "node plugin: GET PV received (publish starts)", at: nodePlugin("get", "persistentvolumes", pvName, "received") },
  { label: "node plugin: GET PV answered", at: nodePlugin("get", "persistentvolumes", pvName) },
  { label: "node plugin: GET PVC answered", at: nodePlugin("get", "persistentvolumeclaims", pvcName) },
  { label: "node plugin: GET Pod answered", at: nodePlugin("get", "pods", (pod) => pod.name) },
  { label: "node plugin: APPLY Listener answered", at: nodePlugin("patch", "listeners", pvcName) },
  { label: "controller: APPLY Service answered", at: (audit, pod) => firstAt(audit, (e) => ref(e, "patch", "services", pvcName(pod)) && by(e, CONTROLLER_SA)) },
  { label: "node plugin: PATCH PV labels answered", at: nodePlugin("patch", "persistentvolumes", pvName) },
  { label: "node plugin: PATCH Pod label answered", at: nodePlugin("patch", "pods", (pod) => pod.name) },
  { label: "controller: APPLY Listener status answered", at: (audit, pod) => firstAt(audit, (e) => ref(e, "patch", "listeners", pvcName(pod), "status") && by(e, CONTROLLER_SA)) },
  { label: "node plugin: GET PodListeners answered", at: nodePlugin("get", "podlisteners", (pod) => `pod-${pod.uid}`, "answered", true) },
  { label: "node plugin: PodListeners written (publish done)", at: nodePlugin(["create", "patch"], "podlisteners", (pod) => `pod-${pod.uid}`) },
  { label: "Ready", at: (_, pod) => pod.ready }
]

/** Every request about one listener Pod's objects (Pod, PVC, PV, Listener, Service, PodListeners), in order, for a look by hand. */
export const requestsAbout = (audit: ReadonlyArray<AuditEvent>, pod: TimedPod) => {
  const names = new Set([pvName(pod), pvcName(pod), pod.name, `pod-${pod.uid}`])
  return audit
    .filter((e) => names.has(e.objectRef?.name ?? "") && e.verb !== "watch" && e.verb !== "list")
    .map((e) => ({
      user: e.user.username,
      agent: e.userAgent?.split(" ")[0],
      request: `${e.verb} ${e.objectRef?.resource ?? "?"}${e.objectRef?.subresource !== undefined ? `/${e.objectRef.subresource}` : ""} ${e.objectRef?.name ?? ""}`,
      code: e.responseStatus?.code,
      received: e.requestReceivedTimestamp,
      answered: e.stageTimestamp
    }))
}

/** Requests of the node plugins for one listener Pod's publish, by verb and resource. */
export const nodePluginRequests = (audit: ReadonlyArray<AuditEvent>, pod: TimedPod): ReadonlyArray<string> => {
  const names = new Set([pvName(pod), pvcName(pod), pod.name, `pod-${pod.uid}`])
  return audit
    .filter((e) => by(e, NODE_SA) && e.verb !== "watch" && e.verb !== "list" && names.has(e.objectRef?.name ?? ""))
    .map((e) => `${e.verb} ${e.objectRef?.resource ?? "?"}${e.objectRef?.subresource !== undefined ? `/${e.objectRef.subresource}` : ""}`)
}
