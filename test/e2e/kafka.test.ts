// Kafka, the system a listener operator exists for, on real nodes: three KRaft brokers of
// examples/kafka (two share a node; the cluster has two) each read their listener volume at
// start and advertise its address in advertised.listeners. A client outside the cluster —
// kcat on the host — must then find exactly those brokers, and reach every one of them
// directly: that is what a Kafka client does with the metadata it gets, and what fails when
// a broker advertises an address the client cannot reach. First on a pinned NodePort class
// (Pod deletion, then a lost node last: it takes a node away), and in between the same
// brokers on a LoadBalancer class served by MetalLB. The quorum is found by the headless
// Service's DNS names (CoreDNS). Figures: docs/real-cluster.md#kafka.
import assert from "node:assert/strict"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { after, before, describe, test } from "node:test"
import type { TestContext } from "node:test"
import { LISTENER_API_VERSION } from "../../domain/constants.ts"
import { eventually } from "../envtest/kubeClient.ts"
import type { KubeClient } from "../envtest/kubeClient.ts"
import { buildImages } from "../images/build.ts"
import { startOperatorCluster } from "../realnodes/operatorCluster.ts"
import type { OperatorCluster } from "../realnodes/operatorCluster.ts"
import { metadata, produce, startConsumer } from "./kcat.ts"
import type { LongConsumer } from "./kcat.ts"
import { advertised, brokerNames as brokers, createTopic, kafkaBrokers, serversOf, WAIT } from "./kafkaBrokers.ts"
import type { KafkaBrokers } from "./kafkaBrokers.ts"
import { KAFKA_REPLICAS } from "./kafkaWorkload.ts"
import { listenerClass } from "./workloads.ts"

const log = process.env["E2E_LOG"] !== undefined ? (line: string) => console.error(line) : undefined
const NODES = ["node-a", "node-b"] as const
const TOPIC = "listener-e2e"
const LISTENERS = `/apis/${LISTENER_API_VERSION}`
/** A pinned NodePort class that moves a broker whose node is deleted (docs/node-loss.md). */
const NODEPORT_CLASS = "kafka-nodeport"
/** A LoadBalancer class: MetalLB (L2, pool on the test bridge) gives each broker's Service an address. */
const LB_CLASS = "kafka-lb"

describe("Kafka brokers advertise their listener addresses to a client on the host", { timeout: 1_800_000 }, () => {
  let operator: OperatorCluster
  let kube: KubeClient
  /** The brokers on the NodePort class. */
  let np: KafkaBrokers
  let consumer: LongConsumer | undefined
  let workDir: string
  let readyAt = 0
  const started = Date.now()

  const nodeIp = (name: string) => operator.cluster.nodes.find((n) => n.name === name)!.ip
  const consumed = (message: string) => consumer!.received.some((r) => r.message === message)
  const figure = (t: TestContext, line: string) => {
    t.diagnostic(line)
    console.error(`kafka figure: ${line}`)
  }

  before(async () => {
    workDir = mkdtempSync(join(tmpdir(), "kafka-e2e-"))
    const [kafka] = await buildImages({ only: ["kafka"] })
    operator = await startOperatorCluster({ nodes: [...NODES], log, extraImages: [kafka!.path] })
    kube = operator.cluster.kube
    np = kafkaBrokers(kube, "kafka", log)
    await kube.create(`${LISTENERS}/listenerclasses`, listenerClass(NODEPORT_CLASS, { serviceType: "NodePort", pinnedNodePorts: true, pinnedNodeLossRecovery: true }))
    await np.deploy(NODEPORT_CLASS)
  })

  after(async () => {
    await consumer?.stop()
    await operator?.stop()
    if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true })
  })

  test("three brokers, two on one node, each advertising its own Listener's address: the host's metadata lists exactly those", async (t) => {
    for (const name of brokers) await np.readyPod(name)
    readyAt = Date.now()
    figure(t, `start → three brokers Ready: ${((readyAt - started) / 1000).toFixed(1)} s`)
    const nodesOf = await Promise.all(brokers.map(async (name) => (await np.pod(name)).spec.nodeName as string))
    assert.deepEqual([...new Set(nodesOf)].sort(), [...NODES], "brokers on both nodes")
    const endpoints = await np.listenerEndpoints()
    for (const [id, name] of brokers.entries()) {
      const [address] = endpoints.get(id)!.split(":")
      assert.equal(address, nodeIp(nodesOf[id]!), `${name}'s Listener has its node's address`)
    }
    assert.equal(new Set(endpoints.values()).size, KAFKA_REPLICAS, "three distinct address:port pairs (two share a node address)")
    const m = await np.metadataListing(endpoints)
    assert.deepEqual(advertised(m), endpoints)
    // The quorum and the INTERNAL listener by the headless Service's DNS names, as real deployments do.
    const logs = await operator.cluster.plane.kubectl(["logs", "-n", np.namespace, brokers[0]!])
    const domain = `kafka-headless.${np.namespace}.svc.cluster.local`
    assert.match(logs.stdout, new RegExp(`INTERNAL://kafka-0\\.${domain.replaceAll(".", "\\.")}:9092; quorum 0@kafka-0\\.${domain.replaceAll(".", "\\.")}:9093,1@`, "u"))
  })

  test("a topic of three partitions led by three different brokers; a message produced to and consumed from every partition, from the host", async (t) => {
    const servers = serversOf(await np.listenerEndpoints())
    const topic = await createTopic(servers, TOPIC)
    const leaders = topic.partitions.map((p) => p.leader)
    assert.equal(new Set(leaders).size, KAFKA_REPLICAS, `leaders ${JSON.stringify(leaders)} on three different brokers`)
    await np.roundTrip(servers, TOPIC, (p) => `hello-${p}`)
    figure(t, `brokers Ready → first message consumed from the host: ${((Date.now() - readyAt) / 1000).toFixed(1)} s`)
    // The brokers replicate among themselves over INTERNAL (the names the quorum uses too): every replica in sync.
    await eventually("every partition has its three replicas in sync", async () =>
      (await metadata(servers, TOPIC))?.topics.find((x) => x.topic === TOPIC)?.partitions.every((p) => p.isrs.length === KAFKA_REPLICAS) || undefined, WAIT)
    consumer = startConsumer(servers, TOPIC, workDir)
    await eventually("the host's long-running consumer reads every partition", async () =>
      Array.from({ length: KAFKA_REPLICAS }, (_, p) => `hello-${p}`).every(consumed) || undefined, WAIT)
  })

  test("memory per broker (resident set of the JVM, -Xmx256m, serial GC)", async (t) => {
    const rss: number[] = []
    for (const name of brokers) {
      const run = await operator.cluster.plane.kubectl(["exec", "-n", np.namespace, name, "--", "cat", "/proc/1/status"])
      assert.equal(run.code, 0, run.stderr)
      const kb = Number(/^VmRSS:\s+(\d+) kB$/mu.exec(run.stdout)?.[1])
      assert.ok(kb > 0, `${name}: VmRSS in ${run.stdout}`)
      rss.push(Math.round(kb / 1024))
    }
    figure(t, `memory per broker (RSS): ${rss.join(", ")} MB`)
    for (const mb of rss) assert.ok(mb < 700, `a broker uses ${mb} MB`)
  })

  test("a deleted broker Pod comes back on its node with the same address; the host's consumer goes on", async (t) => {
    const endpoints = await np.listenerEndpoints()
    const before1 = await np.readyPod(brokers[1]!)
    const deletedAt = Date.now()
    await kube.delete(`/api/v1/namespaces/${np.namespace}/pods/${brokers[1]}`)
    const after1 = await np.readyPod(brokers[1]!, before1.metadata.uid)
    figure(t, `broker Pod deleted → Ready again: ${((Date.now() - deletedAt) / 1000).toFixed(1)} s`)
    assert.equal(after1.spec.nodeName, before1.spec.nodeName)
    assert.deepEqual(await np.listenerEndpoints(), endpoints, "every Listener keeps its address")
    await np.metadataListing(endpoints)
    const servers = [...endpoints.values()].join(",")
    await eventually("produce and read back on every partition after the restart", async () => {
      try {
        await np.roundTrip(servers, TOPIC, (p) => `after-restart-${p}`)
        return true
      } catch {
        return undefined
      }
    }, WAIT)
    await eventually("the long-running consumer reads what was produced after the restart", async () =>
      Array.from({ length: KAFKA_REPLICAS }, (_, p) => `after-restart-${p}`).every(consumed) || undefined, WAIT)
    assert.ok(consumer!.process.running(), "the same kcat process, never restarted")
  })

  test("a LoadBalancer class on MetalLB: one load-balancer address per broker, each reached from the host; a deleted broker keeps its address", async (t) => {
    const lb = kafkaBrokers(kube, "kafka-lb", log)
    await kube.create(`${LISTENERS}/listenerclasses`, listenerClass(LB_CLASS, { serviceType: "LoadBalancer" }))
    const deployedAt = Date.now()
    await lb.deploy(LB_CLASS)
    for (const name of brokers) await lb.readyPod(name)
    const lbReadyAt = Date.now()
    const endpoints = await lb.listenerEndpoints()
    const addresses = [...endpoints.values()].map((e) => e.slice(0, e.lastIndexOf(":")))
    assert.equal(new Set(addresses).size, KAFKA_REPLICAS, `one load-balancer address per broker: ${addresses.join(", ")}`)
    for (const [id, address] of addresses.entries()) {
      assert.ok(!NODES.map(nodeIp).includes(address), `broker ${id}'s address ${address} is not a node's`)
      assert.ok(endpoints.get(id)!.endsWith(":9094"), `broker ${id} advertises the Service port: ${endpoints.get(id)}`)
      // MetalLB, not the test, gave the Service its address.
      const service = await kube.get(`/api/v1/namespaces/${lb.namespace}/services/listener-${brokers[id]}`)
      assert.deepEqual((service.status?.["loadBalancer"] as { ingress?: Array<{ ip?: string }> }).ingress?.map((i) => i.ip), [address])
    }
    await lb.metadataListing(endpoints)
    const servers = serversOf(endpoints)
    const topic = await createTopic(servers, TOPIC)
    assert.equal(new Set(topic.partitions.map((p) => p.leader)).size, KAFKA_REPLICAS, "leaders on three brokers: every load-balancer address carries a produce and a fetch")
    await lb.roundTrip(servers, TOPIC, (p) => `lb-hello-${p}`)
    figure(t, `LoadBalancer class: StatefulSet created → brokers Ready ${((lbReadyAt - deployedAt) / 1000).toFixed(1)} s → first message consumed from the host ${((Date.now() - lbReadyAt) / 1000).toFixed(1)} s`)

    const before0 = await lb.readyPod(brokers[0]!)
    await kube.delete(`/api/v1/namespaces/${lb.namespace}/pods/${brokers[0]}`)
    await lb.readyPod(brokers[0]!, before0.metadata.uid)
    assert.deepEqual(await lb.listenerEndpoints(), endpoints, "every broker keeps its load-balancer address")
    await lb.metadataListing(endpoints)
    await eventually("produce and read back on every partition after the restart", async () => {
      try {
        await lb.roundTrip(servers, TOPIC, (p) => `lb-after-restart-${p}`)
        return true
      } catch {
        return undefined
      }
    }, WAIT)
    // Free the two cores for what follows.
    await kube.patch(`/apis/apps/v1/namespaces/${lb.namespace}/statefulsets/kafka`, { spec: { replicas: 0 } }, "merge")
    await eventually(`no broker Pod left in ${lb.namespace}`, async () =>
      (await kube.list(`/api/v1/namespaces/${lb.namespace}/pods`)).items.length === 0 || undefined, WAIT)
  })

  test("a lost node: its broker moves to the other node, advertises that node's address, and the host client recovers", async (t) => {
    const endpoints = await np.listenerEndpoints()
    const nodesOf = new Map(await Promise.all(brokers.map(async (name) => [name, (await np.pod(name)).spec.nodeName as string] as const)))
    // The node with one broker: the other two keep the quorum (two of three voters).
    const lostNode = NODES.find((n) => [...nodesOf.values()].filter((x) => x === n).length === 1)!
    const survivor = NODES.find((n) => n !== lostNode)!
    const moved = [...nodesOf].find(([, n]) => n === lostNode)![0]
    const movedId = brokers.indexOf(moved)
    const node = operator.cluster.nodes.find((n) => n.name === lostNode)!
    const movedUid = (await np.pod(moved)).metadata.uid
    const lostAt = Date.now()
    await node.stop()
    await kube.delete(`/api/v1/nodes/${lostNode}`)
    log?.(`kafka: node ${lostNode} stopped and deleted; ${moved} must move to ${survivor}`)

    // The host client: a produce to every partition, read back by the consumer that has run all along.
    const servers = [...endpoints.values()].join(",")
    let attempt = 0
    const recoveredAt = await eventually("the host client produces to and consumes from every partition again", async () => {
      attempt++
      for (let p = 0; p < KAFKA_REPLICAS; p++) {
        const message = `after-loss-${attempt}-${p}`
        if ((await produce(servers, TOPIC, p, message)).code !== 0) return undefined
        const seen = await eventually(`consumer reads ${message}`, async () => consumed(message) || undefined, { timeoutMs: 15_000, intervalMs: 200 }).catch(() => undefined)
        if (seen === undefined) return undefined
      }
      return Date.now()
    }, WAIT)
    figure(t, `node lost → host client recovered (produce + consume on every partition): ${((recoveredAt - lostAt) / 1000).toFixed(1)} s`)

    const replacement = await np.readyPod(moved, movedUid)
    assert.equal(replacement.spec.nodeName, survivor, `${moved} moved to ${survivor}`)
    const newEndpoint = await eventually(`listener-${moved} has ${survivor}'s address`, async () => {
      const endpoint = await np.listenerEndpoint(moved)
      return endpoint?.startsWith(`${nodeIp(survivor)}:`) === true ? endpoint : undefined
    }, WAIT)
    const expected = new Map(endpoints)
    expected.set(movedId, newEndpoint)
    await np.metadataListing(expected)
    figure(t, `node lost → moved broker advertised at ${newEndpoint} in the host's metadata: ${((Date.now() - lostAt) / 1000).toFixed(1)} s`)
    // The host reaches the moved broker itself at its new address (bootstrapping from it alone).
    const direct = await eventually(`metadata from ${moved} at ${newEndpoint} alone`, () => metadata(newEndpoint), WAIT)
    assert.equal(advertised(direct).get(movedId), newEndpoint)
    figure(t, `scenario wall time so far: ${((Date.now() - started) / 1000).toFixed(0)} s`)
  })
})

