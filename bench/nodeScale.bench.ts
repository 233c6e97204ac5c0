/**
 * Benchmark: the node plugin at scale against the real API server (test/envtest), issue 21.
 *
 *   node --expose-gc --import tsx bench/nodeScale.bench.ts [nodes=200] [volumesPerNode=20] [restSeconds=600] [nodeChanges=10] [--processes K]
 *
 * `nodes` node roles (each its own Node object, HTTP client, watches, CSI socket and state
 * directory; test/envtest/nodeFleet.ts) spread over K worker processes (default: as many as
 * hold at most 50 node roles each), and our controller role in a process of its own — as on
 * a real cluster, where each node plugin runs on its own node and the controller in its own
 * Pod. `--processes 0`: every role in this one process (the benchmark before, whose one
 * event loop made the address-change figures the machine's, not the product's).
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
 *     ingress (one volume on every node), p50/p99 over volumes, from just before the
 *     benchmark sends its write (the Node status patch, the Service status patch) to the
 *     moment the file shows the new address, seen by the process that holds the volume's
 *     node role (wall-clock ms, the same clock in every process); with the stages between
 *     (the write answered, the change seen on a watch of the benchmark's own — the Node, or
 *     the Listener's status written by the controller) and what else loaded the 2-core
 *     machine meanwhile: load average, CPU busy, each process's CPU time and event-loop
 *     delay (perf_hooks.monitorEventLoopDelay), the API server's and etcd's CPU time, and the
 *     node roles' CPU time per re-published volume (their processes' process.cpuUsage() over
 *     the window, divided by the volumes whose files changed);
 * (e) heap and RSS of each process before and after the node roles published their volumes
 *     (run with nodes=1 to read one node role's memory with 20 or 200 volumes).
 *
 * FLEET_CPU_PROFILE=<dir> has each node-role worker write a V8 CPU profile of each window
 * of (d) to <dir> (test/envtest/fleetWorker.ts).
 */
import { readdirSync, readFileSync } from "node:fs"
import { loadavg } from "node:os"
import { countsDiff, FLEET_CLASSES, FLEET_NAMESPACE, requestTotals, startNodeFleet, watchesHeld } from "../test/envtest/nodeFleet.ts"
import type { FleetVolume } from "../test/envtest/nodeFleet.ts"
import { eventually } from "../test/envtest/kubeClient.ts"
import type { KubeObject } from "../test/envtest/kubeClient.ts"
import { sampleProcess, wallClock } from "../test/envtest/fleetProbe.ts"

const flag = process.argv.indexOf("--processes")
const PROCESSES_ARG = flag < 0 ? undefined : Number(process.argv[flag + 1])
const args = flag < 0 ? process.argv.slice(2) : [...process.argv.slice(2, flag), ...process.argv.slice(flag + 2)]
const NODES = Number(args[0] ?? 200)
const PER_NODE = Number(args[1] ?? 20)
const REST_SECONDS = Number(args[2] ?? 600)
const NODE_CHANGES = Math.min(Number(args[3] ?? 10), NODES)
const PROCESSES = PROCESSES_ARG ?? Math.ceil(NODES / 50)
if (![NODES, PER_NODE, REST_SECONDS, NODE_CHANGES, PROCESSES].every((n) => Number.isInteger(n) && n >= 0) || NODES < 1 || PER_NODE < 1) {
  throw new Error("usage: nodeScale.bench.ts [nodes≥1] [volumesPerNode≥1] [restSeconds] [nodeChanges] [--processes K≥0]")
}
const LISTENERS = "/apis/listeners.stackable.tech/v1alpha1"
// The node port range holds 2,768 ports (envtest's /16 Service CIDR far more cluster IPs):
// NodePort volumes per node are capped so the fleet has at most 2,400 NodePort Services; the
// other per-volume Listeners are headless.
const NODEPORT_PER_NODE = Math.max(1, Math.min(PER_NODE - 1, Math.floor(2400 / NODES)))

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`
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

/** Machine-wide CPU jiffies (busy, total) from /proc/stat. */
const machineCpu = () => {
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/u).slice(1).map(Number)
  const total = fields.reduce((a, b) => a + b, 0)
  return { busy: total - fields[3]! - fields[4]!, total }
}
/** CPU seconds (user + system) of the control plane's etcd and kube-apiserver (children of this process). */
const planeCpu = (): Record<string, number> => {
  const cpu: Record<string, number> = {}
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/u.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8")
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"))
      const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      if (Number(rest[1]) !== process.pid || (comm !== "etcd" && comm !== "kube-apiserver")) continue
      cpu[comm] = (cpu[comm] ?? 0) + (Number(rest[11]) + Number(rest[12])) / 100
    } catch {
      // gone meanwhile
    }
  }
  return cpu
}

/** What loaded the machine during a measurement (window opened by `open`, read by `close`). */
const contention = async (fleet: Awaited<ReturnType<typeof startNodeFleet>>) => {
  await fleet.samples({ reset: true })
  sampleProcess({ reset: true })
  const cpu0 = machineCpu()
  const plane0 = planeCpu()
  const load0 = loadavg()
  const started = wallClock()
  return async () => {
    const seconds = (wallClock() - started) / 1000
    const cpu1 = machineCpu()
    const plane1 = planeCpu()
    const load1 = loadavg()
    const hosts = await fleet.samples({ reset: true })
    const bench = sampleProcess({ reset: true })
    const busy = (cpu1.busy - cpu0.busy) / Math.max(1, cpu1.total - cpu0.total)
    const lines = [
      `  machine: load average (1 min) ${load0[0]!.toFixed(1)} → ${load1[0]!.toFixed(1)}, CPU busy ${(busy * 100).toFixed(0)} % of 2 cores over ${seconds.toFixed(1)} s`,
      `  control plane CPU: ${Object.entries(plane1).map(([name, s]) => `${name} ${(s - (plane0[name] ?? 0)).toFixed(1)} s`).join(", ")}`,
      ...[{ host: "benchmark", nodes: 0, controller: false, ...bench }, ...hosts].map((h) =>
        `  process ${h.host}${h.nodes > 0 ? ` (${h.nodes} node roles)` : ""}: CPU ${(h.cpuMs / 1000).toFixed(2)} s, event-loop delay p50 ${h.loopDelay.p50.toFixed(0)} ms, p99 ${h.loopDelay.p99.toFixed(0)} ms, max ${h.loopDelay.max.toFixed(0)} ms`)
    ]
    // The node roles' CPU in the window: what the change cost them (at rest they use next to none).
    const nodeRolesCpuMs = hosts.filter((h) => h.nodes > 0).reduce((sum, h) => sum + h.cpuMs, 0)
    return { text: lines.join("\n"), nodeRolesCpuMs }
  }
}
/** CPU time of the node roles' processes per re-published volume, over a window of `contention`. */
const cpuPerVolume = (load: { readonly nodeRolesCpuMs: number }, volumes: number) =>
  `  CPU per re-published volume (the node roles' processes, process.cpuUsage() over the window): ${(load.nodeRolesCpuMs / volumes).toFixed(1)} ms (${(load.nodeRolesCpuMs / 1000).toFixed(2)} s for ${volumes} volumes)`

/**
 * The wall-clock ms at which a watch of the benchmark's own (opened before the change, one
 * WATCH request) delivers an object that `matches`: when the API server had the change ready
 * for any watcher, e.g. the node role's.
 */
const watchFor = async (kube: Awaited<ReturnType<typeof startNodeFleet>>["kube"], path: string, fieldSelector: string, matches: (object: KubeObject) => boolean) => {
  const abort = new AbortController()
  let seen: number | undefined
  const done = kube.watch(path, { fieldSelector }, (event) => {
    if (seen === undefined && matches(event.object)) seen = wallClock()
  }, abort.signal).catch(() => undefined)
  await sleep(200) // the watch is open (its initial ADDED event shows the old state)
  return async () => {
    await eventually(`${path} watched`, async () => seen, { timeoutMs: 60_000, intervalMs: 5 }).catch(() => undefined)
    abort.abort()
    await done
    return seen ?? NaN
  }
}
const stats = (values: ReadonlyArray<number>) =>
  `p50 ${percentile(values, 50).toFixed(0)} ms, p99 ${percentile(values, 99).toFixed(0)} ms, max ${Math.max(...values).toFixed(0)} ms`

const main = async () => {
  console.log(`node scale benchmark: ${NODES} node roles × ${PER_NODE} volumes, rest ${REST_SECONDS} s, ${PROCESSES === 0 ? "every role in one process" : `node roles in ${PROCESSES} worker process(es), the controller in its own`}, node ${process.version}, ${new Date().toISOString()}, load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}`)
  const fleetStarted = performance.now()
  const fleet = await startNodeFleet({ nodes: NODES, processes: PROCESSES })
  console.log(`control plane and ${fleet.hosts.length} process(es) of the fleet up in ${((performance.now() - fleetStarted) / 1000).toFixed(1)} s`)
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

    const memoryBefore = await fleet.samples({ gc: true })
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
    const memoryAfter = await fleet.samples({ gc: true })

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
    const nodeStages: Array<{ answered: number; watched: number; first: number; last: number }> = []
    const beforeChanges = requestTotals(await metrics())
    const nodeWindow = await contention(fleet)
    for (const node of fleet.nodeNames.slice(0, NODE_CHANGES)) {
      const newIp = `203.0.113.${1 + (fleet.nodeNames.indexOf(node) % 250)}`
      const affected = byNode.get(node)!.filter(isNodePort)
      const watched = await watchFor(kube, "/api/v1/nodes", `metadata.name=${node}`, (object) =>
        ((object as { status?: { addresses?: Array<{ address: string }> } }).status?.addresses ?? []).some((a) => a.address === newIp))
      const files = await fleet.watchAddresses(affected, () => newIp)
      const t0 = wallClock()
      await kube.patch(`/api/v1/nodes/${node}/status`, { status: { addresses: [{ type: "InternalIP", address: newIp }, { type: "Hostname", address: node }] } }, "strategic")
      const answered = wallClock() - t0
      const seen = (await files()).map((at) => at - t0)
      nodeLatencies.push(...seen)
      nodeStages.push({ answered, watched: (await watched()) - t0, first: Math.min(...seen), last: Math.max(...seen) })
    }
    const nodeLoad = await nodeWindow()
    const nodeChangeRequests = countsDiff(beforeChanges, requestTotals(await metrics()))
    console.log(`\n(d1) Node address change → files: ${NODE_CHANGES} nodes × ${NODEPORT_PER_NODE} NodePort volumes: ${stats(nodeLatencies)} (from just before the benchmark sends the Node status patch)`)
    console.log(`  stages per change (ms after the patch was sent): ${nodeStages.map((s) => `patch answered ${s.answered.toFixed(0)}, Node seen on a watch ${s.watched.toFixed(0)}, first file ${s.first.toFixed(0)}, last file ${s.last.toFixed(0)}`).join("; ")}`)
    console.log(`  stage medians: patch answered ${percentile(nodeStages.map((s) => s.answered), 50).toFixed(0)} ms, Node seen on a watch ${percentile(nodeStages.map((s) => s.watched), 50).toFixed(0)} ms, first file ${percentile(nodeStages.map((s) => s.first), 50).toFixed(0)} ms, last file ${percentile(nodeStages.map((s) => s.last), 50).toFixed(0)} ms`)
    console.log(nodeLoad.text)
    console.log(cpuPerVolume(nodeLoad, NODE_CHANGES * NODEPORT_PER_NODE))
    table("requests during the Node address changes (incl. the benchmark's own status patches and one WATCH nodes per change)", nodeChangeRequests, NODE_CHANGES * NODEPORT_PER_NODE, "per affected volume")

    const shared = volumes.filter(isShared)
    const beforeLb = requestTotals(await metrics())
    const lbWindow = await contention(fleet)
    const lbWatched = await watchFor(kube, `${LISTENERS}/namespaces/${FLEET_NAMESPACE}/listeners`, "metadata.name=shared-lb", (object) =>
      JSON.stringify((object as { status?: { ingressAddresses?: unknown } }).status?.ingressAddresses ?? []).includes("198.51.100.77"))
    const lbFiles = await fleet.watchAddresses(shared, () => "198.51.100.77")
    const t0 = wallClock()
    await setIngress("198.51.100.77")
    const lbAnswered = wallClock() - t0
    const lbLatencies = (await lbFiles()).map((at) => at - t0)
    const lbStatus = (await lbWatched()) - t0
    const lbLoad = await lbWindow()
    const lbRequests = countsDiff(beforeLb, requestTotals(await metrics()))
    console.log(`\n(d2) load balancer ingress change → files: ${shared.length} volumes on ${NODES} nodes: ${stats(lbLatencies)} (from just before the benchmark sends the Service status patch)`)
    console.log(`  stages (ms after the patch was sent): patch answered ${lbAnswered.toFixed(0)}, the Listener's new status (the controller's write) seen on a watch ${lbStatus.toFixed(0)}, first file ${Math.min(...lbLatencies).toFixed(0)}, last file ${Math.max(...lbLatencies).toFixed(0)}`)
    console.log(lbLoad.text)
    console.log(cpuPerVolume(lbLoad, shared.length))
    table("requests during the load balancer change (incl. the benchmark's status patch and one WATCH listeners)", lbRequests, shared.length, "per affected volume")

    console.log("\n(e) memory (after gc), per process: before the node roles started → with their volumes published")
    for (const [i, after] of memoryAfter.entries()) {
      const before = memoryBefore[i]!
      console.log(`  ${after.host}${after.nodes > 0 ? ` (${after.nodes} node roles)` : ""}${after.controller ? " (controller)" : ""}: heap ${megabytes(before.heapUsed)} → ${megabytes(after.heapUsed)}, RSS ${megabytes(before.rss)} → ${megabytes(after.rss)}`)
    }
    const nodeHosts = memoryAfter.filter((h) => h.nodes > 0)
    const heapGrowth = nodeHosts.reduce((sum, h) => sum + h.heapUsed - memoryBefore.find((b) => b.host === h.host)!.heapUsed, 0)
    const rssGrowth = nodeHosts.reduce((sum, h) => sum + h.rss - memoryBefore.find((b) => b.host === h.host)!.rss, 0)
    console.log(`  per node role (${PER_NODE} volumes): heap + ${megabytes(heapGrowth / NODES)}, RSS + ${megabytes(rssGrowth / NODES)}${PROCESSES === 0 ? " (the controller's caches of the new Listeners and Services included: one process)" : ""}`)
  } finally {
    await fleet.stop()
  }
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
