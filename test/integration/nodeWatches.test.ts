// The node plugin's watches on the real API server (issue 21): two node roles and the
// controller role in this process (test/envtest/nodeFleet.ts), requests counted by the API
// server itself (apiserver_request_total). Address changes reach the volume files from the
// watches, with no GET of the Listener, its class or the Node; at rest, with a safety resync
// every second, the node roles send nothing; the first publish of a new per-volume Listener
// waits for the controller and succeeds first try; a load balancer without an address still
// fails at once with its Event.
import assert from "node:assert/strict"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { after, before, describe, test } from "node:test"
import { publishedOnNodeLabel } from "../../domain/publishedOnNode.ts"
import { eventually } from "../envtest/kubeClient.ts"
import type { KubeClient } from "../envtest/kubeClient.ts"
import { countsDiff, FLEET_CLASSES, FLEET_NAMESPACE, requestTotals, startNodeFleet } from "../envtest/nodeFleet.ts"
import type { Fleet, FleetVolume } from "../envtest/nodeFleet.ts"

const LISTENERS = "/apis/listeners.stackable.tech/v1alpha1"
const NS = FLEET_NAMESPACE
const log = process.env["ENVTEST_LOG"] !== undefined ? (line: string) => console.error(line) : undefined

describe("node plugin watches on the real API server", { timeout: 600_000 }, () => {
  let fleet: Fleet
  let kube: KubeClient
  const counts = async () => requestTotals(await fleet.plane.metrics())
  const addressIn = (volume: FleetVolume) => {
    try {
      return readFileSync(join(volume.targetPath, "default-address", "address"), "utf8")
    } catch {
      return undefined
    }
  }
  const untilAddress = (volume: FleetVolume, address: string) =>
    eventually(`${volume.pod.metadata.name} shows ${address}`, async () => (addressIn(volume) === address ? true : undefined), { timeoutMs: 30_000, intervalMs: 20 })
  // Requests for what our roles read and write (not the API server's own lease renewals,
  // OpenAPI fetches or the test's GET /metrics).
  const OURS = /^\S+ (persistentvolumes|persistentvolumeclaims|pods|nodes|listeners|listeners\/status|listenerclasses|podlisteners|services|services\/status|endpointslices|events)$/u
  const ours = (delta: Map<string, number>) => [...delta].filter(([key]) => OURS.test(key))
  const reads = (delta: Map<string, number>) => ours(delta).filter(([key]) => /^(GET|LIST) /u.test(key))
  const events = async (reason: string) => {
    const list = await kube.get(`/apis/events.k8s.io/v1/namespaces/${NS}/events`)
    return ((list as unknown as { items: Array<{ reason?: string }> }).items).filter((event) => event.reason === reason)
  }
  const createListener = (name: string, className: string) =>
    kube.create(`${LISTENERS}/namespaces/${NS}/listeners`, {
      apiVersion: "listeners.stackable.tech/v1alpha1", kind: "Listener", metadata: { name, namespace: NS },
      spec: { className, ports: [{ name: "http", port: 8080 }] }
    })
  const serviceOf = (listener: string) =>
    eventually(`Service of ${listener}`, async () => {
      const live = await kube.get(`${LISTENERS}/namespaces/${NS}/listeners/${listener}`)
      return (live.status as { serviceName?: string } | undefined)?.serviceName
    }, { timeoutMs: 60_000, intervalMs: 100 })
  const setIngress = (service: string, ip: string) =>
    kube.patch(`/api/v1/namespaces/${NS}/services/${service}/status`, { status: { loadBalancer: { ingress: [{ ip }] } } }, "merge")

  let nodePortVolume: FleetVolume
  let sharedVolumes: FleetVolume[]

  before(async () => {
    fleet = await startNodeFleet({ nodes: 2, resync: "1 second", log })
    kube = fleet.kube
    await fleet.startNodeRoles()
  })
  after(async () => {
    await fleet?.stop()
  })

  test("the first publish of a new per-volume NodePort Listener waits for the controller and succeeds first try, without a waiting Event", async () => {
    const [node] = fleet.nodeNames
    nodePortVolume = await fleet.makeVolume(node!, "first", { "listeners.stackable.tech/listener-class": FLEET_CLASSES.nodePort })
    const failure = await fleet.publish(nodePortVolume, 60_000)
    assert.equal(failure, undefined, `first try: ${failure?.message}`)
    assert.equal(addressIn(nodePortVolume), fleet.nodeIp(node!))
    const listener = await kube.get(`${LISTENERS}/namespaces/${NS}/listeners/first`)
    assert.equal(listener.metadata.labels?.[publishedOnNodeLabel(node!)], "true", "labelled for the node's watch")
    assert.deepEqual(await events("AwaitingNodePorts"), [])
  })

  test("a shared Listener published on both nodes; one whose load balancer has no address fails at once, with its Event", async () => {
    await createListener("shared", FLEET_CLASSES.loadBalancer)
    const service = await serviceOf("shared")
    await setIngress(service, "198.51.100.1")
    await eventually("shared addressed", async () => {
      const live = await kube.get(`${LISTENERS}/namespaces/${NS}/listeners/shared`)
      return ((live.status as { ingressAddresses?: unknown[] } | undefined)?.ingressAddresses ?? []).length > 0 ? true : undefined
    }, { timeoutMs: 60_000, intervalMs: 100 })
    sharedVolumes = []
    for (const [i, node] of fleet.nodeNames.entries()) {
      const volume = await fleet.makeVolume(node, `shared-${i}`, { "listeners.stackable.tech/listener-name": "shared" })
      assert.equal(await fleet.publish(volume, 60_000), undefined)
      assert.equal(addressIn(volume), "198.51.100.1")
      sharedVolumes.push(volume)
    }

    await createListener("no-cloud", FLEET_CLASSES.loadBalancer)
    await serviceOf("no-cloud") // the controller's status is current: it waits for a cloud that never comes
    const volume = await fleet.makeVolume(fleet.nodeNames[0]!, "no-cloud-0", { "listeners.stackable.tech/listener-name": "no-cloud" })
    const started = performance.now()
    const failure = await fleet.publish(volume, 60_000)
    const took = performance.now() - started
    assert.equal(failure?.codeName, "Unavailable")
    assert.ok(took < 3000, `failed fast (${took.toFixed(0)} ms)`)
    assert.equal((await events("AwaitingListenerAddress")).length > 0, true)
  })

  test("at rest the node roles send no GET or LIST, although each re-checks its volumes every second", async () => {
    await new Promise((resolve) => setTimeout(resolve, 2000))
    const before = await counts()
    await new Promise((resolve) => setTimeout(resolve, 6000))
    const delta = countsDiff(before, await counts())
    assert.deepEqual(reads(delta), [], JSON.stringify(Object.fromEntries(delta)))
    assert.deepEqual(ours(delta).filter(([key]) => !/^(GET|LIST|WATCH) /u.test(key)), [], "no writes either")
  })

  test("a Node's new address reaches its volume from the Node watch: no GET of the Node, the Listener or its class", async () => {
    const node = nodePortVolume.node
    const before = await counts()
    await kube.patch(`/api/v1/nodes/${node}/status`, { status: { addresses: [{ type: "InternalIP", address: "203.0.113.9" }, { type: "Hostname", address: node }] } }, "strategic")
    await untilAddress(nodePortVolume, "203.0.113.9")
    const delta = countsDiff(before, await counts())
    for (const key of ["GET nodes", "GET listeners", "GET listenerclasses", "LIST nodes", "LIST listeners", "LIST listenerclasses"]) {
      assert.equal(delta.get(key) ?? 0, 0, `${key}: ${JSON.stringify(Object.fromEntries(delta))}`)
    }
  })

  test("a load balancer's new ingress reaches the shared volume on every node from the Listener watch, without a GET of the Listener", async () => {
    const service = await serviceOf("shared")
    const before = await counts()
    await setIngress(service, "198.51.100.77")
    for (const volume of sharedVolumes) await untilAddress(volume, "198.51.100.77")
    const delta = countsDiff(before, await counts())
    assert.equal(delta.get("GET listeners") ?? 0, 0, JSON.stringify(Object.fromEntries(delta)))
    assert.equal(delta.get("GET listenerclasses") ?? 0, 0)
    assert.equal(delta.get("LIST listeners") ?? 0, 0)
  })
})
