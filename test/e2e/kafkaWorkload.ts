/**
 * The Kafka workload of test/e2e/kafka.test.ts: exactly examples/kafka (the StatefulSet, its
 * headless Service and entrypoint.sh in a ConfigMap), with only what a test run must change —
 * the offline image, the listener class, the namespace. The brokers find their quorum by
 * the headless Service's DNS names, served by the cluster's CoreDNS.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { parseAllDocuments } from "yaml"
import { KAFKA_REF } from "../images/kafka.ts"

const exampleDir = join(import.meta.dirname, "..", "..", "examples", "kafka")
export const KAFKA_REPLICAS = 3
export const STATEFULSET = "kafka"
/** The container port whose node port / load-balancer port each broker advertises. */
export const EXTERNAL_PORT = "kafka"

type Manifest = Record<string, any>

const exampleManifests = (): Manifest[] =>
  parseAllDocuments(readFileSync(join(exampleDir, "kafka.yaml"), "utf8")).map((d) => d.toJS() as Manifest)

export const entrypointConfigMap = (namespace: string): Manifest => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "kafka-entrypoint", namespace },
  data: { "entrypoint.sh": readFileSync(join(exampleDir, "entrypoint.sh"), "utf8") }
})

export const headlessService = (namespace: string): Manifest => {
  const service = exampleManifests().find((m) => m["kind"] === "Service")!
  return { ...service, metadata: { ...service["metadata"], namespace } }
}

export interface KafkaOptions {
  readonly namespace: string
  readonly className: string
}

export const kafkaStatefulSet = (options: KafkaOptions): Manifest => {
  const sts = structuredClone(exampleManifests().find((m) => m["kind"] === "StatefulSet")!)
  sts["metadata"].namespace = options.namespace
  const pod = sts["spec"].template.spec
  // Only for the test: the broker's shutdown is not what is under test.
  pod.terminationGracePeriodSeconds = 10
  const container = pod.containers[0]
  container.image = KAFKA_REF
  container.imagePullPolicy = "Never"
  sts["spec"].volumeClaimTemplates[0].metadata.annotations["listeners.stackable.tech/listener-class"] = options.className
  return sts
}
