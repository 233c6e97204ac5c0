// What the node-restriction admission policies cost per write of a node plugin
// (docs/security.md "Costs of the choices", docs/performance.md "Admission cost"), on the
// real API server (test/envtest) with the chart's policies as `helm template` renders them:
// the three writes a node plugin makes — a PodListeners merge patch, an apply of a
// per-volume Listener (new ports), the node-published mark on a Pod — in a namespace with 10 and one
// with 1,000 Pods, while the cluster has 10 and then 1,000 PersistentVolumes of another
// CSI driver. Each cell: wall time of the request (median, p99 of N samples) and the API
// server's own account of its ValidatingAdmissionPolicy plugin (apiserver_admission_controller_
// admission_duration_seconds{name="ValidatingAdmissionPolicy"}, every policy of the chart),
// as the difference of /metrics around the samples divided by the samples.
//
// Configurations: the node policies off ("none": the request's own cost), the chart's
// defaults, and — where the chart still has that policy — nodeAdmissionPolicy.podListenersByPod=true.
// Every object the node writes is made beforehand by the admin, bound to node-a
// (listeners.stackable.tech/bound-node), so the same writes are measured whatever the
// chart's design. Requests: the policies add none (nothing calls a webhook).
//
//   node --import tsx bench/nodePolicies.bench.ts [samples=30] [bigPods=1000] [bigPvs=1000]
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { binary, binDir } from "../test/envtest/binDir.ts"
import { startControlPlane } from "../test/envtest/controlPlane.ts"
import { createNamespace, eventually, KubeClient } from "../test/envtest/kubeClient.ts"
import type { KubeObject } from "../test/envtest/kubeClient.ts"

const SAMPLES = Number(process.argv[2] ?? 30)
const BIG_PODS = Number(process.argv[3] ?? 1000)
const BIG_PVS = Number(process.argv[4] ?? 1000)
const SMALL = 10
// BENCH_CHART: another checkout's chart (to compare a branch's policies with this one's).
const CHART = process.env["BENCH_CHART"] ?? join(import.meta.dirname, "..", "deploy", "helm", "listener-operator")
const LISTENERS = "/apis/listeners.stackable.tech/v1alpha1"
const DRIVER = "listeners.stackable.tech"
const CSI_NODE_MANAGER = "listeners.stackable.tech_csi-node"
const BOUND_NODE = "listeners.stackable.tech/bound-node"
const CLASS = "bench-cluster"
const NAMESPACES = { small: `pods-${SMALL}`, big: `pods-${BIG_PODS}` } as const

const render = (...set: ReadonlyArray<string>): string =>
  execFileSync(binary("helm", binDir()), ["template", "listener-operator", CHART, "--namespace", "listener-operator", "--include-crds", ...set.flatMap((s) => ["--set", s])], {
    encoding: "utf8",
    env: { ...process.env, HELM_CACHE_HOME: "/tmp/helm-cache", HELM_CONFIG_HOME: "/tmp/helm-config", HELM_DATA_HOME: "/tmp/helm-data" }
  })
// The opt-in Pod-parameter policy, where the chart still has one (a no-op value renders the same).
const hasPodParamsPolicy = render("nodeAdmissionPolicy.podListenersByPod=true") !== render()
const CONFIGS: ReadonlyArray<{ name: string; values: ReadonlyArray<string> }> = [
  { name: "none", values: ["nodeAdmissionPolicy.enabled=false"] },
  { name: "defaults", values: [] },
  ...(hasPodParamsPolicy ? [{ name: "podListenersByPod", values: ["nodeAdmissionPolicy.podListenersByPod=true"] }] : [])
]

const quantile = (xs: ReadonlyArray<number>, q: number): number => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
}
const loadAverage = (): string => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")

/** Sums of the series of `name` (a histogram's _sum or _count) by the value of `label`. */
const seriesBy = (text: string, name: string, label: string, filter: (line: string) => boolean = () => true): Map<string, number> => {
  const out = new Map<string, number>()
  for (const line of text.split("\n")) {
    if (!(line.startsWith(`${name}{`) || line.startsWith(`${name} `)) || !filter(line)) continue
    const key = new RegExp(`${label}="([^"]*)"`, "u").exec(line)?.[1] ?? ""
    out.set(key, (out.get(key) ?? 0) + Number(line.slice(line.lastIndexOf(" ") + 1)))
  }
  return out
}
// Only refusals are recorded per policy by this API server (v1.36.1:
// apiserver_validating_admission_policy_check_duration_seconds has error_type="invalid_error"
// series only), so an admitted write is measured by the whole plugin's time.
const ADMISSION_PLUGIN = "apiserver_admission_controller_admission_duration_seconds"
const vapSeconds = (text: string): number =>
  [...seriesBy(text, `${ADMISSION_PLUGIN}_sum`, "name", (line) => line.includes(`name="ValidatingAdmissionPolicy"`)).values()].reduce((a, b) => a + b, 0)

const plane = await startControlPlane()
const admin = plane.kube
let node: KubeClient | undefined

try {
  const firstMetrics = await plane.metrics()
  const names = [...new Set(firstMetrics.split("\n").filter((l) => !l.startsWith("#") && /admission/u.test(l)).map((l) => l.replace(/[{ ].*/u, "").replace(/_(bucket|sum|count)$/u, "")))]
  console.error(`admission metrics of this API server: ${names.join(", ")}`)

  for (const ns of ["listener-operator", NAMESPACES.small, NAMESPACES.big]) await createNamespace(admin, ns, { waitForServiceAccount: false })
  for (const ns of ["listener-operator", NAMESPACES.small, NAMESPACES.big]) await admin.create(`/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: "default" } }).catch(() => undefined)
  for (const name of ["node-a", "node-b"]) await admin.create("/api/v1/nodes", { apiVersion: "v1", kind: "Node", metadata: { name } })
  // The CRDs and RBAC (the node policies come and go per configuration).
  const applied = await plane.kubectl(["apply", "--server-side", "-f", "-"], render("nodeAdmissionPolicy.enabled=false"))
  if (applied.code !== 0) throw new Error(applied.stderr)
  await eventually("the CRDs serve", async () => (await admin.list(`${LISTENERS}/listeners`).then(() => true, () => false)), { timeoutMs: 60_000, intervalMs: 500 })
  await admin.create(`${LISTENERS}/listenerclasses`, { apiVersion: "listeners.stackable.tech/v1alpha1", kind: "ListenerClass", metadata: { name: CLASS }, spec: { serviceType: "ClusterIP" } })

  const pod = (ns: string, name: string, nodeName = "node-a", sa = "default") => ({
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: ns, labels: { app: "bench" } },
    spec: { nodeName, serviceAccountName: sa, containers: [{ name: "c", image: "registry.invalid/c:1", ports: [{ name: "http", containerPort: 8080 }] }] }
  })
  const createPods = async (ns: string, count: number): Promise<void> => {
    for (let i = 0; i < count; i += 50) {
      await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, j) => admin.create(`/api/v1/namespaces/${ns}/pods`, pod(ns, `p-${i + j}`))))
    }
  }
  const foreignPv = (i: number) => ({
    apiVersion: "v1",
    kind: "PersistentVolume",
    metadata: { name: `foreign-${i}` },
    spec: { capacity: { storage: "1Gi" }, accessModes: ["ReadWriteOnce"], csi: { driver: "disk.example.com", volumeHandle: `disk-${i}` } }
  })
  let foreignPvs = 0
  const growForeignPvs = async (to: number): Promise<void> => {
    for (; foreignPvs < to; foreignPvs += 50) {
      await Promise.all(Array.from({ length: Math.min(50, to - foreignPvs) }, (_, j) => admin.create("/api/v1/persistentvolumes", foreignPv(foreignPvs + j))))
    }
    foreignPvs = to
  }
  const started = Date.now()
  await createPods(NAMESPACES.small, SMALL)
  await createPods(NAMESPACES.big, BIG_PODS)
  await growForeignPvs(SMALL)
  console.error(`${SMALL + BIG_PODS} Pods, ${SMALL} foreign PVs created in ${((Date.now() - started) / 1000).toFixed(1)} s`)

  // What node-a's plugin writes in each namespace, made by the admin and bound to node-a:
  // the PodListeners of p-0, and the per-volume Listener of p-0's volume (its PV of our driver).
  const pvOwner = (pv: KubeObject) => ({ apiVersion: "v1", kind: "PersistentVolume", name: pv.metadata.name, uid: pv.metadata.uid })
  const targets = new Map<string, { pod: KubeObject; podListeners: string; listener: string; pvOwner: ReturnType<typeof pvOwner> }>()
  for (const ns of Object.values(NAMESPACES)) {
    const owner = await admin.get(`/api/v1/namespaces/${ns}/pods/p-0`)
    const podListeners = `pod-${owner.metadata.uid}`
    await admin.create(`${LISTENERS}/namespaces/${ns}/podlisteners`, {
      apiVersion: "listeners.stackable.tech/v1alpha1",
      kind: "PodListeners",
      metadata: { name: podListeners, namespace: ns, labels: { [BOUND_NODE]: "node-a" }, ownerReferences: [{ apiVersion: "v1", kind: "Pod", name: "p-0", uid: owner.metadata.uid }] },
      spec: { listeners: {} }
    })
    const pv = await admin.create<KubeObject>("/api/v1/persistentvolumes", {
      apiVersion: "v1",
      kind: "PersistentVolume",
      metadata: { name: `ours-${ns}` },
      spec: {
        capacity: { storage: "1" },
        accessModes: ["ReadWriteMany"],
        storageClassName: DRIVER,
        claimRef: { apiVersion: "v1", kind: "PersistentVolumeClaim", namespace: ns, name: "p-0-listener" },
        csi: { driver: DRIVER, volumeHandle: `ours-${ns}`, volumeAttributes: { "listeners.stackable.tech/listener-class": CLASS } }
      }
    })
    await admin.patch(`${LISTENERS}/namespaces/${ns}/listeners/p-0-listener`, {
      apiVersion: "listeners.stackable.tech/v1alpha1",
      kind: "Listener",
      metadata: { name: "p-0-listener", namespace: ns, ownerReferences: [pvOwner(pv)] },
      spec: { className: CLASS, ports: [{ name: "http", port: 8080, protocol: "TCP" }] }
    }, "apply", { fieldManager: CSI_NODE_MANAGER, force: true })
    // The binding label, by another manager (the controller's), as the plugin's apply never sets it.
    await admin.patch(`${LISTENERS}/namespaces/${ns}/listeners/p-0-listener`, { metadata: { labels: { [BOUND_NODE]: "node-a" } } }, "merge")
    targets.set(ns, { pod: owner, podListeners, listener: "p-0-listener", pvOwner: pvOwner(pv) })
  }

  // node-a's plugin: a token bound to its Pod on node-a, as the kubelet mounts it.
  const pluginPod = await admin.create<KubeObject>(`/api/v1/namespaces/listener-operator/pods`, pod("listener-operator", "plugin", "node-a", "listener-operator-node"))
  const token = (await admin.create<{ status: { token: string } }>("/api/v1/namespaces/listener-operator/serviceaccounts/listener-operator-node/token", {
    apiVersion: "authentication.k8s.io/v1",
    kind: "TokenRequest",
    spec: { expirationSeconds: 7200, boundObjectRef: { apiVersion: "v1", kind: "Pod", name: "plugin", uid: pluginPod.metadata.uid } }
  })).status.token
  node = new KubeClient({ server: plane.server, caPem: admin.connection.caPem, token })
  const nodeClient = node

  const writes = {
    podListenersPatch: (ns: string, i: number) =>
      nodeClient.patch(`${LISTENERS}/namespaces/${ns}/podlisteners/${targets.get(ns)!.podListeners}`,
        { spec: { listeners: { "p-0-listener": { scope: "Cluster", ingressAddresses: [{ address: `10.0.${i % 250}.1`, addressType: "IP", ports: { http: 8080 } }] } } } }, "merge"),
    perVolumeListenerApply: (ns: string, i: number) =>
      nodeClient.patch(`${LISTENERS}/namespaces/${ns}/listeners/p-0-listener`, {
        apiVersion: "listeners.stackable.tech/v1alpha1",
        kind: "Listener",
        metadata: { name: "p-0-listener", namespace: ns, ownerReferences: [targets.get(ns)!.pvOwner] },
        spec: { className: CLASS, ports: [{ name: "http", port: 8080 + (i % 2), protocol: "TCP" }] }
      }, "apply", { fieldManager: CSI_NODE_MANAGER, force: true }),
    // The node plugin's one Pod write since the controller sets the mount labels: the mark
    // (always node-a: the only value the policy admits; the update is admitted, and checked, each time).
    podMarkPatch: (ns: string, _i: number) =>
      nodeClient.patch(`/api/v1/namespaces/${ns}/pods/p-0`, { metadata: { labels: { "listeners.stackable.tech/node-published": "node-a" } } }, "merge")
  } as const

  /** The node policies of `config` and nothing else of them; resolves once they are in effect. */
  const switchTo = async (config: (typeof CONFIGS)[number]): Promise<void> => {
    const removed = await plane.kubectl(["delete", "validatingadmissionpolicies,validatingadmissionpolicybindings", "-l", "app.kubernetes.io/component=node", "--ignore-not-found", "--wait"])
    if (removed.code !== 0) throw new Error(removed.stderr)
    const result = await plane.kubectl(["apply", "--server-side", "-f", "-"], render(...config.values))
    if (result.code !== 0) throw new Error(result.stderr)
    // In effect (or gone) once a foreign label on node-a's own Pod is refused (or admitted).
    const refusesForeignLabel = config.name !== "none"
    await eventually(`the policies of ${config.name} in effect`, async () => {
      const refused = await nodeClient.patch(`/api/v1/namespaces/${NAMESPACES.small}/pods/p-0`, { metadata: { labels: { "bench.example.com/probe": "x" } } }, "merge", { dryRun: "All" }).then(() => false, () => true)
      return refused === refusesForeignLabel
    }, { timeoutMs: 120_000, intervalMs: 500 })
    // Parameter informers (PVs, Pods) start with the policy: let them fill.
    await new Promise((r) => setTimeout(r, 5000))
  }

  const rows: Array<Record<string, unknown>> = []
  const measure = async (config: string): Promise<void> => {
    for (const [size, ns] of Object.entries(NAMESPACES)) {
      for (const [write, run] of Object.entries(writes)) {
        await run(ns, SAMPLES + 1) // warm: the first write of a kind after a switch
        const before = vapSeconds(await plane.metrics())
        const times: number[] = []
        for (let i = 0; i < SAMPLES; i++) {
          const t0 = performance.now()
          await run(ns, i)
          times.push(performance.now() - t0)
        }
        const after = vapSeconds(await plane.metrics())
        const row = {
          config,
          podsInNamespace: size === "small" ? SMALL : BIG_PODS,
          foreignPvs,
          write,
          wallMedianMs: +quantile(times, 0.5).toFixed(2),
          wallP99Ms: +quantile(times, 0.99).toFixed(2),
          vapPluginMsPerWrite: +(((after - before) * 1000) / SAMPLES).toFixed(3),
          load: loadAverage()
        }
        rows.push(row)
        console.error(JSON.stringify(row))
      }
    }
  }

  for (const pvs of [SMALL, BIG_PVS]) {
    await growForeignPvs(pvs)
    for (const config of CONFIGS) {
      await switchTo(config)
      await measure(config.name)
    }
  }
  const lastMetrics = await plane.metrics()
  console.error(`admission policy metrics at the end:\n${lastMetrics.split("\n").filter((l) => !l.startsWith("#") && /admission_policy_check_(total|duration_seconds_(sum|count))/u.test(l)).join("\n")}`)
  console.log(JSON.stringify({ samples: SAMPLES, loadAverageAtEnd: loadAverage(), rows }, null, 1))
} finally {
  node?.close()
  await plane.stop()
}
