/**
 * Benchmark: the node plugin at scale against the real API server (test/envtest), issue 21.
 *
 *   node --expose-gc --import tsx bench/nodeScale.bench.ts [nodes=200] [volumesPerNode=20] [restSeconds=600] [nodeChanges=10]
 *
 * `nodes` node roles (each its own Node object, HTTP client, watches, CSI socket and state
 * directory), composed in this process with our controller role (test/envtest/nodeFleet.ts).
 * Each node gets `volumesPerNode` volumes: one bound to the shared LoadBalancer Listener
 * `shared-lb` (listener-name), the others of a per-volume Listener (listener-class) — of a
 * NodePort class for up to 2,400 in all (the node port range 30000–32767 holds 2,768), of a
 * headless ClusterIP class for the rest.
 * Volumes are published through each plugin's CSI socket with the kubelet's request.
 *
 * Reports, counted by the API server (`apiserver_request_total` before/after, by verb and
 * resource; `apiserver_longrunning_requests` for the watches held):
 * (a) requests per NodePublishVolume (node plugin and controller apart by resource), and how
 *     many first publishes failed (UNAVAILABLE into the kubelet's back-off);
 * (b) requests from the node roles at rest over `restSeconds`, per second;
 * (c) watches held;
 * (d) address change → new files in every affected volume: a Node's address (`nodeChanges`
 *     nodes, one after the other; its NodePort volumes) and the shared load balancer's
 *     ingress (one volume on every node), p50/p99 over volumes;
 * (e) heap and RSS of the process before and after the node roles published their volumes
 *     (run with nodes=1 to read one node role's memory with 20 or 200 volumes).
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { countsDiff, FLEET_CLASSES, FLEET_NAMESPACE, requestTotals, startNodeFleet, watchesHeld } from "../test/envtest/nodeFleet.ts"
import type { FleetVolume } from "../test/envtest/nodeFleet.ts"
import { eventually } from "../test/envtest/kubeClient.ts"

const NODES = Number(process.argv[2] ?? 200)
const PER_NODE = Number(process.argv[3] ?? 20)
const REST_SECONDS = Number(process.argv[4] ?? 600)
const NODE_CHANGES = Math.min(Number(process.argv[5] ?? 10), NODES)
const LISTENERS = "/apis/listeners.stackable.tech/v1alpha1"
// The node port range holds 2,768 ports (envtest's /16 Service CIDR far more cluster IPs):
// NodePort volumes per node are capped so the fleet has at most 2,400 NodePort Services; the
// other per-volume Listeners are headless.
const NODEPORT_PER_NODE = Math.max(1, Math.min(PER_NODE - 1, Math.floor(2400 / NODES)))

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`
const memory = () => {
  ;(globalThis as { gc?: () => void }).gc?.()
  ;(globalThis as { gc?: () => void }).gc?.()
  return process.memoryUsage()
}
const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const inBatches = async <T>(items: ReadonlyArray<T>, concurrency: number, work: (item: T) => Promise<void>) => {
  let next = 0
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) await work(items[next++]!)
  }))
}
const table = (title: string, counts: Map<string, number>, divisor: number, unit: string) => {
  console.log(`\n${title}`)
  console.log(`| request (verb resource) | API server count | ${unit} |\n|---|---|---|`)
  for (const [key, value] of [...counts].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`| ${key} | ${value} | ${(value / divisor).toFixed(4)} |`)
  }
}
const NODE_SIDE = /^(\S+) (persistentvolumes|persistentvolumeclaims|pods|nodes|listeners|listenerclasses|podlisteners|events)$/u

const addressOf = (volume: FleetVolume): string | undefined => {
  try {
    return readFileSync(join(volume.targetPath, "default-address", "address"), "utf8")
  } catch {
    return undefined
  }
}

/** Per volume: ms from `startedAt` until its file shows `address`. */
const latencies = async (volumes: ReadonlyArray<FleetVolume>, address: (volume: FleetVolume) => string, startedAt: number, timeoutMs = 60_000) => {
  const done = new Map<FleetVolume, number>()
  while (done.size < volumes.length && performance.now() - startedAt < timeoutMs) {
    for (const volume of volumes) {
      if (!done.has(volume) && addressOf(volume) === address(volume)) done.set(volume, performance.now() - startedAt)
    }
    await sleep(5)
  }
  if (done.size < volumes.length) throw new Error(`${volumes.length - done.size} volume(s) never showed the new address`)
  return [...done.values()]
}

const main = async () => {
  console.log(`node scale benchmark: ${NODES} node roles × ${PER_NODE} volumes, rest ${REST_SECONDS} s, node ${process.version}`)
  const fleet = await startNodeFleet({ nodes: NODES })
  try {
    const { kube, plane } = fleet
    const metrics = async () => plane.metrics()

    // The shared LoadBalancer Listener and its (pretended) cloud address.
    await kube.create(`${LISTENERS}/namespaces/${FLEET_NAMESPACE}/listeners`, {
      apiVersion: "listeners.stackable.tech/v1alpha1", kind: "Listener", metadata: { name: "shared-lb", namespace: FLEET_NAMESPACE },
      spec: { className: FLEET_CLASSES.loadBalancer, ports: [{ name: "http", port: 8080 }] }
    })
    const serviceName = await eventually("shared-lb's Service", async () => {
      const listener = await kube.get(`${LISTENERS}/namespaces/${FLEET_NAMESPACE}/listeners/shared-lb`)
      return (listener.status as { serviceName?: string } | undefined)?.serviceName
    }, { timeoutMs: 60_000, intervalMs: 200 })
    const setIngress = (ip: string) =>
      kube.patch(`/api/v1/namespaces/${FLEET_NAMESPACE}/services/${serviceName}/status`, { status: { loadBalancer: { ingress: [{ ip }] } } }, "merge")
    await setIngress("198.51.100.1")
    await eventually("shared-lb addressed", async () => {
      const listener = await kube.get(`${LISTENERS}/namespaces/${FLEET_NAMESPACE}/listeners/shared-lb`)
      return ((listener.status as { ingressAddresses?: unknown[] } | undefined)?.ingressAddresses ?? []).length > 0 ? true : undefined
    }, { timeoutMs: 60_000, intervalMs: 200 })

    // Volumes, as the provisioner and scheduler would leave them.
    const started = performance.now()
    const plan = fleet.nodeNames.flatMap((node, n) =>
      Array.from({ length: PER_NODE }, (_, v) => ({
        node,
        name: `v-${n}-${v}`,
        annotations: (v === 0
          ? { "listeners.stackable.tech/listener-name": "shared-lb" }
          : { "listeners.stackable.tech/listener-class": v <= NODEPORT_PER_NODE ? FLEET_CLASSES.nodePort : FLEET_CLASSES.headless }) as Record<string, string>
      }))
    )
    const volumes: FleetVolume[] = []
    await inBatches(plan, 16, async (item) => void volumes.push(await fleet.makeVolume(item.node, item.name, item.annotations)))
    console.log(`made ${volumes.length} PVC+PV+Pod in ${((performance.now() - started) / 1000).toFixed(1)} s`)

    const memoryBefore = memory()
    const rolesStarted = performance.now()
    await fleet.startNodeRoles()
    console.log(`started ${NODES} node roles in ${((performance.now() - rolesStarted) / 1000).toFixed(1)} s`)
    await sleep(3000)

    // (a) publishing
    const beforePublish = requestTotals(await metrics())
    const publishStarted = performance.now()
    const failures = new Map<string, number>()
    const publishMs: number[] = []
    await inBatches(volumes, 16, async (volume) => {
      const t0 = performance.now()
      let failure = await fleet.publish(volume)
      if (failure !== undefined) failures.set(failure.codeName, (failures.get(failure.codeName) ?? 0) + 1)
      // Retried as the kubelet does: exponential back-off from 500 ms.
      for (let attempt = 0; failure !== undefined; attempt++) {
        if (attempt >= 10) throw failure
        await sleep(500 * 2 ** attempt)
        failure = await fleet.publish(volume)
      }
      publishMs.push(performance.now() - t0)
    })
    const publishSeconds = (performance.now() - publishStarted) / 1000
    await sleep(3000)
    const publishing = countsDiff(beforePublish, requestTotals(await metrics()))
    table(`(a) publishing ${volumes.length} volumes (${publishSeconds.toFixed(1)} s; first-try failures: ${JSON.stringify(Object.fromEntries(failures))}; publish p50 ${percentile(publishMs, 50).toFixed(0)} ms, p99 ${percentile(publishMs, 99).toFixed(0)} ms)`, publishing, volumes.length, "per NodePublishVolume")
    const nodeSide = [...publishing].filter(([key]) => NODE_SIDE.test(key)).reduce((sum, [, v]) => sum + v, 0)
    console.log(`node-side requests per NodePublishVolume (PV, PVC, Pod, Node, Listener, class, PodListeners, Events): ${(nodeSide / volumes.length).toFixed(2)}`)
    const memoryAfter = memory()

    // (b) at rest, (c) watches
    await sleep(5000)
    const beforeRest = requestTotals(await metrics())
    console.log(`\nresting ${REST_SECONDS} s …`)
    await sleep(REST_SECONDS * 1000)
    const afterRestText = await metrics()
    const rest = countsDiff(beforeRest, requestTotals(afterRestText))
    table(`(b) at rest for ${REST_SECONDS} s, all clients (node roles + controller; nothing else runs)`, rest, REST_SECONDS, "per second")
    const held = watchesHeld(afterRestText)
    console.log(`\n(c) watches held by the API server: ${JSON.stringify(Object.fromEntries(held))} (${[...held.values()].reduce((a, b) => a + b, 0)} total, ${NODES} node roles + 1 controller)`)

    // (d) address changes
    const isNodePort = (volume: FleetVolume) => volume.pv.spec.csi.volumeAttributes["listeners.stackable.tech/listener-class"] === FLEET_CLASSES.nodePort
    const isShared = (volume: FleetVolume) => volume.pv.spec.csi.volumeAttributes["listeners.stackable.tech/listener-name"] === "shared-lb"
    const byNode = new Map<string, FleetVolume[]>()
    for (const volume of volumes) byNode.set(volume.node, [...(byNode.get(volume.node) ?? []), volume])
    const nodeLatencies: number[] = []
    const beforeChanges = requestTotals(await metrics())
    for (const node of fleet.nodeNames.slice(0, NODE_CHANGES)) {
      const newIp = `203.0.113.${1 + (fleet.nodeNames.indexOf(node) % 250)}`
      const t0 = performance.now()
      await kube.patch(`/api/v1/nodes/${node}/status`, { status: { addresses: [{ type: "InternalIP", address: newIp }, { type: "Hostname", address: node }] } }, "strategic")
      const affected = byNode.get(node)!.filter(isNodePort)
      nodeLatencies.push(...await latencies(affected, () => newIp, t0))
    }
    const nodeChangeRequests = countsDiff(beforeChanges, requestTotals(await metrics()))
    console.log(`\n(d1) Node address change → files: ${NODE_CHANGES} nodes × ${NODEPORT_PER_NODE} NodePort volumes: p50 ${percentile(nodeLatencies, 50).toFixed(0)} ms, p99 ${percentile(nodeLatencies, 99).toFixed(0)} ms, max ${Math.max(...nodeLatencies).toFixed(0)} ms`)
    table("requests during the Node address changes (incl. the benchmark's own status patches)", nodeChangeRequests, NODE_CHANGES * NODEPORT_PER_NODE, "per affected volume")

    const shared = volumes.filter(isShared)
    const beforeLb = requestTotals(await metrics())
    const t0 = performance.now()
    await setIngress("198.51.100.77")
    const lbLatencies = await latencies(shared, () => "198.51.100.77", t0)
    const lbRequests = countsDiff(beforeLb, requestTotals(await metrics()))
    console.log(`\n(d2) load balancer ingress change → files: ${shared.length} volumes on ${NODES} nodes: p50 ${percentile(lbLatencies, 50).toFixed(0)} ms, p99 ${percentile(lbLatencies, 99).toFixed(0)} ms, max ${Math.max(...lbLatencies).toFixed(0)} ms`)
    table("requests during the load balancer change (incl. the benchmark's status patch)", lbRequests, shared.length, "per affected volume")

    console.log(`\n(e) memory (after gc): before the node roles heap ${megabytes(memoryBefore.heapUsed)}, RSS ${megabytes(memoryBefore.rss)}; ${NODES} node roles with ${volumes.length} published volumes heap ${megabytes(memoryAfter.heapUsed)}, RSS ${megabytes(memoryAfter.rss)}; per node role heap ${megabytes((memoryAfter.heapUsed - memoryBefore.heapUsed) / NODES)}`)
  } finally {
    await fleet.stop()
  }
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
