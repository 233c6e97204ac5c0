// The generated CRDs against the real API server: they install and become Established,
// the samples in examples/ are accepted with the spec's defaults, every sample in
// examples/invalid/ is refused with Invalid naming its field (`# invalid-field:` line),
// and kubectl shows descriptions (explain) and printer columns (get).
import { after, before, test } from "node:test"
import assert from "node:assert/strict"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, ManagedRuntime } from "effect"
import { parseAllDocuments } from "yaml"
import { KubeApiHttp } from "../../adapters/KubeApiHttp.ts"
import { Kinds } from "../../domain/kinds.ts"
import type { ResourceKind } from "../../domain/kinds.ts"
import { KubeApi, KubeApiError } from "../../effects/shared/KubeApi.ts"
import type { KubeObject } from "../../effects/shared/KubeApi.ts"
import { crdManifests } from "../../k8s/crds.ts"
import { startControlPlane } from "../envtest/controlPlane.ts"
import type { ControlPlane } from "../envtest/controlPlane.ts"

const EXAMPLES = join(import.meta.dirname, "..", "..", "examples")
const NAMESPACE = "samples"

let plane: ControlPlane | undefined
let runtime: ManagedRuntime.ManagedRuntime<KubeApi | KubeApiHttp, unknown> | undefined

before(async () => {
  plane = await startControlPlane()
  runtime = ManagedRuntime.make(KubeApiHttp.layerFromKubeconfigFile(plane.kubeconfigPath))
}, { timeout: 180_000 })

after(async () => {
  await runtime?.dispose()
  await plane?.stop()
})

type Api = KubeApi["Service"]

const run = <A, E>(f: (api: Api) => Effect.Effect<A, E>): Promise<A> => {
  if (runtime === undefined) throw new Error("control plane not started")
  return runtime.runPromise(KubeApi.use(f))
}

const failure = async (f: (api: Api) => Effect.Effect<unknown, KubeApiError>): Promise<KubeApiError> => {
  const error = await run((api) => Effect.flip(f(api)))
  assert.ok(error instanceof KubeApiError, "expected a KubeApiError")
  return error
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

const eventually = async <A>(check: () => Promise<A>, timeoutMs = 60_000): Promise<A> => {
  const deadline = performance.now() + timeoutMs
  for (;;) {
    try {
      return await check()
    } catch (error) {
      if (performance.now() > deadline) throw error
      await sleep(250)
    }
  }
}

const kindOf = (object: KubeObject): ResourceKind => {
  const kind = [Kinds.Listener, Kinds.ListenerClass, Kinds.PodListeners].find((k) => k.kind === object.kind)
  assert.ok(kind !== undefined, `unexpected kind ${object.kind}`)
  return kind
}

const withNamespace = (object: KubeObject): KubeObject =>
  kindOf(object).namespaced ? { ...object, metadata: { ...object.metadata, namespace: NAMESPACE } } : object

const samplesIn = (file: string): ReadonlyArray<KubeObject> =>
  parseAllDocuments(readFileSync(file, "utf8"))
    .map((doc) => doc.toJS() as KubeObject | null)
    .filter((o): o is KubeObject => o !== null)

const yamlFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith(".yaml")).sort().map((f) => join(dir, f))

/** `expected` is contained in `actual`: every field it sets has the same value there. */
const assertContains = (actual: unknown, expected: unknown, path = ""): void => {
  if (typeof expected === "object" && expected !== null && !Array.isArray(expected)) {
    assert.ok(typeof actual === "object" && actual !== null, `${path} is an object`)
    for (const [key, value] of Object.entries(expected)) {
      assertContains((actual as Record<string, unknown>)[key], value, `${path}.${key}`)
    }
  } else if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual) && actual.length === expected.length, `${path} has ${expected.length} items`)
    expected.forEach((item, i) => assertContains(actual[i], item, `${path}[${i}]`))
  } else {
    assert.deepEqual(actual, expected, path)
  }
}

const created = new Map<string, KubeObject>()

test("the CRDs install and become Established", async () => {
  for (const crd of crdManifests()) {
    const applied = await run((api) =>
      api.apply(Kinds.CustomResourceDefinition, { ...crd }, { fieldManager: "listener-operator", force: true }))
    assert.equal(applied.metadata.name, crd.metadata.name)
  }
  for (const crd of crdManifests()) {
    await eventually(async () => {
      const current = await run((api) => api.get(Kinds.CustomResourceDefinition, { name: crd.metadata.name }))
      const conditions = (current["status"] as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions ?? []
      for (const type of ["NamesAccepted", "Established"]) {
        assert.ok(conditions.some((c) => c.type === type && c.status === "True"), `${crd.metadata.name} ${type}: ${JSON.stringify(conditions)}`)
      }
    }, 30_000)
  }
  await run((api) => api.create(Kinds.Namespace, { apiVersion: "v1", kind: "Namespace", metadata: { name: NAMESPACE } }))
})

test("every valid sample is accepted as written, with the spec's defaults filled in", async () => {
  const samples = yamlFiles(EXAMPLES).flatMap(samplesIn).map(withNamespace)
  assert.ok(samples.length >= 5, "examples/ holds samples")
  // classes first: that is also the order a user applies them in
  const ordered = [...samples].sort((a, b) => Number(kindOf(b) === Kinds.ListenerClass) - Number(kindOf(a) === Kinds.ListenerClass))
  for (const sample of ordered) {
    const { status, ...withoutStatus } = sample
    // right after Established the new resource can take a moment to be served
    const object = await eventually(() => run((api) => api.create(kindOf(sample), withoutStatus, { fieldManager: "samples" })), 15_000)
    assertContains(object["spec"], sample["spec"], `${sample.kind} ${sample.metadata.name} spec`)
    created.set(`${sample.kind}/${sample.metadata.name}`, object)
    if (status !== undefined) {
      // the status schema takes what the operator reports
      const withStatus = await run((api) => api.updateStatus(kindOf(sample), { ...object, status }))
      assert.deepEqual(withStatus["status"], status)
    }
  }

  const spec = (key: string) => created.get(key)?.["spec"] as Record<string, unknown>
  assert.deepEqual(spec("ListenerClass/cluster-internal"), {
    serviceType: "ClusterIP",
    serviceAnnotations: {},
    loadBalancerAllocateNodePorts: true,
    preferredAddressType: "HostnameConservative",
    pinnedNodePorts: false,
    serviceOverrides: {}
  })
  assert.equal(spec("ListenerClass/internal-load-balancer")["preferredAddressType"], "Hostname")
  assert.equal(spec("ListenerClass/internal-load-balancer")["loadBalancerAllocateNodePorts"], false)

  const web = spec("Listener/web")
  assert.deepEqual(web["ports"], [
    { name: "http", port: 8080, protocol: "TCP" },
    { name: "metrics", port: 9090, protocol: "TCP" },
    { name: "dns", port: 5353, protocol: "UDP" }
  ])
  assert.equal(web["publishNotReadyAddresses"], false)
  const namenode = spec("Listener/namenode-0")
  assert.equal(namenode["publishNotReadyAddresses"], true)
  assert.deepEqual(namenode["extraPodSelectorLabels"], {})
  assert.deepEqual(namenode["ports"], [{ name: "rpc", port: 8020, protocol: "TCP" }])
})

test("every invalid sample is refused with Invalid naming its field", async () => {
  const files = yamlFiles(join(EXAMPLES, "invalid"))
  assert.ok(files.length >= 6, "examples/invalid holds samples")
  const mismatches: Array<string> = []
  for (const file of files) {
    const text = readFileSync(file, "utf8")
    const field = /^# invalid-field: (\S+)$/mu.exec(text)?.[1]
    assert.ok(field !== undefined, `${file} names its invalid field`)
    for (const sample of samplesIn(file).map(withNamespace)) {
      const error = await failure((api) => api.create(kindOf(sample), sample))
      const fields = (error.causes ?? []).map((c) => c.field)
      const ok = error.reason === "Invalid" && error.status === 422 && fields.includes(field) && error.message.includes(field)
      // collected, so one run reports every sample the server judges differently
      if (!ok) mismatches.push(`${file}: expected Invalid naming ${field}, got ${error.reason} ${JSON.stringify(error.causes)}: ${error.message}`)
    }
  }
  assert.deepEqual(mismatches, [])
})

test("a Listener whose name cannot be a label value is refused at admission; 63 characters are accepted", async () => {
  const listener = (name: string): KubeObject => ({
    apiVersion: "listeners.stackable.tech/v1alpha1",
    kind: "Listener",
    metadata: { name, namespace: NAMESPACE },
    spec: { className: "cluster-internal" }
  })
  const error = await failure((api) => api.create(Kinds.Listener, listener(`long-${"x".repeat(59)}`)))
  assert.equal(error.reason, "Invalid")
  assert.match(error.message, /metadata\.name must be at most 63 characters/)
  const accepted = await run((api) => api.create(Kinds.Listener, listener(`long-${"x".repeat(58)}`)))
  assert.equal(accepted.metadata.name?.length, 63)
})

test("kubectl explain shows the schema's descriptions", async () => {
  const listenerCrd = crdManifests().find((c) => c.spec.names.kind === "Listener")!
  const schema = listenerCrd.spec.versions[0]!.schema.openAPIV3Schema as {
    properties: { spec: { properties: { ports: { description: string; items: { properties: Record<string, { description: string }> } } } } }
  }
  const ports = schema.properties.spec.properties.ports
  // the OpenAPI document of a new CRD is published shortly after it is Established
  const output = await eventually(async () => {
    const result = await plane!.kubectl(["explain", "listeners.spec.ports"])
    assert.equal(result.code, 0, result.stderr)
    return result.stdout
  }, 30_000)
  const flat = output.replace(/\s+/gu, " ")
  assert.ok(flat.includes(ports.description.replace(/\s+/gu, " ")), `explain shows the ports description:\n${output}`)
  for (const [name, property] of Object.entries(ports.items.properties)) {
    assert.match(output, new RegExp(`^\\s+${name}\\s`, "mu"), `explain lists ${name}`)
    // kubectl wraps long lines; compare the first words of each description
    const firstWords = property.description.split(/\s+/u).slice(0, 4).join(" ")
    assert.ok(flat.includes(firstWords), `explain shows the description of ${name} ("${firstWords}")`)
  }
})

/** A field of a generated CRD schema: its description and the type kubectl explain prints for it. */
const schemaField = (kind: string, path: ReadonlyArray<string>): { readonly description: string } => {
  const crd = crdManifests().find((c) => c.spec.names.kind === kind)!
  let node = crd.spec.versions[0]!.schema.openAPIV3Schema as { properties?: Record<string, unknown>; description?: string }
  for (const name of path) {
    const next = node.properties?.[name] as typeof node | undefined
    assert.ok(next !== undefined, `${kind} has no field ${path.join(".")}`)
    node = next
  }
  assert.ok(typeof node.description === "string" && node.description.length > 0, `${kind}.${path.join(".")} has a description`)
  return { description: node.description }
}

const flatten = (text: string) => text.replace(/\s+/gu, " ").trim()

// The fields of addressing beyond the upstream API (issue 10). The per-node override is an
// annotation on the Node (listeners.stackable.tech/node-address), not a field: the
// description of nodeAddressTypes names it.
const addressingFields = [
  { resource: "listenerclasses", kind: "ListenerClass", path: ["spec", "nodeAddressTypes"], type: "[]string", mentions: ["listeners.stackable.tech/node-address"] },
  { resource: "listenerclasses", kind: "ListenerClass", path: ["spec", "nodeAddressSelection"], type: "string", mentions: ["OnePerFamily"] },
  { resource: "listenerclasses", kind: "ListenerClass", path: ["spec", "hostnameTemplate"], type: "string", mentions: ["{listener}", "{ordinal}"] },
  { resource: "listenerclasses", kind: "ListenerClass", path: ["spec", "hostnameAnnotation"], type: "string", mentions: ["external-dns"] },
  { resource: "listeners", kind: "Listener", path: ["status", "nodePorts"], type: "map[string]integer", mentions: ["NodePortConflict", "re-created"] }
] as const

test("kubectl explain shows the description of every addressing field beyond upstream", async () => {
  const problems: Array<string> = []
  for (const field of addressingFields) {
    const name = field.path[field.path.length - 1]!
    const { description } = schemaField(field.kind, field.path)
    for (const mention of field.mentions) {
      if (!description.includes(mention)) problems.push(`${field.kind}.${field.path.join(".")}: the description does not mention ${mention}`)
    }
    const output = await eventually(async () => {
      const result = await plane!.kubectl(["explain", `${field.resource}.${field.path.join(".")}`])
      assert.equal(result.code, 0, result.stderr)
      return result.stdout
    }, 30_000)
    if (!new RegExp(`^FIELD:\\s+${name}\\s+<${field.type.replace(/[[\]]/gu, "\\$&")}>`, "mu").test(output)) {
      problems.push(`explain ${field.path.join(".")}: no "FIELD: ${name} <${field.type}>" line:\n${output}`)
    }
    // kubectl wraps and indents the text: compare with whitespace collapsed.
    if (!flatten(output).includes(flatten(description))) problems.push(`explain ${field.path.join(".")} lacks the description:\n${output}`)

    // The parent object lists the field with its type.
    const parent = await plane!.kubectl(["explain", `${field.resource}.${field.path.slice(0, -1).join(".")}`])
    assert.equal(parent.code, 0, parent.stderr)
    if (!new RegExp(`^\\s+${name}\\s+<${field.type.replace(/[[\]]/gu, "\\$&")}>`, "mu").test(parent.stdout)) {
      problems.push(`explain ${field.resource}.${field.path.slice(0, -1).join(".")} does not list ${name} <${field.type}>:\n${parent.stdout}`)
    }
  }
  assert.deepEqual(problems, [])
})

/** A kubectl table as one record per row, cells cut at the header's column starts. */
const tableOf = (stdout: string): Array<Record<string, string>> => {
  const [header, ...rows] = stdout.trimEnd().split("\n")
  const columns = [...header!.matchAll(/\S+/gu)].map((match) => ({ name: match[0], at: match.index }))
  return rows.map((row) =>
    Object.fromEntries(columns.map((column, i) => [column.name, row.slice(column.at, columns[i + 1]?.at ?? row.length).trim()]))
  )
}

test("kubectl get -o wide shows the addressing values of a ListenerClass and of a Listener of it", async () => {
  // kafka-brokers is a sample (examples/listenerclasses.yaml), created above.
  const classes = await plane!.kubectl(["get", "listenerclass", "kafka-brokers", "-o", "wide"])
  assert.equal(classes.code, 0, classes.stderr)
  const [kafkaClass] = tableOf(classes.stdout)
  const { AGE: classAge, ...classColumns } = kafkaClass!
  assert.deepEqual(classColumns, {
    NAME: "kafka-brokers",
    TYPE: "NodePort",
    PINNED: "false",
    "NODE-LOSS-RECOVERY": "", // unset: server-side printing leaves the cell empty
    "NODE-ADDRESSES": `["ExternalDNS","ExternalIP","InternalIP"]`,
    "HOSTNAME-TEMPLATE": "{listener}.{namespace}.kafka.example.com"
  }, classes.stdout)
  assert.match(classAge!, /^[0-9]+[smh]/u)

  // A Listener of that class as the controller reports it: the templated hostname with its
  // remembered node port.
  const listener = await run((api) =>
    api.create(Kinds.Listener, {
      apiVersion: "listeners.stackable.tech/v1alpha1",
      kind: "Listener",
      metadata: { name: "kafka-0", namespace: NAMESPACE },
      spec: { className: "kafka-brokers", ports: [{ name: "kafka", port: 9092 }] }
    }))
  await run((api) =>
    api.updateStatus(Kinds.Listener, {
      ...listener,
      status: {
        serviceName: "kafka-0",
        ingressAddresses: [{ address: "kafka-0.samples.kafka.example.com", addressType: "Hostname", ports: { kafka: 31092 } }],
        nodePorts: { kafka: 31092 }
      }
    }))
  const listeners = await plane!.kubectl(["get", "listener", "kafka-0", "-n", NAMESPACE, "-o", "wide"])
  assert.equal(listeners.code, 0, listeners.stderr)
  const [kafka] = tableOf(listeners.stdout)
  const { AGE: listenerAge, ...listenerColumns } = kafka!
  assert.deepEqual(listenerColumns, {
    NAME: "kafka-0",
    CLASS: "kafka-brokers",
    SERVICE: "kafka-0",
    ADDRESSES: "kafka-0.samples.kafka.example.com"
  }, listeners.stdout)
  assert.match(listenerAge!, /^[0-9]+[smh]/u)
})

test("kubectl get shows the printer columns", async () => {
  const listeners = await plane!.kubectl(["get", "listeners", "-n", NAMESPACE])
  assert.equal(listeners.code, 0, listeners.stderr)
  const [header, ...rows] = listeners.stdout.trim().split("\n")
  assert.deepEqual(header!.trim().split(/\s+/u), ["NAME", "CLASS", "SERVICE", "ADDRESSES", "AGE"])
  const namenode = rows.find((r) => r.startsWith("namenode-0 "))
  assert.ok(namenode !== undefined, listeners.stdout)
  // a JSONPath column with several matches shows the first one only (server-side printing)
  assert.deepEqual(namenode.trim().split(/\s+/u).slice(0, 4), ["namenode-0", "external-stable", "namenode-0", "172.18.0.3"])

  const classes = await plane!.kubectl(["get", "listenerclasses"])
  assert.equal(classes.code, 0, classes.stderr)
  const [classHeader, ...classRows] = classes.stdout.trim().split("\n")
  assert.deepEqual(classHeader!.trim().split(/\s+/u), ["NAME", "TYPE", "PINNED", "AGE"])
  const pinned = classRows.find((r) => r.startsWith("external-pinned "))
  assert.deepEqual(pinned?.trim().split(/\s+/u).slice(0, 3), ["external-pinned", "NodePort", "true"])
  const wide = await plane!.kubectl(["get", "listenerclasses", "-o", "wide"])
  assert.equal(wide.code, 0, wide.stderr)
  assert.deepEqual(wide.stdout.trim().split("\n")[0]!.trim().split(/\s+/u), ["NAME", "TYPE", "PINNED", "NODE-LOSS-RECOVERY", "NODE-ADDRESSES", "HOSTNAME-TEMPLATE", "AGE"])
})
