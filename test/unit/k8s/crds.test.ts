import { test } from "node:test"
import assert from "node:assert/strict"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { Result, Schema } from "effect"
import { parseAllDocuments } from "yaml"
import { DecodeResult } from "../../../domain/decode.ts"
import { Listener } from "../../../domain/listener.ts"
import { ListenerClass } from "../../../domain/listenerClass.ts"
import { PodListeners } from "../../../domain/podListeners.ts"
import { crdManifests, crdYaml, type CustomResourceDefinition } from "../../../k8s/crds.ts"
import { applyDefaults, isNode, validate, walk, type Node } from "./schemaWalk.ts"

const repoRoot = join(import.meta.dirname, "..", "..", "..")

const crds = crdManifests()
const crdOf = (kind: string): CustomResourceDefinition => {
  const crd = crds.find((c) => c.spec.names.kind === kind)
  assert.ok(crd, `no CRD for ${kind}`)
  return crd
}
const schemaOf = (kind: string): Node => crdOf(kind).spec.versions[0]!.schema.openAPIV3Schema
const at = (schema: Node, path: string): Node => {
  const found = walk(schema).find((v) => v.path === path)
  assert.ok(found, `no schema node at ${path}`)
  return found.node
}

const REGENERATE = `node_modules/.bin/tsx -e 'import("./k8s/crds.ts").then((m) => process.stdout.write(m.crdYaml()))' > k8s/crds.yaml`

test("the committed k8s/crds.yaml is exactly the CRDs generated from the Schemas", () => {
  const committed = readFileSync(join(repoRoot, "k8s", "crds.yaml"), "utf8")
  assert.equal(committed, crdYaml(), `k8s/crds.yaml drifted from the domain Schemas; regenerate it with:\n  ${REGENERATE}`)
})

test("crdYaml is three YAML documents equal to crdManifests", () => {
  const documents = parseAllDocuments(crdYaml()).map((d) => d.toJS())
  assert.deepEqual(documents, JSON.parse(JSON.stringify(crds)))
})

test("names, scope, version and subresources", () => {
  assert.deepEqual(crds.map((c) => [c.metadata.name, c.spec.scope, c.spec.names.plural, c.spec.names.singular, c.spec.names.listKind]), [
    ["listenerclasses.listeners.stackable.tech", "Cluster", "listenerclasses", "listenerclass", "ListenerClassList"],
    ["listeners.listeners.stackable.tech", "Namespaced", "listeners", "listener", "ListenerList"],
    ["podlisteners.listeners.stackable.tech", "Namespaced", "podlisteners", "podlisteners", "PodListenersList"]
  ])
  for (const crd of crds) {
    assert.equal(crd.apiVersion, "apiextensions.k8s.io/v1")
    assert.equal(crd.spec.group, "listeners.stackable.tech")
    assert.equal(crd.spec.versions.length, 1)
    const version = crd.spec.versions[0]!
    assert.deepEqual([version.name, version.served, version.storage], ["v1alpha1", true, true])
  }
  assert.deepEqual(crdOf("Listener").spec.versions[0]!.subresources, { status: {} })
  assert.equal(crdOf("ListenerClass").spec.versions[0]!.subresources, undefined)
  assert.equal(crdOf("PodListeners").spec.versions[0]!.subresources, undefined)
})

test("printer columns: Listener Class/Service/Addresses/Age, ListenerClass Type/Pinned/Node-Loss-Recovery, Node-Addresses, Hostname-Template (wide)/Age", () => {
  const columns = (kind: string) => crdOf(kind).spec.versions[0]!.additionalPrinterColumns.map((c) => [c.name, c.type, c.jsonPath])
  assert.deepEqual(columns("Listener"), [
    ["Class", "string", ".spec.className"],
    ["Service", "string", ".status.serviceName"],
    ["Addresses", "string", ".status.ingressAddresses[*].address"],
    ["Age", "date", ".metadata.creationTimestamp"]
  ])
  assert.deepEqual(columns("ListenerClass"), [
    ["Type", "string", ".spec.serviceType"],
    ["Pinned", "boolean", ".spec.pinnedNodePorts"],
    ["Node-Loss-Recovery", "boolean", ".spec.pinnedNodeLossRecovery"],
    ["Node-Addresses", "string", ".spec.nodeAddressTypes"],
    ["Hostname-Template", "string", ".spec.hostnameTemplate"],
    ["Age", "date", ".metadata.creationTimestamp"]
  ])
  for (const wide of ["Node-Loss-Recovery", "Node-Addresses", "Hostname-Template"]) {
    const column = crdOf("ListenerClass").spec.versions[0]!.additionalPrinterColumns.find((c) => c.name === wide)
    assert.equal((column as { priority?: number } | undefined)?.priority, 1, `${wide}: shown with -o wide only`)
  }
  // Every column's path exists in the schema.
  for (const crd of crds) {
    const schema = crd.spec.versions[0]!.schema.openAPIV3Schema
    for (const column of crd.spec.versions[0]!.additionalPrinterColumns) {
      if (column.jsonPath.startsWith(".metadata.")) continue
      at(schema, column.jsonPath.slice(1).replace(/\[\*\]/gu, "[*]"))
    }
  }
})

const STRUCTURAL_KEYWORDS = new Set([
  "type", "format", "title", "description", "default", "nullable", "enum", "maximum", "exclusiveMaximum", "minimum",
  "exclusiveMinimum", "multipleOf", "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems",
  "maxProperties", "minProperties", "required", "items", "properties", "additionalProperties",
  "x-kubernetes-preserve-unknown-fields", "x-kubernetes-int-or-string", "x-kubernetes-embedded-resource",
  "x-kubernetes-list-type", "x-kubernetes-list-map-keys", "x-kubernetes-map-type", "x-kubernetes-validations"
])

test("every node of every CRD schema follows the structural-schema rules", () => {
  for (const crd of crds) {
    const kind = crd.spec.names.kind
    const schema = crd.spec.versions[0]!.schema.openAPIV3Schema
    const visits = walk(schema)
    assert.ok(visits.length > 10, `${kind}: suspiciously small schema`)
    for (const { node, path, property } of visits) {
      const where = `${kind} ${path === "" ? "<root>" : path}`
      for (const key of Object.keys(node)) assert.ok(STRUCTURAL_KEYWORDS.has(key), `${where}: keyword ${key}`)
      const freeForm = node["x-kubernetes-preserve-unknown-fields"] === true || node["x-kubernetes-int-or-string"] === true
      if (!freeForm) assert.equal(typeof node["type"], "string", `${where}: no type`)
      assert.ok(!("properties" in node && "additionalProperties" in node), `${where}: properties beside additionalProperties`)
      assert.notEqual(typeof node["additionalProperties"], "boolean", `${where}: boolean additionalProperties`)
      if (node["type"] === "object" && !freeForm) {
        assert.ok(isNode(node["properties"]) || isNode(node["additionalProperties"]) || path === "metadata", `${where}: empty object would be pruned`)
      }
      if (Array.isArray(node["required"])) {
        for (const key of node["required"] as string[]) assert.ok(isNode(node["properties"]) && key in node["properties"], `${where}: required ${key} is not a property`)
      }
      if (node["x-kubernetes-list-type"] === "map") {
        const items = node["items"] as Node
        assert.equal(items["type"], "object", `${where}: list-map items must be objects`)
        const keys = node["x-kubernetes-list-map-keys"] as string[]
        assert.ok(Array.isArray(keys) && keys.length > 0, `${where}: list-map without keys`)
        for (const key of keys) {
          const keyNode = (items["properties"] as Record<string, Node>)[key]!
          assert.ok(((items["required"] as string[] | undefined) ?? []).includes(key) || "default" in keyNode, `${where}: list-map key ${key} must be required`)
          assert.ok(["string", "integer", "boolean"].includes(keyNode["type"] as string), `${where}: list-map key ${key} must be scalar`)
        }
      }
      if ("default" in node) assert.deepEqual(validate(node, node["default"], path), [], `${where}: default is invalid`)
      if (Array.isArray(node["enum"])) {
        for (const value of node["enum"]) assert.deepEqual(validate({ ...node, enum: undefined }, value, path), [], `${where}: enum value ${JSON.stringify(value)}`)
      }
      // What the schema calls nullable must really accept null (a nullable enum would not).
      if (node["nullable"] === true) assert.deepEqual(validate(node, null, path), [], `${where}: nullable but refuses null`)
      if (property !== undefined && path !== "metadata") {
        assert.ok(typeof node["description"] === "string" && node["description"].length > 10, `${where}: no description`)
      }
    }
    assert.deepEqual(schema["properties"] && (schema["properties"] as Record<string, Node>)["metadata"], { type: "object" })
    assert.deepEqual(schema["required"], ["spec"])
    assert.ok(!JSON.stringify(schema).includes("$ref"))
  }
})

test("the Listener CRD refuses names that cannot be label values (CEL rule at the root)", () => {
  assert.deepEqual(schemaOf("Listener")["x-kubernetes-validations"], [{
    rule: "size(self.metadata.name) <= 63",
    message: "metadata.name must be at most 63 characters: a Listener's name is used as a label value"
  }])
  assert.equal(schemaOf("ListenerClass")["x-kubernetes-validations"], undefined)
})

test("free-form nodes are exactly the overrides", () => {
  const freeForm = crds.flatMap((crd) =>
    walk(crd.spec.versions[0]!.schema.openAPIV3Schema)
      .filter((v) => v.node["x-kubernetes-preserve-unknown-fields"] === true)
      .map((v) => `${crd.spec.names.kind} ${v.path}`))
  assert.deepEqual(freeForm, ["ListenerClass spec.serviceOverrides", "Listener spec.objectOverrides[*]"])
})

test("Listener ports: range, name syntax, protocol enum, list-map keyed by name", () => {
  const listener = schemaOf("Listener")
  const ports = at(listener, "spec.ports")
  assert.equal(ports["type"], "array")
  assert.equal(ports["x-kubernetes-list-type"], "map")
  assert.deepEqual(ports["x-kubernetes-list-map-keys"], ["name"])
  assert.deepEqual(at(listener, "spec.ports[*]")["required"], ["name", "port"])
  const port = at(listener, "spec.ports[*].port")
  assert.deepEqual([port["type"], port["minimum"], port["maximum"]], ["integer", 1, 65535])
  const name = at(listener, "spec.ports[*].name")
  assert.deepEqual([name["type"], name["maxLength"], name["pattern"]], ["string", 63, "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"])
  // Nullable (clients of the seeds' API send null), so the choices are a pattern, not an enum.
  const protocol = at(listener, "spec.ports[*].protocol")
  assert.deepEqual([protocol["pattern"], protocol["default"], protocol["nullable"]], ["^(TCP|UDP|SCTP)$", "TCP", true])
  assert.deepEqual(validate(protocol, "QUIC"), [": should match ^(TCP|UDP|SCTP)$"])
  assert.deepEqual(validate(protocol, null), [])
  assert.deepEqual(at(listener, "status.conditions")["x-kubernetes-list-map-keys"], ["type"])
  assert.deepEqual(at(listener, "status.ingressAddresses[*].addressType")["enum"], ["IP", "Hostname"])
})

test("defaults and enums are those of spec §2", () => {
  const defaults = (kind: string) => Object.fromEntries(walk(schemaOf(kind)).filter((v) => "default" in v.node).map((v) => [v.path, v.node["default"]]))
  assert.deepEqual(defaults("ListenerClass"), {
    "spec.serviceAnnotations": {},
    "spec.loadBalancerAllocateNodePorts": true,
    "spec.preferredAddressType": "HostnameConservative",
    "spec.pinnedNodePorts": false,
    "spec.serviceOverrides": {}
  })
  assert.deepEqual(defaults("Listener"), {
    "spec.ports": [],
    "spec.ports[*].protocol": "TCP",
    "spec.extraPodSelectorLabels": {},
    "spec.publishNotReadyAddresses": true,
    "spec.objectOverrides": []
  })
  const listenerClass = schemaOf("ListenerClass")
  assert.deepEqual(at(listenerClass, "spec.serviceType")["enum"], ["ClusterIP", "NodePort", "LoadBalancer"])
  assert.deepEqual(at(listenerClass, "spec")["required"], ["serviceType"])
  assert.equal(at(listenerClass, "spec.serviceExternalTrafficPolicy")["pattern"], "^(Cluster|Local)$")
  assert.equal(at(listenerClass, "spec.loadBalancerClass")["nullable"], true)
  assert.equal(at(listenerClass, "spec.preferredAddressType")["pattern"], "^(IP|Hostname|HostnameConservative)$")
  assert.deepEqual(at(schemaOf("PodListeners"), "spec.listeners[*].scope")["enum"], ["Node", "Cluster"])
})

// The API server's defaulting and the decoder's defaulting must agree, or a Listener
// would mean different things to kubectl and to the operator.
test("API-server defaults equal decoder defaults", () => {
  const cases: Array<[string, Schema.Top, unknown]> = [
    ["ListenerClass", ListenerClass, { metadata: { name: "c", uid: "u" }, spec: { serviceType: "NodePort" } }],
    ["Listener", Listener, { metadata: { name: "l", namespace: "n", uid: "u" }, spec: { ports: [{ name: "http", port: 80 }] } }],
    ["Listener", Listener, { metadata: { name: "l", namespace: "n", uid: "u" }, spec: {} }],
    ["PodListeners", PodListeners, { metadata: { name: "p", namespace: "n", uid: "u" }, spec: { listeners: { v: { scope: "Node" } } } }]
  ]
  for (const [kind, schema, object] of cases) {
    const decoded = Schema.decodeUnknownSync(schema as Schema.Codec<unknown, unknown>)(object)
    const encoded = Schema.encodeSync(schema as Schema.Codec<unknown, unknown>)(decoded) as { spec: unknown }
    const defaulted = applyDefaults(schemaOf(kind), object) as { spec: unknown }
    assert.deepEqual(defaulted.spec, encoded.spec, `${kind}: ${JSON.stringify(object)}`)
  }
})

const examples = join(repoRoot, "examples")
const manifestsIn = (file: string): Array<{ kind: string }> =>
  parseAllDocuments(readFileSync(file, "utf8")).map((d) => d.toJS()).filter((m) => m !== null)

test("the CRD schemas accept every example manifest", () => {
  for (const file of readdirSync(examples).filter((f) => f.endsWith(".yaml"))) {
    for (const manifest of manifestsIn(join(examples, file))) {
      assert.deepEqual(validate(schemaOf(manifest.kind), manifest), [], `${file} (${manifest.kind})`)
    }
  }
})

test("the CRD schemas refuse every invalid example at (or above) the field the decoder names", () => {
  const dir = join(examples, "invalid")
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".yaml"))) {
    const text = readFileSync(join(dir, file), "utf8")
    const field = /^# invalid-field: (\S+)$/mu.exec(text)![1]!
    const manifest = manifestsIn(join(dir, file))[0]!
    const errors = validate(schemaOf(manifest.kind), manifest)
    const paths = errors.map((e) => e.slice(0, e.indexOf(": ")))
    assert.ok(
      paths.some((p) => p === field || field.startsWith(`${p}.`) || field.startsWith(`${p}[`)),
      `${file}: expected an error at ${field}, got ${JSON.stringify(errors)}`
    )
    // The decoder agrees that the manifest is invalid.
    const stored = { ...manifest, metadata: { name: "x", namespace: "default", uid: "u" } }
    const decode: (input: unknown) => Result.Result<unknown, unknown> = manifest.kind === "ListenerClass" ? DecodeResult.ListenerClass : DecodeResult.Listener
    assert.ok(Result.isFailure(decode(stored)), file)
  }
})
