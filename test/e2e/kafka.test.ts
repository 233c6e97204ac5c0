// Kafka, the system a listener operator exists for, on real nodes: three KRaft brokers of
// examples/kafka (two share a node; the cluster has two) each read their listener volume at
// start and advertise its address in advertised.listeners. A client outside the cluster —
// kcat on the host — must then find exactly those brokers, and reach every one of them
// directly: that is what a Kafka client does with the metadata it gets, and what fails when
// a broker advertises an address the client cannot reach.
import assert from "node:assert/strict"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { after, before, describe, test } from "node:test"
import type { TestContext } from "node:test"
import { LISTENER_API_VERSION } from "../../domain/constants.ts"
import { createNamespace, eventually } from "../envtest/kubeClient.ts"
import type { KubeClient } from "../envtest/kubeClient.ts"
import { readyPod as readyPodIn } from "../envtest/localCluster.ts"
import { buildImages } from "../images/build.ts"
import { startOperatorCluster } from "../realnodes/operatorCluster.ts"
import type { OperatorCluster } from "../realnodes/operatorCluster.ts"
import { metadata, produce, readPartition, startConsumer } from "./kcat.ts"
import type { LongConsumer, Metadata } from "./kcat.ts"
import { entrypointConfigMap, EXTERNAL_PORT, headlessService, KAFKA_REPLICAS, kafkaStatefulSet, quorumService, STATEFULSET } from "./kafkaWorkload.ts"
import { listenerClass } from "./workloads.ts"

const log = process.env["E2E_LOG"] !== undefined ? (line: string) => console.error(line) : undefined
const NS = "kafka"
const NODES = ["node-a", "node-b"] as const
const TOPIC = "listener-e2e"
const LISTENERS = `/apis/${LISTENER_API_VERSION}`
const WAIT = { timeoutMs: 300_000, intervalMs: 1000 }
/** A pinned NodePort class that moves a broker whose node is deleted (docs/node-loss.md). */
const NODEPORT_CLASS = "kafka-nodeport"
const brokers = Array.from({ length: KAFKA_REPLICAS }, (_, i) => `${STATEFULSET}-${i}`)

interface IngressAddress {
  readonly address: string
  readonly ports: Readonly<Record<string, number>>
}

describe("Kafka brokers advertise their listener addresses to a client on the host", { timeout: 1_800_000 }, () => {
  let operator: OperatorCluster
  let kube: KubeClient
  let consumer: LongConsumer | undefined
  let workDir: string
  let readyAt = 0
  const started = Date.now()

  const pod = (name: string) => kube.get(`/api/v1/namespaces/${NS}/pods/${name}`)
  const readyPod = (name: string, notUid?: string) => readyPodIn(kube, NS, name, notUid, WAIT)
  const nodeIp = (name: string) => operator.cluster.nodes.find((n) => n.name === name)!.ip
  /** `address:port` of broker `name`'s Listener (its only ingress address and the kafka port). */
  const listenerEndpoint = async (name: string): Promise<string | undefined> => {
    const l = await kube.get(`${LISTENERS}/namespaces/${NS}/listeners/listener-${name}`)
    const addresses = (l.status?.["ingressAddresses"] ?? []) as IngressAddress[]
    const port = addresses[0]?.ports[EXTERNAL_PORT]
    return addresses.length === 1 && port !== undefined ? `${addresses[0]!.address}:${port}` : undefined
  }
  const listenerEndpoints = async (): Promise<Map<number, string>> => {
    const endpoints = new Map<number, string>()
    for (const [id, name] of brokers.entries()) {
      const endpoint = await eventually(`Listener listener-${name} has one address with a ${EXTERNAL_PORT} port`, () => listenerEndpoint(name), WAIT)
      endpoints.set(id, endpoint)
    }
    return endpoints
  }
  const bootstrap = async () => [...(await listenerEndpoints()).values()].join(",")
  const advertised = (m: Metadata) => new Map(m.brokers.map((b) => [b.id, b.name]))
  /** Metadata from the host once it lists exactly the brokers at `expected` (id → address:port). */
  const metadataListing = (expected: Map<number, string>, topic?: string) =>
    eventually(`metadata from the host lists brokers ${JSON.stringify([...expected])}`, async () => {
      const m = await metadata([...expected.values()].join(","), topic)
      if (m === undefined) return undefined
      const seen = advertised(m)
      return seen.size === expected.size && [...expected].every(([id, endpoint]) => seen.get(id) === endpoint) ? m : undefined
    }, WAIT)
  /** Produces `message` to every partition, then reads each partition from the host until it holds it. */
  const roundTrip = async (servers: string, message: (partition: number) => string): Promise<void> => {
    for (let partition = 0; partition < KAFKA_REPLICAS; partition++) {
      const sent = await produce(servers, TOPIC, partition, message(partition))
      assert.equal(sent.code, 0, `produce to partition ${partition}: ${sent.stderr}`)
      const messages = await readPartition(servers, TOPIC, partition)
      assert.ok(messages?.includes(message(partition)), `partition ${partition} holds ${message(partition)}: ${JSON.stringify(messages)}`)
    }
  }
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
    await createNamespace(kube, NS)
    await kube.create(`${LISTENERS}/listenerclasses`, listenerClass(NODEPORT_CLASS, { serviceType: "NodePort", pinnedNodePorts: true, pinnedNodeLossRecovery: true }))
    await kube.create(`/api/v1/namespaces/${NS}/configmaps`, entrypointConfigMap(NS))
    await kube.create(`/api/v1/namespaces/${NS}/services`, headlessService(NS))
    const hasDns = (await kube.getOrUndefined("/api/v1/namespaces/kube-system/services/kube-dns")) !== undefined
    let quorumVoters: string | undefined
    if (!hasDns) {
      const ips: string[] = []
      for (let i = 0; i < KAFKA_REPLICAS; i++) {
        const service = await kube.create(`/api/v1/namespaces/${NS}/services`, quorumService(NS, i))
        ips.push(`${i}@${String(service.spec?.["clusterIP"])}:9093`)
      }
      quorumVoters = ips.join(",")
    }
    log?.(`kafka: cluster DNS ${hasDns ? "present: quorum by the headless Service's names" : `absent: quorum ${String(quorumVoters)}`}`)
    await kube.create(`/apis/apps/v1/namespaces/${NS}/statefulsets`, kafkaStatefulSet({ namespace: NS, className: NODEPORT_CLASS, ...(quorumVoters !== undefined ? { quorumVoters } : {}) }))
  })

  after(async () => {
    await consumer?.stop()
    await operator?.stop()
    if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true })
  })

  test("three brokers, two on one node, each advertising its own Listener's address: the host's metadata lists exactly those", async (t) => {
    for (const name of brokers) await readyPod(name)
    readyAt = Date.now()
    figure(t, `start → three brokers Ready: ${((readyAt - started) / 1000).toFixed(1)} s`)
    const nodesOf = await Promise.all(brokers.map(async (name) => (await pod(name)).spec.nodeName as string))
    assert.deepEqual([...new Set(nodesOf)].sort(), [...NODES], "brokers on both nodes")
    const endpoints = await listenerEndpoints()
    for (const [id, name] of brokers.entries()) {
      const [address] = endpoints.get(id)!.split(":")
      assert.equal(address, nodeIp(nodesOf[id]!), `${name}'s Listener has its node's address`)
    }
    assert.equal(new Set(endpoints.values()).size, KAFKA_REPLICAS, "three distinct address:port pairs (two share a node address)")
    const m = await metadataListing(endpoints)
    assert.deepEqual(advertised(m), endpoints)
  })

  test("a topic of three partitions led by three different brokers; a message produced to and consumed from every partition, from the host", async (t) => {
    const servers = await bootstrap()
    // The first produce creates the topic (auto.create.topics.enable, num.partitions=3 in the example).
    await eventually("the first produce, which creates the topic", async () => (await produce(servers, TOPIC, 0, "hello-0")).code === 0 || undefined, WAIT)
    const m = await eventually(`topic ${TOPIC} has three partitions with leaders`, async () => {
      const current = await metadata(servers, TOPIC)
      const partitions = current?.topics.find((x) => x.topic === TOPIC)?.partitions ?? []
      return partitions.length === KAFKA_REPLICAS && partitions.every((p) => p.leader >= 0) ? current : undefined
    }, WAIT)
    const leaders = m.topics.find((x) => x.topic === TOPIC)!.partitions.map((p) => p.leader)
    assert.equal(new Set(leaders).size, KAFKA_REPLICAS, `leaders ${JSON.stringify(leaders)} on three different brokers`)
    await roundTrip(servers, (p) => `hello-${p}`)
    figure(t, `brokers Ready → first message consumed from the host: ${((Date.now() - readyAt) / 1000).toFixed(1)} s`)
    consumer = startConsumer(servers, TOPIC, workDir)
    await eventually("the host's long-running consumer reads every partition", async () =>
      Array.from({ length: KAFKA_REPLICAS }, (_, p) => `hello-${p}`).every(consumed) || undefined, WAIT)
  })

  test("memory per broker (resident set of the JVM, -Xmx256m, serial GC)", async (t) => {
    const rss: number[] = []
    for (const name of brokers) {
      const run = await operator.cluster.plane.kubectl(["exec", "-n", NS, name, "--", "cat", "/proc/1/status"])
      assert.equal(run.code, 0, run.stderr)
      const kb = Number(/^VmRSS:\s+(\d+) kB$/mu.exec(run.stdout)?.[1])
      assert.ok(kb > 0, `${name}: VmRSS in ${run.stdout}`)
      rss.push(Math.round(kb / 1024))
    }
    figure(t, `memory per broker (RSS): ${rss.join(", ")} MB`)
    for (const mb of rss) assert.ok(mb < 700, `a broker uses ${mb} MB`)
  })

  test("a deleted broker Pod comes back on its node with the same address; the host's consumer goes on", async (t) => {
    const endpoints = await listenerEndpoints()
    const before1 = await readyPod(brokers[1]!)
    const deletedAt = Date.now()
    await kube.delete(`/api/v1/namespaces/${NS}/pods/${brokers[1]}`)
    const after1 = await readyPod(brokers[1]!, before1.metadata.uid)
    figure(t, `broker Pod deleted → Ready again: ${((Date.now() - deletedAt) / 1000).toFixed(1)} s`)
    assert.equal(after1.spec.nodeName, before1.spec.nodeName)
    assert.deepEqual(await listenerEndpoints(), endpoints, "every Listener keeps its address")
    await metadataListing(endpoints)
    const servers = [...endpoints.values()].join(",")
    await eventually("produce and read back on every partition after the restart", async () => {
      try {
        await roundTrip(servers, (p) => `after-restart-${p}`)
        return true
      } catch {
        return undefined
      }
    }, WAIT)
    await eventually("the long-running consumer reads what was produced after the restart", async () =>
      Array.from({ length: KAFKA_REPLICAS }, (_, p) => `after-restart-${p}`).every(consumed) || undefined, WAIT)
    assert.ok(consumer!.process.running(), "the same kcat process, never restarted")
  })

  test("a lost node: its broker moves to the other node, advertises that node's address, and the host client recovers", async (t) => {
    const endpoints = await listenerEndpoints()
    const nodesOf = new Map(await Promise.all(brokers.map(async (name) => [name, (await pod(name)).spec.nodeName as string] as const)))
    // The node with one broker: the other two keep the quorum (two of three voters).
    const lostNode = NODES.find((n) => [...nodesOf.values()].filter((x) => x === n).length === 1)!
    const survivor = NODES.find((n) => n !== lostNode)!
    const moved = [...nodesOf].find(([, n]) => n === lostNode)![0]
    const movedId = brokers.indexOf(moved)
    const node = operator.cluster.nodes.find((n) => n.name === lostNode)!
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

    const replacement = await readyPod(moved)
    assert.equal(replacement.spec.nodeName, survivor, `${moved} moved to ${survivor}`)
    const newEndpoint = await eventually(`listener-${moved} has ${survivor}'s address`, async () => {
      const endpoint = await listenerEndpoint(moved)
      return endpoint?.startsWith(`${nodeIp(survivor)}:`) === true ? endpoint : undefined
    }, WAIT)
    const expected = new Map(endpoints)
    expected.set(movedId, newEndpoint)
    await metadataListing(expected)
    figure(t, `node lost → moved broker advertised at ${newEndpoint} in the host's metadata: ${((Date.now() - lostAt) / 1000).toFixed(1)} s`)
    // The host reaches the moved broker itself at its new address (bootstrapping from it alone).
    const direct = await eventually(`metadata from ${moved} at ${newEndpoint} alone`, () => metadata(newEndpoint), WAIT)
    assert.equal(advertised(direct).get(movedId), newEndpoint)
    figure(t, `scenario wall time so far: ${((Date.now() - started) / 1000).toFixed(0)} s`)
  })
})

