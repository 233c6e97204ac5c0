import { test } from "node:test"
import assert from "node:assert/strict"
import { Schema } from "effect"
import { DecodeResult } from "../../../domain/decode.ts"
import { Listener } from "../../../domain/listener.ts"
import { assertIssue, expectFailure, expectSuccess, storedMeta } from "./support.ts"

const decode = DecodeResult.Listener

const listenerWith = (spec: unknown, extra: Record<string, unknown> = {}) => ({
  apiVersion: "listeners.stackable.tech/v1alpha1",
  kind: "Listener",
  metadata: storedMeta("web", "default"),
  spec,
  ...extra
})

const withPorts = (...ports: ReadonlyArray<unknown>) => listenerWith({ className: "external-unstable", ports })

test("a minimal Listener gets every default of the spec", () => {
  const listener = expectSuccess(decode(listenerWith({})))
  assert.equal(listener.spec.className, undefined)
  assert.equal(listener.status, undefined)
  assert.deepEqual(listener.spec, {
    ports: [],
    extraPodSelectorLabels: {},
    publishNotReadyAddresses: true,
    objectOverrides: []
  })
})

test("ports default their protocol to TCP and keep the others", () => {
  const listener = expectSuccess(decode(withPorts({ name: "http", port: 8080 }, { name: "dns", port: 53, protocol: "UDP" })))
  assert.deepEqual(listener.spec.ports, [
    { name: "http", port: 8080, protocol: "TCP" },
    { name: "dns", port: 53, protocol: "UDP" }
  ])
})

test("null optional fields (as other clients send them) decode as absent or default", () => {
  const listener = expectSuccess(decode(listenerWith({
    className: null,
    ports: [{ name: "http", port: 80, protocol: null }],
    extraPodSelectorLabels: null,
    publishNotReadyAddresses: null,
    objectOverrides: null
  }, { status: null })))
  assert.equal("className" in listener.spec, false)
  assert.deepEqual(listener.spec.ports, [{ name: "http", port: 80, protocol: "TCP" }])
  assert.deepEqual(listener.spec.extraPodSelectorLabels, {})
  assert.equal(listener.spec.publishNotReadyAddresses, true)
  assert.deepEqual(listener.spec.objectOverrides, [])
  assert.equal("status" in listener, false)
})

test("port 0 is refused, naming the field", () => {
  const error = expectFailure(decode(withPorts({ name: "http", port: 0 })))
  assert.equal(error.path, "spec.ports[0].port")
  assertIssue(error, "spec.ports[0].port", "Expected a value between 1 and 65535, got 0")
  assert.equal(error.message, "Listener default/web: spec.ports[0].port: Expected a value between 1 and 65535, got 0")
})

test("port 70000 is refused, naming the field", () => {
  const error = expectFailure(decode(withPorts({ name: "http", port: 8080 }, { name: "admin", port: 70000 })))
  assert.equal(error.path, "spec.ports[1].port")
  assertIssue(error, "spec.ports[1].port", "Expected a value between 1 and 65535, got 70000")
})

test("a port that is not a number is refused, naming the field", () => {
  const error = expectFailure(decode(withPorts({ name: "http", port: "abc" })))
  assertIssue(error, "spec.ports[0].port", 'Expected number, got "abc"')
})

test("a fractional port is refused", () => {
  assertIssue(expectFailure(decode(withPorts({ name: "http", port: 80.5 }))), "spec.ports[0].port", "Expected an integer, got 80.5")
})

test("duplicate port names are refused at the duplicate", () => {
  const error = expectFailure(decode(withPorts(
    { name: "http", port: 8080 },
    { name: "http", port: 8443 },
    { name: "rpc", port: 9000 },
    { name: "http", port: 9443, protocol: "UDP" }
  )))
  assert.equal(error.path, "spec.ports[1].name")
  assertIssue(error, "spec.ports[1].name", 'Duplicate port name "http" (already used by port 0)')
  assertIssue(error, "spec.ports[3].name", 'Duplicate port name "http"')
  assert.equal(error.issues.length, 2)
})

test("an unknown protocol is refused, naming the field and the choices", () => {
  const error = expectFailure(decode(withPorts({ name: "http", port: 8080, protocol: "QUIC" })))
  assertIssue(error, "spec.ports[0].protocol", 'Expected "TCP" | "UDP" | "SCTP", got "QUIC"')
})

test("port names must be DNS labels of at most 63 characters", () => {
  assertIssue(expectFailure(decode(withPorts({ name: "HTTP_1", port: 80 }))), "spec.ports[0].name", /DNS label.*got "HTTP_1"/u)
  assertIssue(expectFailure(decode(withPorts({ name: "", port: 80 }))), "spec.ports[0].name", "length of at least 1")
  assertIssue(expectFailure(decode(withPorts({ name: `a${"b".repeat(63)}`, port: 80 }))), "spec.ports[0].name", "length of at most 63")
  assertIssue(expectFailure(decode(withPorts({ port: 80 }))), "spec.ports[0].name", "Missing key")
  expectSuccess(decode(withPorts({ name: `a${"b".repeat(62)}`, port: 80 }, { name: "port-8080", port: 8080 })))
})

test("a spec that is not an object is refused, naming spec", () => {
  for (const spec of ["abc", 42, [1, 2], true]) {
    const error = expectFailure(decode(listenerWith(spec)))
    assert.equal(error.path, "spec")
    assertIssue(error, "spec", "Expected object")
  }
  assertIssue(expectFailure(decode({ apiVersion: "listeners.stackable.tech/v1alpha1", kind: "Listener", metadata: storedMeta("web", "default") })), "spec", "Missing key")
})

test("ports that are not a list, and wrong field types, are refused by path", () => {
  assertIssue(expectFailure(decode(listenerWith({ ports: { http: 80 } }))), "spec.ports", "Expected array")
  assertIssue(expectFailure(decode(listenerWith({ publishNotReadyAddresses: "yes" }))), "spec.publishNotReadyAddresses", 'Expected boolean, got "yes"')
  assertIssue(expectFailure(decode(listenerWith({ extraPodSelectorLabels: { "app.kubernetes.io/role": 1 } }))), 'spec.extraPodSelectorLabels["app.kubernetes.io/role"]', "Expected string, got 1")
  assertIssue(expectFailure(decode(listenerWith({ objectOverrides: [1] }))), "spec.objectOverrides[0]", "Expected object")
})

test("every bad field is reported, not just the first", () => {
  const error = expectFailure(decode(withPorts({ name: "http", port: 0 }, { name: "Bad", port: 1, protocol: "X" })))
  assert.deepEqual(error.issues.map((i) => i.path), ["spec.ports[0].port", "spec.ports[1].name", "spec.ports[1].protocol"])
})

test("objects of another kind, and metadata without uid, are refused", () => {
  assertIssue(expectFailure(decode(listenerWith({}, { kind: "Service" }))), "kind", 'Expected "Listener", got "Service"')
  assertIssue(expectFailure(decode(listenerWith({}, { apiVersion: "v1" }))), "apiVersion", "listeners.stackable.tech/v1alpha1")
  const noUid = { ...listenerWith({}), metadata: { name: "web", namespace: "default" } }
  assertIssue(expectFailure(decode(noUid)), "metadata.uid", "Missing key")
})

test("objectOverrides keep arbitrary nested content verbatim", () => {
  const override = { apiVersion: "v1", kind: "Service", metadata: { name: "web", annotations: { a: "b" } }, spec: { ipFamilies: ["IPv6"], x: { y: [1, null] } } }
  const listener = expectSuccess(decode(listenerWith({ objectOverrides: [override] })))
  assert.deepEqual(listener.spec.objectOverrides, [override])
})

const status = {
  serviceName: "web",
  ingressAddresses: [
    { address: "10.0.0.1", addressType: "IP", ports: { http: 32000 } },
    { address: "node-1.example.com", addressType: "Hostname", ports: { http: 32000 } }
  ],
  nodePorts: { http: 32000 },
  observedGeneration: 3,
  conditions: [{
    type: "Ready",
    status: "True",
    reason: "AddressesPublished",
    message: "",
    lastTransitionTime: "2024-05-01T10:00:00Z",
    observedGeneration: 3
  }]
}

test("the status decodes with addresses, node ports and conditions", () => {
  const listener = expectSuccess(decode(listenerWith({ ports: [{ name: "http", port: 80 }] }, { status })))
  assert.deepEqual(listener.status, status)
})

test("bad status fields are refused by path", () => {
  const badAddressType = { ...status, ingressAddresses: [{ address: "10.0.0.1", addressType: "ExternalIP", ports: {} }] }
  assertIssue(expectFailure(decode(listenerWith({}, { status: badAddressType }))), "status.ingressAddresses[0].addressType", 'Expected "IP" | "Hostname", got "ExternalIP"')
  const badPort = { ...status, nodePorts: { http: 0 } }
  assertIssue(expectFailure(decode(listenerWith({}, { status: badPort }))), "status.nodePorts.http", "between 1 and 65535")
  const badCondition = { ...status, conditions: [{ ...status.conditions[0], status: "Maybe" }] }
  assertIssue(expectFailure(decode(listenerWith({}, { status: badCondition }))), "status.conditions[0].status", 'Expected "True" | "False" | "Unknown", got "Maybe"')
  const badReason = { ...status, conditions: [{ ...status.conditions[0], reason: "not a reason" }] }
  assertIssue(expectFailure(decode(listenerWith({}, { status: badReason }))), "status.conditions[0].reason", "CamelCase reason")
})

test("decode → encode → decode is the identity, and encoding spells defaults out", () => {
  const input = listenerWith({ className: "c", ports: [{ name: "http", port: 80 }] }, { status })
  const decoded = expectSuccess(decode(input))
  const encoded = Schema.encodeSync(Listener)(decoded)
  assert.deepEqual(encoded.spec, {
    className: "c",
    ports: [{ name: "http", port: 80, protocol: "TCP" }],
    extraPodSelectorLabels: {},
    publishNotReadyAddresses: true,
    objectOverrides: []
  })
  assert.deepEqual(expectSuccess(decode(JSON.parse(JSON.stringify(encoded)))), decoded)
})
