/**
 * Benchmark: what a listener volume adds to a Pod's start, on the real-node cluster of the
 * end-to-end suite (test/realnodes: real kubelets and containerd, the chart-installed image).
 *
 *   flock /tmp/lo-suite.lock node --import tsx bench/podStart.bench.ts [pods=20] [helm --set values…]
 *
 * `pods` Pods with an emptyDir at /listener are created at once (spread over the two nodes)
 * and timed from their creation until Ready; then `pods` identical Pods whose /listener is a
 * listener volume (generic ephemeral, a per-volume NodePort Listener each). Ready time is
 * measured here (creation request sent → Ready seen, polled every 100 ms), not from the
 * API's second-resolution timestamps. Reports median and p90 of both and their difference,
 * and how many FailedMount Events the listener Pods got (0 when every first publish succeeds).
 * Further arguments are `helm install --set` values, e.g. to compare chart settings:
 * `provisioner.kubeApiQps=5 provisioner.kubeApiBurst=10` (csi-provisioner's own defaults).
 *
 * Where the time goes: the API server's audit log (every request, microsecond timestamps)
 * times each listener Pod's stages apart — the ephemeral-volume controller creating the PVC,
 * the scheduler choosing the node, csi-provisioner creating the PV (CreateVolume), the PV
 * controller binding, the scheduler binding the Pod, the kubelet calling NodePublishVolume
 * (its first read of the PV), our node plugin applying the Listener, our controller applying
 * the Service and the Listener's status, the node plugin writing PodListeners (the end of
 * the publish), and the container becoming Ready — and prints median and p90 of each.
 */
import { createNamespace } from "../test/envtest/kubeClient.ts"
import type { KubeObject } from "../test/envtest/kubeClient.ts"
import type { AuditEvent } from "../test/envtest/controlPlane.ts"
import { isPodReady } from "../test/envtest/localCluster.ts"
import { OPERATOR_NAMESPACE, startOperatorCluster } from "../test/realnodes/operatorCluster.ts"
import { ephemeralPod, listenerClass } from "../test/e2e/workloads.ts"

const PODS = Number(process.argv[2] ?? 20)
const VALUES = process.argv.slice(3)
const NODES = ["node-a", "node-b"] as const
const NS = "podstart"
const LISTENERS = "/apis/listeners.stackable.tech/v1alpha1"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN
}
const seconds = (ms: number) => Number.isNaN(ms) ? "—" : `${(ms / 1000).toFixed(2)} s`

const emptyDirPod = (name: string, node: string) => {
  const pod = ephemeralPod(name, NS, "unused", node) as unknown as { spec: { volumes: unknown[] } }
  return { ...pod, spec: { ...pod.spec, volumes: [{ name: "listener", emptyDir: {} }] } }
}

interface Timed {
  /** Epoch ms the create request was sent, and Ready was first seen. */
  readonly created: number
  readonly ready: number
}

/** The first audit event matching, as epoch ms (when it was answered, or received). */
const firstAt = (events: ReadonlyArray<AuditEvent>, match: (e: AuditEvent) => boolean, when: "received" | "answered" = "answered") => {
  const found = events.find(match)
  return found === undefined ? NaN : Date.parse(when === "received" ? found.requestReceivedTimestamp : found.stageTimestamp)
}
const ref = (e: AuditEvent, verb: string | ReadonlyArray<string>, resource: string, name: string, subresource?: string) =>
  (typeof verb === "string" ? e.verb === verb : verb.includes(e.verb)) &&
  e.objectRef?.resource === resource && e.objectRef.name === name &&
  (e.objectRef.subresource ?? "") === (subresource ?? "") && (e.responseStatus?.code ?? 0) < 300
const by = (e: AuditEvent, user: RegExp) => user.test(e.user.username)

const SCHEDULER = /^system:kube-scheduler$/u
const EPHEMERAL = /:ephemeral-volume-controller$/u
const PV_BINDER = /:persistent-volume-binder$/u
const CONTROLLER_SA = new RegExp(`^system:serviceaccount:${OPERATOR_NAMESPACE}:.*-controller$`, "u")
const NODE_SA = new RegExp(`^system:serviceaccount:${OPERATOR_NAMESPACE}:.*-node$`, "u")

const STAGES = [
  "Pod created → PVC created (ephemeral-volume controller)",
  "PVC created → node selected (scheduler)",
  "node selected → PV created (csi-provisioner, CreateVolume)",
  "PV created → PVC bound (PV controller)",
  "PVC bound → Pod bound (scheduler: PreBind poll, binding)",
  "Pod bound → NodePublishVolume starts (kubelet)",
  "NodePublishVolume starts → Listener applied (node plugin)",
  "Listener applied → Service applied (controller)",
  "Service applied → Listener status applied (controller)",
  "status applied → PodListeners written, publish done (node plugin)",
  "publish done → Ready (kubelet: mount, container, readiness)"
] as const

const main = async () => {
  const operator = await startOperatorCluster({ nodes: [...NODES], auditLog: "all", values: VALUES })
  try {
    const kube = operator.cluster.kube
    await createNamespace(kube, NS)
    await kube.create(`${LISTENERS}/listenerclasses`, listenerClass("podstart-nodeport", { serviceType: "NodePort" }))

    const timeBatch = async (prefix: string, make: (name: string, node: string) => object) => {
      const created = new Map<string, number>()
      const ready = new Map<string, number>()
      await Promise.all(Array.from({ length: PODS }, async (_, i) => {
        const name = `${prefix}-${i}`
        created.set(name, Date.now())
        await kube.create(`/api/v1/namespaces/${NS}/pods`, make(name, NODES[i % NODES.length]!))
      }))
      const deadline = Date.now() + 300_000
      while (ready.size < PODS && Date.now() < deadline) {
        const list = await kube.list<KubeObject>(`/api/v1/namespaces/${NS}/pods`)
        for (const pod of list.items) {
          const name = pod.metadata.name!
          if (created.has(name) && !ready.has(name) && isPodReady(pod)) ready.set(name, Date.now())
        }
        await sleep(100)
      }
      if (ready.size < PODS) throw new Error(`${prefix}: only ${ready.size} of ${PODS} Pods became Ready`)
      return new Map([...ready].map(([name, at]): [string, Timed] => [name, { created: created.get(name)!, ready: at }]))
    }
    const durations = (timed: Map<string, Timed>) => [...timed.values()].map((t) => t.ready - t.created)

    const emptyDir = await timeBatch("empty", emptyDirPod)
    const listener = await timeBatch("listener", (name, node) => ephemeralPod(name, NS, "podstart-nodeport", node))
    await sleep(2000) // the audit log is written as requests complete
    const events = await kube.list<KubeObject>(`/api/v1/namespaces/${NS}/events`)
    const failedMounts = events.items.filter((e) => e["reason"] === "FailedMount" && String((e["involvedObject"] as { name?: string }).name).startsWith("listener-"))
    const audit = (await operator.cluster.plane.auditEvents()).filter((e) => e.objectRef?.namespace === NS || e.objectRef?.namespace === undefined)
    const pvcs = await kube.list<KubeObject>(`/api/v1/namespaces/${NS}/persistentvolumeclaims`)
    const pvcUid = new Map(pvcs.items.map((pvc) => [pvc.metadata.name!, pvc.metadata.uid!]))
    const pods = await kube.list<KubeObject>(`/api/v1/namespaces/${NS}/pods`)
    const podUid = new Map(pods.items.map((pod) => [pod.metadata.name!, pod.metadata.uid!]))

    // Stages of each listener Pod, from the audit log.
    const stageMs: number[][] = STAGES.map(() => [])
    for (const [pod, timed] of listener) {
      const pvc = `${pod}-listener`
      const pv = `pvc-${pvcUid.get(pvc) ?? "?"}`
      const at = [
        timed.created,
        firstAt(audit, (e) => ref(e, "create", "persistentvolumeclaims", pvc) && by(e, EPHEMERAL)),
        firstAt(audit, (e) => ref(e, ["update", "patch"], "persistentvolumeclaims", pvc) && by(e, SCHEDULER)),
        firstAt(audit, (e) => ref(e, "create", "persistentvolumes", pv) && by(e, CONTROLLER_SA)),
        firstAt(audit, (e) => ref(e, "update", "persistentvolumeclaims", pvc, "status") && by(e, PV_BINDER)),
        firstAt(audit, (e) => ref(e, "create", "pods", pod, "binding") && by(e, SCHEDULER)),
        firstAt(audit, (e) => ref(e, "get", "persistentvolumes", pv) && by(e, NODE_SA), "received"),
        firstAt(audit, (e) => ref(e, "patch", "listeners", pvc) && by(e, NODE_SA)),
        firstAt(audit, (e) => ref(e, "patch", "services", pvc) && by(e, CONTROLLER_SA)),
        firstAt(audit, (e) => ref(e, "patch", "listeners", pvc, "status") && by(e, CONTROLLER_SA)),
        firstAt(audit, (e) => ref(e, ["create", "patch"], "podlisteners", `pod-${podUid.get(pod) ?? "?"}`) && by(e, NODE_SA)),
        timed.ready
      ]
      for (let i = 0; i < STAGES.length; i++) {
        const ms = at[i + 1]! - at[i]!
        if (!Number.isNaN(ms)) stageMs[i]!.push(ms)
      }
    }

    const emptyMs = durations(emptyDir)
    const listenerMs = durations(listener)
    const row = (label: string, values: ReadonlyArray<number>) => `| ${label} | ${seconds(percentile(values, 50))} | ${seconds(percentile(values, 90))} |`
    console.log(`\nPod start, ${PODS} Pods each, 2 real nodes, node ${process.version}${VALUES.length > 0 ? `, --set ${VALUES.join(" ")}` : ""}`)
    console.log("| Pods | median Ready | p90 Ready |\n|---|---|---|")
    console.log(row("emptyDir", emptyMs))
    console.log(row("listener volume", listenerMs))
    console.log(`| difference | ${seconds(percentile(listenerMs, 50) - percentile(emptyMs, 50))} | ${seconds(percentile(listenerMs, 90) - percentile(emptyMs, 90))} |`)
    console.log(`FailedMount Events on the listener Pods: ${failedMounts.length}${failedMounts.length > 0 ? ` (${failedMounts.map((e) => String(e["message"])).slice(0, 3).join("; ")})` : ""}`)

    console.log(`\nStages of the ${PODS} listener Pods (audit log; n = Pods the stage was found for)`)
    console.log("| stage | median | p90 | n |\n|---|---|---|---|")
    STAGES.forEach((stage, i) => console.log(`| ${stage} | ${seconds(percentile(stageMs[i]!, 50))} | ${seconds(percentile(stageMs[i]!, 90))} | ${stageMs[i]!.length} |`))
    const emptyBound = [...emptyDir].map(([pod, t]) => firstAt(audit, (e) => ref(e, "create", "pods", pod, "binding") && by(e, SCHEDULER)) - t.created)
    const emptyReady = [...emptyDir].map(([pod, t]) => t.ready - firstAt(audit, (e) => ref(e, "create", "pods", pod, "binding") && by(e, SCHEDULER)))
    console.log(`\nemptyDir Pods: created → bound ${seconds(percentile(emptyBound, 50))} median (p90 ${seconds(percentile(emptyBound, 90))}); bound → Ready ${seconds(percentile(emptyReady, 50))} median (p90 ${seconds(percentile(emptyReady, 90))})`)

    // Who sent how many requests while the listener Pods started, and client-side throttling.
    const provisioner = audit.filter((e) => by(e, CONTROLLER_SA) && e.userAgent?.startsWith("csi-provisioner") === true && e.verb !== "watch")
    const byVerb = new Map<string, number>()
    for (const e of provisioner) byVerb.set(`${e.verb} ${e.objectRef?.resource ?? "?"}`, (byVerb.get(`${e.verb} ${e.objectRef?.resource ?? "?"}`) ?? 0) + 1)
    console.log(`csi-provisioner requests in the namespace and cluster-wide: ${JSON.stringify(Object.fromEntries(byVerb))}`)
    const controllerPod = (await kube.list<KubeObject>(`/api/v1/namespaces/${OPERATOR_NAMESPACE}/pods`, { labelSelector: "app.kubernetes.io/component=controller" })).items[0]
    if (controllerPod !== undefined) {
      const logs = await operator.cluster.plane.kubectl(["logs", "-n", OPERATOR_NAMESPACE, controllerPod.metadata.name!, "-c", "csi-provisioner"])
      const throttled = logs.stdout.split("\n").filter((line) => /client-side throttling/u.test(line))
      console.log(`csi-provisioner log: ${throttled.length} "client-side throttling" waits${throttled.length > 0 ? `, e.g. ${throttled.at(-1)!.slice(0, 200)}` : ""}`)
    }
    const publishes: number[] = []
    const codes = new Map<string, number>()
    for (const node of NODES) {
      const pod = await operator.nodePluginPod(node)
      const logs = await operator.cluster.plane.kubectl(["logs", "-n", OPERATOR_NAMESPACE, pod.metadata.name!, "-c", "node"])
      // JSON lines (the chart's logFormat): the server's "CSI call" record of each call.
      for (const line of logs.stdout.split("\n")) {
        if (!line.includes("NodePublishVolume") || !line.includes("durationMs")) continue
        try {
          const annotations = (JSON.parse(line) as { annotations?: { rpc?: string; code?: string; durationMs?: number } }).annotations
          if (annotations?.rpc === "/csi.v1.Node/NodePublishVolume" && typeof annotations.durationMs === "number") {
            publishes.push(annotations.durationMs)
            codes.set(annotations.code ?? "?", (codes.get(annotations.code ?? "?") ?? 0) + 1)
          }
        } catch {
          // not a JSON record
        }
      }
    }
    console.log(`NodePublishVolume calls in the node plugins' logs: ${publishes.length} ${JSON.stringify(Object.fromEntries(codes))}, duration median ${seconds(percentile(publishes, 50))}, p90 ${seconds(percentile(publishes, 90))}`)
  } finally {
    await operator.stop()
  }
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
