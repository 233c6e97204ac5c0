/**
 * One Kafka cluster of examples/kafka in a namespace of the real-node cluster, seen as its
 * user sees it: the brokers' Pods, their Listeners' addresses, and what kcat on the host
 * gets from them. test/e2e/kafka.test.ts runs one on a NodePort class and one on a
 * LoadBalancer class.
 */
import assert from "node:assert/strict"
import { LISTENER_API_VERSION } from "../../domain/constants.ts"
import { createNamespace, eventually } from "../envtest/kubeClient.ts"
import type { KubeClient, KubeObject } from "../envtest/kubeClient.ts"
import { readyPod } from "../envtest/localCluster.ts"
import { metadata, produce, readPartition } from "./kcat.ts"
import type { Metadata } from "./kcat.ts"
import { entrypointConfigMap, EXTERNAL_PORT, headlessService, KAFKA_REPLICAS, kafkaStatefulSet, STATEFULSET } from "./kafkaWorkload.ts"

const LISTENERS = `/apis/${LISTENER_API_VERSION}`
export const WAIT = { timeoutMs: 300_000, intervalMs: 1000 }
export const brokerNames = Array.from({ length: KAFKA_REPLICAS }, (_, i) => `${STATEFULSET}-${i}`)

interface IngressAddress {
  readonly address: string
  readonly ports: Readonly<Record<string, number>>
}

/** Broker id → `address:port` it advertises. */
export type Endpoints = Map<number, string>

export const advertised = (m: Metadata): Endpoints => new Map(m.brokers.map((b) => [b.id, b.name]))
export const serversOf = (endpoints: Endpoints): string => [...endpoints.values()].join(",")

export interface KafkaBrokers {
  readonly namespace: string
  /** Creates the namespace, the entrypoint ConfigMap, the Services and the StatefulSet on `className`. */
  deploy(className: string): Promise<void>
  pod(name: string): Promise<KubeObject>
  readyPod(name: string, notUid?: string): Promise<KubeObject>
  /** `address:port` of broker `name`'s Listener once it has exactly one address with the kafka port. */
  listenerEndpoint(name: string): Promise<string | undefined>
  listenerEndpoints(): Promise<Endpoints>
  /** Metadata from the host once it lists exactly the brokers at `expected`. */
  metadataListing(expected: Endpoints, topic?: string): Promise<Metadata>
  /** Produces a message to every partition of `topic` and reads each partition back, from the host. */
  roundTrip(servers: string, topic: string, message: (partition: number) => string): Promise<void>
}

export const kafkaBrokers = (kube: KubeClient, namespace: string, log?: (line: string) => void): KafkaBrokers => {
  const listenerEndpoint = async (name: string): Promise<string | undefined> => {
    const l = await kube.get(`${LISTENERS}/namespaces/${namespace}/listeners/listener-${name}`)
    const addresses = (l.status?.["ingressAddresses"] ?? []) as IngressAddress[]
    const port = addresses[0]?.ports[EXTERNAL_PORT]
    return addresses.length === 1 && port !== undefined ? `${addresses[0]!.address}:${port}` : undefined
  }
  return {
    namespace,
    deploy: async (className) => {
      await createNamespace(kube, namespace)
      await kube.create(`/api/v1/namespaces/${namespace}/configmaps`, entrypointConfigMap(namespace))
      await kube.create(`/api/v1/namespaces/${namespace}/services`, headlessService(namespace))
      // The brokers find their quorum by the headless Service's DNS names (CoreDNS, test/clusteraddons).
      await kube.create(`/apis/apps/v1/namespaces/${namespace}/statefulsets`, kafkaStatefulSet({ namespace, className }))
      log?.(`kafka ${namespace}: StatefulSet on class ${className}`)
    },
    pod: (name) => kube.get(`/api/v1/namespaces/${namespace}/pods/${name}`),
    readyPod: (name, notUid) => readyPod(kube, namespace, name, notUid, WAIT),
    listenerEndpoint,
    listenerEndpoints: async () => {
      const endpoints: Endpoints = new Map()
      for (const [id, name] of brokerNames.entries()) {
        endpoints.set(id, await eventually(`Listener ${namespace}/listener-${name} has one address with a ${EXTERNAL_PORT} port`, () => listenerEndpoint(name), WAIT))
      }
      return endpoints
    },
    metadataListing: (expected, topic) =>
      eventually(`metadata from the host lists brokers ${JSON.stringify([...expected])}`, async () => {
        const m = await metadata(serversOf(expected), topic)
        if (m === undefined) return undefined
        const seen = advertised(m)
        return seen.size === expected.size && [...expected].every(([id, endpoint]) => seen.get(id) === endpoint) ? m : undefined
      }, WAIT),
    roundTrip: async (servers, topic, message) => {
      for (let partition = 0; partition < KAFKA_REPLICAS; partition++) {
        const sent = await produce(servers, topic, partition, message(partition))
        assert.equal(sent.code, 0, `produce to ${namespace} partition ${partition}: ${sent.stderr}`)
        const messages = await readPartition(servers, topic, partition)
        assert.ok(messages?.includes(message(partition)), `${namespace} partition ${partition} holds ${message(partition)}: ${JSON.stringify(messages)}`)
      }
    }
  }
}

/** The first produce creates `topic` (auto.create.topics.enable, num.partitions=3 in the example); its metadata once every partition has a leader. */
export const createTopic = async (servers: string, topic: string): Promise<Metadata["topics"][number]> => {
  await eventually(`the first produce to ${topic}, which creates it`, async () => (await produce(servers, topic, 0, "hello-0")).code === 0 || undefined, WAIT)
  return eventually(`topic ${topic} has three partitions with leaders`, async () => {
    const current = (await metadata(servers, topic))?.topics.find((x) => x.topic === topic)
    return current !== undefined && current.partitions.length === KAFKA_REPLICAS && current.partitions.every((p) => p.leader >= 0) ? current : undefined
  }, WAIT)
}
