/**
 * Benchmark: what a listener volume adds to a Pod's start, on the real-node cluster of the
 * end-to-end suite (test/realnodes: real kubelets and containerd, the chart-installed image).
 *
 *   flock /tmp/lo-suite.lock node --import tsx bench/podStart.bench.ts [pods=20]
 *
 * `pods` Pods with an emptyDir at /listener are created at once (spread over the two nodes)
 * and timed from their creation until Ready; then `pods` identical Pods whose /listener is a
 * listener volume (generic ephemeral, a per-volume NodePort Listener each). Ready time is
 * measured here (creation request sent → Ready seen, polled every 100 ms), not from the
 * API's second-resolution timestamps. Reports median and p90 of both and their difference,
 * and how many FailedMount Events the listener Pods got (0 when every first publish succeeds).
 */
import { createNamespace } from "../test/envtest/kubeClient.ts"
import type { KubeObject } from "../test/envtest/kubeClient.ts"
import { isPodReady } from "../test/envtest/localCluster.ts"
import { startOperatorCluster } from "../test/realnodes/operatorCluster.ts"
import { ephemeralPod, listenerClass } from "../test/e2e/workloads.ts"

const PODS = Number(process.argv[2] ?? 20)
const NODES = ["node-a", "node-b"] as const
const NS = "podstart"
const LISTENERS = "/apis/listeners.stackable.tech/v1alpha1"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN
}

const emptyDirPod = (name: string, node: string) => {
  const pod = ephemeralPod(name, NS, "unused", node) as unknown as { spec: { volumes: unknown[] } }
  return { ...pod, spec: { ...pod.spec, volumes: [{ name: "listener", emptyDir: {} }] } }
}

const main = async () => {
  const operator = await startOperatorCluster({ nodes: [...NODES] })
  try {
    const kube = operator.cluster.kube
    await createNamespace(kube, NS)
    await kube.create(`${LISTENERS}/listenerclasses`, listenerClass("podstart-nodeport", { serviceType: "NodePort" }))

    const timeBatch = async (prefix: string, make: (name: string, node: string) => object) => {
      const created = new Map<string, number>()
      const ready = new Map<string, number>()
      await Promise.all(Array.from({ length: PODS }, async (_, i) => {
        const name = `${prefix}-${i}`
        created.set(name, performance.now())
        await kube.create(`/api/v1/namespaces/${NS}/pods`, make(name, NODES[i % NODES.length]!))
      }))
      const deadline = performance.now() + 300_000
      while (ready.size < PODS && performance.now() < deadline) {
        const list = await kube.list<KubeObject>(`/api/v1/namespaces/${NS}/pods`)
        for (const pod of list.items) {
          const name = pod.metadata.name!
          if (created.has(name) && !ready.has(name) && isPodReady(pod)) ready.set(name, performance.now() - created.get(name)!)
        }
        await sleep(100)
      }
      if (ready.size < PODS) throw new Error(`${prefix}: only ${ready.size} of ${PODS} Pods became Ready`)
      return [...ready.values()]
    }

    const emptyDir = await timeBatch("empty", emptyDirPod)
    const listener = await timeBatch("listener", (name, node) => ephemeralPod(name, NS, "podstart-nodeport", node))
    const events = await kube.list<KubeObject>(`/api/v1/namespaces/${NS}/events`)
    const failedMounts = events.items.filter((e) => e["reason"] === "FailedMount" && String((e["involvedObject"] as { name?: string }).name).startsWith("listener-"))
    const row = (label: string, values: ReadonlyArray<number>) =>
      `| ${label} | ${(percentile(values, 50) / 1000).toFixed(2)} s | ${(percentile(values, 90) / 1000).toFixed(2)} s |`
    console.log(`\nPod start, ${PODS} Pods each, 2 real nodes, node ${process.version}`)
    console.log("| Pods | median Ready | p90 Ready |\n|---|---|---|")
    console.log(row("emptyDir", emptyDir))
    console.log(row("listener volume", listener))
    console.log(`| difference | ${((percentile(listener, 50) - percentile(emptyDir, 50)) / 1000).toFixed(2)} s | ${((percentile(listener, 90) - percentile(emptyDir, 90)) / 1000).toFixed(2)} s |`)
    console.log(`FailedMount Events on the listener Pods: ${failedMounts.length}${failedMounts.length > 0 ? ` (${failedMounts.map((e) => String(e["message"])).slice(0, 3).join("; ")})` : ""}`)
  } finally {
    await operator.stop()
  }
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
