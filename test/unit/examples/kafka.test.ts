/**
 * examples/kafka: the entrypoint script a user copies turns the listener volume into
 * Kafka's advertised.listeners (run here with sh and a stand-in `java` that records what it
 * was given), and the StatefulSet example declares what the script reads. The real brokers
 * run in test/e2e/kafka.test.ts.
 */
import { test } from "node:test"
import assert from "node:assert/strict"
import { spawnSync } from "node:child_process"
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseAllDocuments } from "yaml"

const exampleDir = join(import.meta.dirname, "..", "..", "..", "examples", "kafka")
const script = join(exampleDir, "entrypoint.sh")

interface Run {
  readonly status: number | null
  readonly stderr: string
  readonly stdout: string
  readonly properties: string
  readonly javaCalls: string[]
}

/** Runs the script with a listener volume of `address`/`ports` and `env`; `java` only records. */
const run = (options: { address?: string; ports?: Record<string, string>; env?: Record<string, string> }): Run => {
  const dir = mkdtempSync(join(tmpdir(), "kafka-entrypoint-"))
  try {
    const listener = join(dir, "listener")
    mkdirSync(join(listener, "default-address", "ports"), { recursive: true })
    if (options.address !== undefined) writeFileSync(join(listener, "default-address", "address"), options.address)
    for (const [name, port] of Object.entries(options.ports ?? {})) writeFileSync(join(listener, "default-address", "ports", name), port)
    const java = join(dir, "java")
    writeFileSync(java, `#!/bin/sh\necho "$*" >> ${join(dir, "java-calls")}\n`)
    chmodSync(java, 0o755)
    const config = join(dir, "server.properties")
    const result = spawnSync("sh", [script], {
      env: {
        PATH: process.env["PATH"] ?? "/usr/bin:/bin",
        LISTENER_DIR: listener,
        KAFKA_CONFIG: config,
        KAFKA_HOME: "/opt/kafka",
        JAVA: java,
        KAFKA_CLUSTER_ID: "MkU3OEVBNTcwNTJENDM2Qk",
        POD_NAME: "kafka-2",
        POD_NAMESPACE: "streams",
        ...options.env
      },
      encoding: "utf8"
    })
    const read = (path: string) => { try { return readFileSync(path, "utf8") } catch { return "" } }
    return { status: result.status, stderr: result.stderr, stdout: result.stdout, properties: read(config), javaCalls: read(join(dir, "java-calls")).split("\n").filter((l) => l !== "") }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const property = (properties: string, key: string): string | undefined =>
  properties.split("\n").filter((l) => l.startsWith(`${key}=`)).map((l) => l.slice(key.length + 1)).at(-1)

test("the broker advertises the address and port of its listener volume, and finds the quorum by the StatefulSet's DNS names", () => {
  const result = run({ address: "10.213.0.12", ports: { kafka: "31234" } })
  assert.equal(result.status, 0, result.stderr)
  assert.equal(property(result.properties, "node.id"), "2")
  assert.equal(property(result.properties, "advertised.listeners"),
    "INTERNAL://kafka-2.kafka-headless.streams.svc.cluster.local:9092,EXTERNAL://10.213.0.12:31234")
  assert.equal(property(result.properties, "controller.quorum.voters"),
    "0@kafka-0.kafka-headless.streams.svc.cluster.local:9093,1@kafka-1.kafka-headless.streams.svc.cluster.local:9093,2@kafka-2.kafka-headless.streams.svc.cluster.local:9093")
  assert.equal(property(result.properties, "process.roles"), "broker,controller")
  assert.match(result.stdout, /advertises EXTERNAL:\/\/10\.213\.0\.12:31234/u)
  // Storage formatted with the fixed cluster id, then the broker started with the same config.
  assert.equal(result.javaCalls.length, 2)
  assert.match(result.javaCalls[0]!, /kafka\.tools\.StorageTool format --cluster-id MkU3OEVBNTcwNTJENDM2Qk --config \S+server\.properties --ignore-formatted$/u)
  assert.match(result.javaCalls[1]!, /-Xmx256m .*-XX:\+UseSerialGC .*-cp \/opt\/kafka\/libs\/\* kafka\.Kafka \S+server\.properties$/u)
})

test("overrides: a hostname address, another port name, explicit voters and internal host, extra properties", () => {
  const result = run({
    address: "kafka-2.example.com",
    ports: { plaintext: "9094" },
    env: {
      KAFKA_EXTERNAL_PORT_NAME: "plaintext",
      KAFKA_CONTROLLER_QUORUM_VOTERS: "0@10.0.0.10:9093",
      KAFKA_INTERNAL_HOST: "10.214.1.7",
      KAFKA_SERVER_PROPERTIES: "num.partitions=3\nnode.id=7"
    }
  })
  assert.equal(result.status, 0, result.stderr)
  assert.equal(property(result.properties, "advertised.listeners"), "INTERNAL://10.214.1.7:9092,EXTERNAL://kafka-2.example.com:9094")
  assert.equal(property(result.properties, "controller.quorum.voters"), "0@10.0.0.10:9093")
  assert.equal(property(result.properties, "num.partitions"), "3")
  assert.equal(property(result.properties, "node.id"), "7", "an appended line wins")
})

test("an IPv6 address is advertised in brackets", () => {
  const result = run({ address: "fd00::12", ports: { kafka: "31234" } })
  assert.equal(result.status, 0, result.stderr)
  assert.match(property(result.properties, "advertised.listeners") ?? "", /EXTERNAL:\/\/\[fd00::12\]:31234$/u)
})

test("without the listener volume's files the script stops with a message naming them, before starting Java", () => {
  const noVolume = run({})
  assert.equal(noVolume.status, 1)
  assert.match(noVolume.stderr, /listener\/default-address\/address is missing: mount a listener volume/u)
  assert.deepEqual(noVolume.javaCalls, [])
  const noPort = run({ address: "10.213.0.12", ports: { http: "80" } })
  assert.equal(noPort.status, 1)
  assert.match(noPort.stderr, /default-address\/ports\/kafka is missing: .*container port named kafka/u)
  assert.deepEqual(noPort.javaCalls, [])
})

test("a Pod name without an ordinal or a missing cluster id is refused with a clear message", () => {
  const badName = run({ address: "10.213.0.12", ports: { kafka: "1" }, env: { POD_NAME: "kafka" } })
  assert.equal(badName.status, 1)
  assert.match(badName.stderr, /cannot take a broker id from the Pod name kafka/u)
  const noId = run({ address: "10.213.0.12", ports: { kafka: "1" }, env: { KAFKA_CLUSTER_ID: "" } })
  assert.equal(noId.status, 1)
  assert.match(noId.stderr, /KAFKA_CLUSTER_ID is not set/u)
  assert.deepEqual([...badName.javaCalls, ...noId.javaCalls], [])
})

test("the StatefulSet example declares what the script reads: one listener volume per broker, the port named kafka, the downward-API names", () => {
  const docs = parseAllDocuments(readFileSync(join(exampleDir, "kafka.yaml"), "utf8")).map((d) => d.toJS() as Record<string, any>)
  const service = docs.find((d) => d["kind"] === "Service")!
  const sts = docs.find((d) => d["kind"] === "StatefulSet")!
  assert.equal(sts["spec"].serviceName, service["metadata"].name)
  assert.equal(service["spec"].clusterIP, "None")
  assert.equal(service["spec"].publishNotReadyAddresses, true, "controllers must find each other before they are Ready")
  const container = sts["spec"].template.spec.containers[0]
  assert.deepEqual(container.ports.map((p: { name: string }) => p.name), ["kafka"], "only the external port becomes a Listener port")
  const env = Object.fromEntries(container.env.map((e: { name: string; value?: string; valueFrom?: unknown }) => [e.name, e.value ?? e.valueFrom]))
  assert.match(env["KAFKA_CLUSTER_ID"], /^[A-Za-z0-9_-]{22}$/u)
  assert.deepEqual(env["POD_NAME"], { fieldRef: { fieldPath: "metadata.name" } })
  assert.deepEqual(env["POD_NAMESPACE"], { fieldRef: { fieldPath: "metadata.namespace" } })
  assert.equal(env["KAFKA_HEADLESS_SERVICE"], service["metadata"].name)
  const template = sts["spec"].volumeClaimTemplates[0]
  assert.ok(template.metadata.annotations["listeners.stackable.tech/listener-class"])
  assert.ok(container.volumeMounts.some((m: { name: string; mountPath: string }) => m.name === template.metadata.name && m.mountPath === "/listener"))
  assert.equal(sts["spec"].template.spec.affinity, undefined, "no required anti-affinity: two brokers may share a node")
})
