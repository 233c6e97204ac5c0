import { test } from "node:test"
import assert from "node:assert/strict"
import { planAddresses, planStatus, refusedAddresses, resolvePreference } from "../../../../domain/listenerPlan/index.ts"
import type { AddressType, NodeInput, PreferredAddressType, ServiceInput, ServiceType } from "../../../../domain/listenerPlan/index.ts"
import { node } from "./fixtures.ts"

const PREFERENCES: ReadonlyArray<PreferredAddressType | undefined> = ["IP", "Hostname", "HostnameConservative", undefined]

test("resolvePreference: HostnameConservative (and the default) = IP for NodePort, Hostname otherwise", () => {
  const expected: Record<ServiceType, Record<string, AddressType>> = {
    ClusterIP: { IP: "IP", Hostname: "Hostname", HostnameConservative: "Hostname", undefined: "Hostname" },
    NodePort: { IP: "IP", Hostname: "Hostname", HostnameConservative: "IP", undefined: "IP" },
    LoadBalancer: { IP: "IP", Hostname: "Hostname", HostnameConservative: "Hostname", undefined: "Hostname" }
  }
  for (const type of ["ClusterIP", "NodePort", "LoadBalancer"] as const) {
    for (const preference of PREFERENCES) {
      assert.equal(resolvePreference(preference, type), expected[type][String(preference)], `${type} × ${preference}`)
    }
  }
})

const clusterIpService = (clusterIPs: ReadonlyArray<string> | undefined, clusterIP?: string): ServiceInput => ({
  metadata: { name: "web", namespace: "apps" },
  spec: {
    type: "ClusterIP",
    ...(clusterIPs ? { clusterIPs } : {}),
    ...(clusterIP ? { clusterIP } : {}),
    ports: [{ name: "http", port: 8080 }, { name: "metrics", port: 9090 }]
  }
})

const PORTS = { http: 8080, metrics: 9090 }

test("ClusterIP × each preference", () => {
  const service = clusterIpService(["10.0.0.7", "fd00::7"])
  const hostname = [{ address: "web.apps.svc.cluster.local", addressType: "Hostname", ports: PORTS }]
  const ips = [
    { address: "10.0.0.7", addressType: "IP", ports: PORTS },
    { address: "fd00::7", addressType: "IP", ports: PORTS }
  ]
  const expected: Record<string, unknown> = { IP: ips, Hostname: hostname, HostnameConservative: hostname, undefined: hostname }
  for (const preferred of PREFERENCES) {
    assert.deepEqual(
      planAddresses({ serviceType: "ClusterIP", preferred, service, clusterDomain: "cluster.local", nodes: [] }),
      expected[String(preferred)],
      String(preferred)
    )
  }
})

test("ClusterIP: configurable cluster domain", () => {
  assert.deepEqual(
    planAddresses({ serviceType: "ClusterIP", preferred: "Hostname", service: clusterIpService(["10.0.0.7"]), clusterDomain: "corp.example", nodes: [] }),
    [{ address: "web.apps.svc.corp.example", addressType: "Hostname", ports: PORTS }]
  )
})

test("ClusterIP IP: headless (None) falls back to the hostname; clusterIP used when clusterIPs is absent", () => {
  assert.deepEqual(
    planAddresses({ serviceType: "ClusterIP", preferred: "IP", service: clusterIpService(["None"]), clusterDomain: "cluster.local", nodes: [] }),
    [{ address: "web.apps.svc.cluster.local", addressType: "Hostname", ports: PORTS }]
  )
  assert.deepEqual(
    planAddresses({ serviceType: "ClusterIP", preferred: "IP", service: clusterIpService(undefined, "10.1.1.1"), clusterDomain: "cluster.local", nodes: [] }),
    [{ address: "10.1.1.1", addressType: "IP", ports: PORTS }]
  )
})

const lbService = (ingress: ReadonlyArray<{ ip?: string; hostname?: string }>): ServiceInput => ({
  metadata: { name: "web", namespace: "apps" },
  spec: { type: "LoadBalancer", ports: [{ name: "http", port: 80, nodePort: 31000 }] },
  status: { loadBalancer: { ingress } }
})

test("LoadBalancer × each preference × ingress with IP, hostname, both, neither", () => {
  const ports = { http: 80 }
  const ingress = [
    { ip: "192.0.2.1" },
    { hostname: "lb.example.com" },
    { ip: "192.0.2.2", hostname: "both.example.com" },
    {}
  ]
  const ipFirst = [
    { address: "192.0.2.1", addressType: "IP", ports },
    { address: "lb.example.com", addressType: "Hostname", ports },
    { address: "192.0.2.2", addressType: "IP", ports }
  ]
  const hostnameFirst = [
    { address: "192.0.2.1", addressType: "IP", ports },
    { address: "lb.example.com", addressType: "Hostname", ports },
    { address: "both.example.com", addressType: "Hostname", ports }
  ]
  const expected: Record<string, unknown> = { IP: ipFirst, Hostname: hostnameFirst, HostnameConservative: hostnameFirst, undefined: hostnameFirst }
  for (const preferred of PREFERENCES) {
    assert.deepEqual(
      planAddresses({ serviceType: "LoadBalancer", preferred, service: lbService(ingress), clusterDomain: "cluster.local", nodes: [] }),
      expected[String(preferred)],
      String(preferred)
    )
  }
})

test("LoadBalancer: no ingress yet → no addresses; duplicates and invalid addresses dropped", () => {
  assert.deepEqual(planAddresses({ serviceType: "LoadBalancer", preferred: "IP", service: lbService([]), clusterDomain: "cluster.local", nodes: [] }), [])
  assert.deepEqual(
    planAddresses({
      serviceType: "LoadBalancer", preferred: "IP",
      service: lbService([{ ip: "192.0.2.1" }, { ip: "192.0.2.1" }, { ip: "../etc" }, { hostname: "bad/name" }]),
      clusterDomain: "cluster.local", nodes: []
    }),
    [{ address: "192.0.2.1", addressType: "IP", ports: { http: 80 } }]
  )
})

const nodePortService: ServiceInput = {
  metadata: { name: "web", namespace: "apps" },
  spec: { type: "NodePort", ports: [{ name: "http", port: 80, nodePort: 30080 }, { name: "tls", port: 443, nodePort: 30443 }] }
}
const NODE_PORTS = { http: 30080, tls: 30443 }

// Every combination of the three node address types present or missing.
const COMBOS: ReadonlyArray<Record<string, string>> = [
  {},
  { ExternalIP: "203.0.113.1" },
  { InternalIP: "10.0.0.1" },
  { Hostname: "node-a.example" },
  { ExternalIP: "203.0.113.1", InternalIP: "10.0.0.1" },
  { ExternalIP: "203.0.113.1", Hostname: "node-a.example" },
  { InternalIP: "10.0.0.1", Hostname: "node-a.example" },
  { ExternalIP: "203.0.113.1", InternalIP: "10.0.0.1", Hostname: "node-a.example" }
]

const expectedNodeAddress = (addresses: Record<string, string>, preferred: AddressType) => {
  const ip = addresses["ExternalIP"] ?? addresses["InternalIP"]
  const hostname = addresses["Hostname"]
  const ipEntry = ip ? { address: ip, addressType: "IP" } : undefined
  const hostEntry = hostname ? { address: hostname, addressType: "Hostname" } : undefined
  const pick = preferred === "IP" ? (ipEntry ?? hostEntry) : (hostEntry ?? ipEntry)
  return pick ? [{ ...pick, ports: NODE_PORTS }] : []
}

test("NodePort × each preference × ExternalIP/InternalIP/Hostname present or missing", () => {
  for (const preferred of PREFERENCES) {
    for (const combo of COMBOS) {
      const nodes: ReadonlyArray<NodeInput> = [node("node-a", combo)]
      assert.deepEqual(
        planAddresses({ serviceType: "NodePort", preferred, service: nodePortService, clusterDomain: "cluster.local", nodes }),
        expectedNodeAddress(combo, resolvePreference(preferred, "NodePort")),
        `${preferred} × ${JSON.stringify(combo)}`
      )
    }
  }
})

test("NodePort: the first address of a type wins; one address per node; duplicates across nodes collapse", () => {
  const nodes = [
    { metadata: { name: "a" }, status: { addresses: [{ type: "InternalIP", address: "10.0.0.1" }, { type: "InternalIP", address: "10.0.0.9" }] } },
    node("b", { InternalIP: "10.0.0.2" }),
    node("c", { InternalIP: "10.0.0.2" })
  ]
  assert.deepEqual(
    planAddresses({ serviceType: "NodePort", preferred: "IP", service: nodePortService, clusterDomain: "cluster.local", nodes }),
    [
      { address: "10.0.0.1", addressType: "IP", ports: NODE_PORTS },
      { address: "10.0.0.2", addressType: "IP", ports: NODE_PORTS }
    ]
  )
})

test("NodePort ports are the node ports; ports without an allocated node port are left out", () => {
  const service: ServiceInput = {
    metadata: { name: "web", namespace: "apps" },
    spec: { type: "NodePort", ports: [{ name: "http", port: 80, nodePort: 30080 }, { name: "tls", port: 443 }] }
  }
  assert.deepEqual(
    planAddresses({ serviceType: "NodePort", preferred: "IP", service, clusterDomain: "cluster.local", nodes: [node("a", { InternalIP: "10.0.0.1" })] }),
    [{ address: "10.0.0.1", addressType: "IP", ports: { http: 30080 } }]
  )
})

test("NodePort without backing nodes has no addresses", () => {
  assert.deepEqual(planAddresses({ serviceType: "NodePort", preferred: "IP", service: nodePortService, clusterDomain: "cluster.local", nodes: [] }), [])
})

test("refusedAddresses names every candidate that is not what it claims to be, once, with the reason", () => {
  const lb = { serviceType: "LoadBalancer" as const, preferred: "IP" as const, clusterDomain: "cluster.local", nodes: [] }
  assert.deepEqual(
    refusedAddresses({ ...lb, service: lbService([{ ip: "192.0.2.1" }, { ip: "../etc" }, { hostname: "bad/name" }, { hostname: "ok.example" }, { ip: "../etc" }]) }),
    [{ address: "../etc", problem: "contains '/'" }, { address: "bad/name", problem: "contains '/'" }]
  )
  // A well-formed address of the other kind in the wrong field is refused too.
  assert.deepEqual(refusedAddresses({ ...lb, service: lbService([{ ip: "lb.example" }]) }), [{ address: "lb.example", problem: "is not an IP address" }])
  assert.deepEqual(
    refusedAddresses({ serviceType: "NodePort", preferred: "IP", service: nodePortService, clusterDomain: "cluster.local",
      nodes: [node("node-a", { ExternalIP: "..", Hostname: "node-a" }), node("node-b", { InternalIP: "10.0.0.2" })] }),
    [{ address: "..", problem: "is neither an IP address nor a DNS name" }]
  )
  assert.deepEqual(refusedAddresses({ ...lb, service: lbService([{ ip: "192.0.2.1" }]) }), [])
})

test("the Ready message names refused addresses (at most five, then a count)", () => {
  const status = (refused: ReadonlyArray<{ address: string; problem: string }>) =>
    planStatus({ serviceName: "web", addresses: [], nodePorts: undefined, generation: 1, liveStatus: undefined, now: "2026-01-01T00:00:00Z", refused })
  assert.equal(status([]).conditions[0]!.message, "Service web has no address yet")
  assert.equal(
    status([{ address: "../x", problem: "contains '/'" }]).conditions[0]!.message,
    `Service web has no address yet; ignored 1 unusable address(es): "../x" contains '/'`
  )
  const many = Array.from({ length: 7 }, (_, i) => ({ address: `bad/${i}`, problem: "contains '/'" }))
  assert.match(status(many).conditions[0]!.message, /ignored 7 unusable address\(es\): "bad\/0" contains '\/', .*"bad\/4" contains '\/', and 2 more$/)
})
