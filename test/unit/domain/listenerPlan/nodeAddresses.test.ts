import { test } from "node:test"
import assert from "node:assert/strict"
import { acceptedNodeAddressTypes, NODE_ADDRESS_ANNOTATION, nodeAddressOverride, nodeAddresses, planAddresses, refusedAddresses } from "../../../../domain/listenerPlan/index.ts"
import type { NodeAddressPolicy, NodeInput, ServiceInput } from "../../../../domain/listenerPlan/index.ts"

const node = (addresses: ReadonlyArray<[string, string]>, override?: string): NodeInput => ({
  metadata: { name: "n1", ...(override !== undefined ? { annotations: { [NODE_ADDRESS_ANNOTATION]: override } } : {}) },
  status: { addresses: addresses.map(([type, address]) => ({ type, address })) }
})
const dual = node([
  ["InternalIP", "10.0.0.1"], ["InternalIP", "fd00::1"], ["ExternalIP", "203.0.113.1"], ["ExternalIP", "2001:db8::1"],
  ["ExternalIP", "203.0.113.2"], ["Hostname", "n1"], ["InternalDNS", "n1.internal.example"], ["ExternalDNS", "n1.example.com"]
])
const pick = (n: NodeInput, policy: Partial<NodeAddressPolicy>) =>
  nodeAddresses(n, { preferred: "IP", ...policy }).map((a) => `${a.addressType}:${a.address}`)

test("unset rules: the upstream behaviour — first ExternalIP, else InternalIP; Hostname for a Hostname preference", () => {
  assert.deepEqual(pick(dual, {}), ["IP:203.0.113.1"])
  assert.deepEqual(pick(dual, { preferred: "Hostname" }), ["Hostname:n1"])
  assert.deepEqual(pick(node([["InternalIP", "10.0.0.1"]]), { preferred: "Hostname" }), ["IP:10.0.0.1"], "the other kind as fallback")
  assert.deepEqual(pick(node([]), {}), [])
})

test("nodeAddressTypes: the first listed type the node has a usable address of wins", () => {
  assert.deepEqual(pick(dual, { types: ["ExternalDNS", "ExternalIP"] }), ["Hostname:n1.example.com"])
  assert.deepEqual(pick(dual, { types: ["InternalDNS"] }), ["Hostname:n1.internal.example"])
  assert.deepEqual(pick(node([["ExternalDNS", "bad/name"], ["InternalIP", "10.0.0.9"]]), { types: ["ExternalDNS", "InternalIP"] }), ["IP:10.0.0.9"])
  assert.deepEqual(pick(node([["InternalIP", "10.0.0.9"]]), { types: ["ExternalIP", "ExternalDNS"] }), [], "none of the listed types: no address")
})

test("nodeAddressSelection: First, OnePerFamily (dual-stack) and All", () => {
  assert.deepEqual(pick(dual, { types: ["ExternalIP"], selection: "First" }), ["IP:203.0.113.1"])
  assert.deepEqual(pick(dual, { types: ["ExternalIP"], selection: "OnePerFamily" }), ["IP:203.0.113.1", "IP:2001:db8::1"])
  assert.deepEqual(pick(dual, { types: ["ExternalIP"], selection: "All" }), ["IP:203.0.113.1", "IP:2001:db8::1", "IP:203.0.113.2"])
  assert.deepEqual(pick(dual, { selection: "OnePerFamily" }), ["IP:203.0.113.1", "IP:2001:db8::1"], "also without nodeAddressTypes")
  assert.deepEqual(pick(dual, { types: ["ExternalDNS"], selection: "OnePerFamily" }), ["Hostname:n1.example.com"])
})

test("the node-address annotation overrides every rule; unusable entries are refused and named", () => {
  assert.deepEqual(pick(node([["InternalIP", "10.0.0.1"]], "nat.example.com"), { types: ["InternalIP"] }), ["Hostname:nat.example.com"])
  assert.deepEqual(pick(node([], " 198.51.100.7 , 2001:db8::7 "), { selection: "OnePerFamily" }), ["IP:198.51.100.7", "IP:2001:db8::7"])
  const bad = node([["InternalIP", "10.0.0.1"]], "../etc, 198.51.100.7")
  assert.deepEqual(pick(bad, {}), ["IP:198.51.100.7"])
  assert.deepEqual(nodeAddressOverride(bad)?.refused.map((r) => r.address), ["../etc"])
  assert.deepEqual(pick(node([["InternalIP", "10.0.0.1"]], "not an address"), {}), ["IP:10.0.0.1"], "no usable entry: the override is ignored")
  assert.deepEqual(nodeAddressOverride(node([], "  , "))?.refused.map((r) => r.problem), [`is empty (annotation ${NODE_ADDRESS_ANNOTATION} of Node n1)`])
})

test("planAddresses and refusedAddresses follow the rules for NodePort Listeners", () => {
  const service: ServiceInput = { metadata: { name: "web", namespace: "apps" }, spec: { type: "NodePort", ports: [{ name: "http", port: 80, nodePort: 30080 }] } }
  const inputs = { serviceType: "NodePort" as const, preferred: undefined, service, clusterDomain: "cluster.local" }
  assert.deepEqual(planAddresses({ ...inputs, nodes: [dual], nodeAddressSelection: "OnePerFamily" }), [
    { address: "203.0.113.1", addressType: "IP", ports: { http: 30080 } },
    { address: "2001:db8::1", addressType: "IP", ports: { http: 30080 } }
  ])
  const withBadOverride = node([["InternalIP", "10.0.0.1"]], "x/y")
  assert.deepEqual(planAddresses({ ...inputs, nodes: [withBadOverride] }), [{ address: "10.0.0.1", addressType: "IP", ports: { http: 30080 } }])
  assert.match(refusedAddresses({ ...inputs, nodes: [withBadOverride] })[0]!.problem, /contains '\/' \(annotation listeners.stackable.tech\/node-address of Node n1\)/)
})

test("acceptedNodeAddressTypes: the class's nodeAddressTypes as listed, else the upstream rule's types, preferred kind first", () => {
  assert.deepEqual(acceptedNodeAddressTypes({ preferred: "IP", types: ["InternalDNS", "ExternalIP"] }), ["InternalDNS", "ExternalIP"])
  assert.deepEqual(acceptedNodeAddressTypes({ preferred: "Hostname", types: ["InternalIP"] }), ["InternalIP"], "the list wins over the preference")
  assert.deepEqual(acceptedNodeAddressTypes({ preferred: "IP" }), ["ExternalIP", "InternalIP", "Hostname"])
  assert.deepEqual(acceptedNodeAddressTypes({ preferred: "Hostname", types: [] }), ["Hostname", "ExternalIP", "InternalIP"])
})
