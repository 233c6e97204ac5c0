// What the node-restriction admission policies cost (docs/security.md "Costs of the
// choices"), on the real API server (test/envtest): the API server's memory (its own
// process_resident_memory_bytes) with many Pods, before the chart's policies, with the
// policies but without the Pod-parameter policy (nodeAdmissionPolicy.podListenersByPod=false),
// and with it; and the time of a node plugin's PodListeners write in a namespace with many
// Pods against one with a single Pod (the Pod-parameter policy is evaluated once per Pod of
// the namespace). Requests: the policies add none (nothing calls a webhook; the plugin's
// writes are the same requests).
//
//   node --import tsx bench/nodePolicies.bench.ts [pods=2000] [samples=30]
import { execFileSync } from "node:child_process"
import { join } from "node:path"
import { binary, binDir } from "../test/envtest/binDir.ts"
import { startControlPlane } from "../test/envtest/controlPlane.ts"
import { createNamespace, eventually, KubeClient } from "../test/envtest/kubeClient.ts"
import type { KubeObject } from "../test/envtest/kubeClient.ts"

const POD_COUNT = Number(process.argv[2] ?? 2000)
const SAMPLES = Number(process.argv[3] ?? 30)
const CHART = join(import.meta.dirname, "..", "deploy", "helm", "listener-operator")
const GROUP = "/apis/listeners.stackable.tech/v1alpha1"

const render = (...set: ReadonlyArray<string>): string =>
  execFileSync(binary("helm", binDir()), ["template", "listener-operator", CHART, "--namespace", "listener-operator", "--include-crds", ...set.flatMap((s) => ["--set", s])], {
    encoding: "utf8",
    env: { ...process.env, HELM_CACHE_HOME: "/tmp/helm-cache", HELM_CONFIG_HOME: "/tmp/helm-config", HELM_DATA_HOME: "/tmp/helm-data" }
  })

const plane = await startControlPlane()
const admin = plane.kube
const rssMiB = async (): Promise<number> => {
  // Let the informers settle, then read the server's own figure.
  await new Promise((r) => setTimeout(r, 5000))
  const match = /^process_resident_memory_bytes (\S+)$/mu.exec(await plane.metrics())
  return Math.round(Number(match?.[1]) / 1024 / 1024)
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

try {
  await createNamespace(admin, "listener-operator", { waitForServiceAccount: false })
  for (const ns of ["many", "one"]) await createNamespace(admin, ns, { waitForServiceAccount: false })
  for (const ns of ["listener-operator", "many", "one"]) await admin.create(`/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: "default" } }).catch(() => undefined)
  await admin.create("/api/v1/nodes", { apiVersion: "v1", kind: "Node", metadata: { name: "node-a" } })
  const pod = (ns: string, name: string, sa = "default") => ({
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: ns, labels: { app: "bench" } },
    spec: { nodeName: "node-a", serviceAccountName: sa, containers: [{ name: "c", image: "registry.invalid/c:1", ports: [{ name: "http", containerPort: 8080 }] }] }
  })
  const started = Date.now()
  for (let i = 0; i < POD_COUNT; i += 50) {
    await Promise.all(Array.from({ length: Math.min(50, POD_COUNT - i) }, (_, j) => admin.create(`/api/v1/namespaces/many/pods`, pod("many", `p-${i + j}`))))
  }
  const onePod = await admin.create<KubeObject>(`/api/v1/namespaces/one/pods`, pod("one", "only"))
  console.log(`${POD_COUNT} Pods created in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  const baseline = await rssMiB()

  const withoutPods = render("nodeAdmissionPolicy.podListenersByPod=false")
  const applied = await plane.kubectl(["apply", "--server-side", "-f", "-"], withoutPods)
  if (applied.code !== 0) throw new Error(applied.stderr)
  const pluginPod = await admin.create<KubeObject>(`/api/v1/namespaces/listener-operator/pods`, pod("listener-operator", "plugin", "listener-operator-node"))
  const token = (await admin.create<{ status: { token: string } }>("/api/v1/namespaces/listener-operator/serviceaccounts/listener-operator-node/token", {
    apiVersion: "authentication.k8s.io/v1",
    kind: "TokenRequest",
    spec: { expirationSeconds: 3600, boundObjectRef: { apiVersion: "v1", kind: "Pod", name: "plugin", uid: pluginPod.metadata.uid } }
  })).status.token
  const node = new KubeClient({ server: plane.server, caPem: admin.connection.caPem, token })
  const withoutPodParams = await rssMiB()

  /** A node plugin's PodListeners write (create, then the same merge patch as a refresh). */
  const timeWrites = async (ns: string, owner: KubeObject): Promise<number> => {
    const name = `pod-${owner.metadata.uid}`
    await node.create(`${GROUP}/namespaces/${ns}/podlisteners`, {
      apiVersion: "listeners.stackable.tech/v1alpha1",
      kind: "PodListeners",
      metadata: { name, namespace: ns, ownerReferences: [{ apiVersion: "v1", kind: "Pod", name: owner.metadata.name, uid: owner.metadata.uid }] },
      spec: { listeners: {} }
    }).catch(() => undefined)
    const times: number[] = []
    for (let i = 0; i < SAMPLES; i++) {
      const t0 = performance.now()
      await node.patch(`${GROUP}/namespaces/${ns}/podlisteners/${name}`, { spec: { listeners: { v: { scope: "Node", ingressAddresses: [{ address: `10.0.${i % 250}.1`, addressType: "IP", ports: { http: 30000 } }] } } } }, "merge")
      times.push(performance.now() - t0)
    }
    return median(times)
  }
  const manyOwner = await admin.get(`/api/v1/namespaces/many/pods/p-0`)
  const writeWithout = { many: await timeWrites("many", manyOwner), one: await timeWrites("one", onePod) }

  const applyAll = await plane.kubectl(["apply", "--server-side", "-f", "-"], render())
  if (applyAll.code !== 0) throw new Error(applyAll.stderr)
  // In effect once a PodListeners of a Pod on another node is refused.
  await admin.create("/api/v1/nodes", { apiVersion: "v1", kind: "Node", metadata: { name: "node-b" } })
  const elsewhere = await admin.create<KubeObject>(`/api/v1/namespaces/one/pods`, { ...pod("one", "elsewhere"), spec: { ...pod("one", "elsewhere").spec, nodeName: "node-b" } })
  await eventually("the Pod-parameter policy is in effect", async () => {
    try {
      await node.create(`${GROUP}/namespaces/one/podlisteners`, {
        apiVersion: "listeners.stackable.tech/v1alpha1",
        kind: "PodListeners",
        metadata: { name: `pod-${elsewhere.metadata.uid}`, namespace: "one", ownerReferences: [{ apiVersion: "v1", kind: "Pod", name: "elsewhere", uid: elsewhere.metadata.uid }] },
        spec: { listeners: {} }
      }, { dryRun: "All" })
      return false
    } catch {
      return true
    }
  }, { timeoutMs: 120_000, intervalMs: 1000 })
  const withPodParams = await rssMiB()
  const writeWith = { many: await timeWrites("many", manyOwner), one: await timeWrites("one", onePod) }
  node.close()

  console.log(JSON.stringify({
    pods: POD_COUNT,
    apiserverRssMiB: { baseline, policiesWithoutPodParams: withoutPodParams, policiesWithPodParams: withPodParams },
    podListenersPatchMedianMs: {
      withoutPodParams: { [`namespaceWith${POD_COUNT}Pods`]: +writeWithout.many.toFixed(2), namespaceWith1Pod: +writeWithout.one.toFixed(2) },
      withPodParams: { [`namespaceWith${POD_COUNT}Pods`]: +writeWith.many.toFixed(2), namespaceWith1Pod: +writeWith.one.toFixed(2) }
    }
  }, null, 2))
} finally {
  await plane.stop()
}
