import { test } from "node:test"
import assert from "node:assert/strict"
import { awaitingAddressesHint, planStatus } from "../../../../domain/listenerPlan/index.ts"
import type { AwaitingInputs, ServiceInput } from "../../../../domain/listenerPlan/index.ts"
import { node } from "./fixtures.ts"

const service = (spec: ServiceInput["spec"]): ServiceInput => ({ metadata: { name: "web", namespace: "apps" }, spec })
const nodePort = service({ type: "NodePort", ports: [{ name: "http", port: 80, nodePort: 30080 }] })
const inputs = (overrides: Partial<AwaitingInputs>): AwaitingInputs => ({
  serviceType: "NodePort",
  preferred: undefined,
  service: nodePort,
  clusterDomain: "cluster.local",
  nodes: [],
  backingNodeNames: [],
  ...overrides
})

test("LoadBalancer: waits for a load-balancer controller, named by loadBalancerClass when set", () => {
  const lb = inputs({ serviceType: "LoadBalancer", service: service({ type: "LoadBalancer", ports: [{ name: "http", port: 80 }] }) })
  assert.match(awaitingAddressesHint(lb), /^status.loadBalancer.ingress of the Service is empty; it fills when a load-balancer controller assigns an address/)
  assert.match(awaitingAddressesHint({ ...lb, loadBalancerClass: "example.com/lb" }), /when the load-balancer controller of loadBalancerClass example.com\/lb assigns/)
  assert.match(awaitingAddressesHint(lb), /choose a ListenerClass of another serviceType/)
})

test("ClusterIP: waits for the cluster IP", () => {
  assert.match(awaitingAddressesHint(inputs({ serviceType: "ClusterIP", service: service({ type: "ClusterIP" }) })), /no cluster IP yet/)
})

test("NodePort: names what is missing — node ports, a Pod on a node, the nodes themselves, or their addresses", () => {
  assert.equal(awaitingAddressesHint(inputs({ service: service({ type: "NodePort", ports: [{ name: "http", port: 80 }] }) })), "the Service has no node ports allocated yet")
  assert.match(awaitingAddressesHint(inputs({})), /^no Pod that mounts a volume of this Listener is running on a node yet/)
  assert.equal(awaitingAddressesHint(inputs({ backingNodeNames: ["gone"] })), "node(s) gone no longer exist")
  assert.equal(
    awaitingAddressesHint(inputs({ backingNodeNames: ["bare", "gone"], nodes: [node("bare", {})] })),
    "node(s) gone no longer exist; node(s) bare have no ExternalIP, InternalIP or Hostname address"
  )
  const many = ["a", "b", "c", "d", "e"]
  assert.equal(
    awaitingAddressesHint(inputs({ backingNodeNames: many, nodes: many.map((name) => node(name, {})) })),
    "node(s) a, b, c and 2 more have no ExternalIP, InternalIP or Hostname address"
  )
})

test("the Ready condition carries the hint after the Service's name", () => {
  const status = planStatus({
    serviceName: "web",
    addresses: [],
    nodePorts: undefined,
    generation: 1,
    liveStatus: undefined,
    now: "2026-01-01T00:00:00Z",
    awaiting: "the Service has no node ports allocated yet"
  })
  assert.equal(status.conditions[0]!.reason, "AwaitingAddresses")
  assert.equal(status.conditions[0]!.message, "Service web has no address yet: the Service has no node ports allocated yet")
})
