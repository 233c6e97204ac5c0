// The Listener controller against the real control plane (kube-apiserver + etcd +
// kube-controller-manager): Services, addresses, conditions, overrides, the foreign-Service
// guard, class changes, recovery, garbage collection and isolation of a bad Listener.
import { after, before, test } from "node:test"
import assert from "node:assert/strict"
import { Effect, Fiber, Layer, ManagedRuntime } from "effect"
import { EventRecorderKube } from "../../adapters/EventRecorderKube.ts"
import { KubeApiHttp } from "../../adapters/KubeApiHttp.ts"
import { Kinds } from "../../domain/kinds.ts"
import type { ResourceKind } from "../../domain/kinds.ts"
import { EventRecorder } from "../../effects/shared/EventRecorder.ts"
import { getOption, KubeApi } from "../../effects/shared/KubeApi.ts"
import type { KubeObject } from "../../effects/shared/KubeApi.ts"
import { crdManifests } from "../../k8s/crds.ts"
import { runListenerController } from "../../k8s/listenerController.ts"
import { startControlPlane } from "../envtest/controlPlane.ts"
import type { ControlPlane } from "../envtest/controlPlane.ts"
import { createFakeNode } from "../envtest/fakeNodes.ts"
import { createNamespace, eventually } from "../envtest/kubeClient.ts"

const NS = "listeners"
const LISTENER_API = "listeners.stackable.tech/v1alpha1"

let plane: ControlPlane | undefined
let runtime: ManagedRuntime.ManagedRuntime<KubeApi | KubeApiHttp | EventRecorder, unknown> | undefined
let controller: Fiber.Fiber<never, unknown> | undefined

const run = <A, E>(effect: Effect.Effect<A, E, KubeApi>): Promise<A> => {
  if (runtime === undefined) throw new Error("control plane not started")
  return runtime.runPromise(effect)
}
const api = <A, E>(f: (api: KubeApi["Service"]) => Effect.Effect<A, E>) => run(KubeApi.use(f))
const get = (kind: ResourceKind, name: string, namespace?: string) =>
  run(Effect.map(getOption(KubeApi.use((a) => a.get(kind, { name, namespace }))), (o) => (o._tag === "Some" ? o.value : undefined)))

before(async () => {
  plane = await startControlPlane({ controllerManager: true })
  const kube = Layer.provideMerge(
    EventRecorderKube.layer({ reportingController: "listeners.stackable.tech/listener-operator", reportingInstance: "integration" }),
    KubeApiHttp.layerFromKubeconfigFile(plane.kubeconfigPath)
  )
  runtime = ManagedRuntime.make(kube)
  for (const crd of crdManifests()) {
    await api((a) => a.apply(Kinds.CustomResourceDefinition, { ...crd }, { fieldManager: "integration", force: true }))
  }
  for (const crd of crdManifests()) {
    await eventually(`CRD ${crd.metadata.name} established`, async () => {
      const current = await get(Kinds.CustomResourceDefinition, crd.metadata.name)
      const conditions = (current?.["status"] as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions ?? []
      return conditions.some((c) => c.type === "Established" && c.status === "True")
    }, { timeoutMs: 30_000 })
  }
  await eventually("Listener resource served", async () => (await api((a) => a.list(Kinds.Listener, { namespace: "default" })), true))
  await createNamespace(plane.kube, NS)
  controller = runtime.runFork(runListenerController({ concurrency: 4 }))
}, { timeout: 240_000 })

after(async () => {
  if (controller !== undefined) await runtime?.runPromise(Fiber.interrupt(controller))
  await runtime?.dispose()
  await plane?.stop()
})

const createClass = (name: string, spec: Record<string, unknown>) =>
  api((a) => a.create(Kinds.ListenerClass, { apiVersion: LISTENER_API, kind: "ListenerClass", metadata: { name }, spec }))

const createListener = (name: string, spec: Record<string, unknown>) =>
  api((a) => a.create(Kinds.Listener, { apiVersion: LISTENER_API, kind: "Listener", metadata: { name, namespace: NS }, spec }))

interface Ingress { address: string; addressType: string; ports: Record<string, number> }
const statusOf = (listener: KubeObject | undefined) =>
  listener?.["status"] as { ingressAddresses?: Ingress[]; nodePorts?: Record<string, number>; serviceName?: string; conditions?: Array<Record<string, unknown>> } | undefined
const readyOf = (listener: KubeObject | undefined) => statusOf(listener)?.conditions?.find((c) => c["type"] === "Ready")

/** Waits until the Listener's status satisfies `check`; returns the Listener. */
const listenerWhere = (name: string, what: string, check: (listener: KubeObject) => boolean, timeoutMs = 60_000) =>
  eventually(`Listener ${name}: ${what}`, async () => {
    const listener = await get(Kinds.Listener, name, NS)
    return listener !== undefined && check(listener) ? listener : undefined
  }, { timeoutMs })

const withReason = (reason: string) => (listener: KubeObject) => readyOf(listener)?.["reason"] === reason
const specOf = (o: KubeObject | undefined) => (o?.["spec"] ?? {}) as Record<string, unknown>

test("ClusterIP: Hostname by default, IP on request; Service shape; EndpointSlices carry the operator label", async () => {
  await createClass("it-clusterip", { serviceType: "ClusterIP" })
  await createClass("it-clusterip-ip", { serviceType: "ClusterIP", preferredAddressType: "IP" })
  await createListener("ci-host", { className: "it-clusterip", ports: [{ name: "http", port: 8080 }], extraPodSelectorLabels: { app: "web" } })
  await createListener("ci-ip", { className: "it-clusterip-ip", ports: [{ name: "http", port: 8080 }] })

  const host = await listenerWhere("ci-host", "Ready", withReason("Reconciled"))
  assert.deepEqual(statusOf(host)?.ingressAddresses, [{ address: `ci-host.${NS}.svc.cluster.local`, addressType: "Hostname", ports: { http: 8080 } }])
  assert.equal(readyOf(host)?.["status"], "True")
  assert.equal(readyOf(host)?.["observedGeneration"], host.metadata.generation)
  const service = (await get(Kinds.Service, "ci-host", NS))!
  assert.deepEqual(service.metadata.ownerReferences, [
    { apiVersion: LISTENER_API, kind: "Listener", name: "ci-host", uid: host.metadata.uid, controller: true, blockOwnerDeletion: true }
  ])
  assert.equal(service.metadata.labels?.["app.kubernetes.io/instance"], "ci-host")
  assert.deepEqual(specOf(service)["selector"], { app: "web", [`listener.stackable.tech/mnt.${host.metadata.uid!.replaceAll("-", "")}`]: "ci-host" })
  assert.equal(specOf(service)["publishNotReadyAddresses"], true)

  const ip = await listenerWhere("ci-ip", "Ready", withReason("Reconciled"))
  const clusterIP = specOf(await get(Kinds.Service, "ci-ip", NS))["clusterIP"]
  assert.deepEqual(statusOf(ip)?.ingressAddresses, [{ address: clusterIP, addressType: "IP", ports: { http: 8080 } }])

  // The EndpointSlice watch is scoped by the managed-by label: the EndpointSlice controller copies it from the Service.
  await eventually("EndpointSlice of ci-host with the operator label", async () => {
    const slices = await api((a) => a.list(Kinds.EndpointSlice, { namespace: NS, labelSelector: "kubernetes.io/service-name=ci-host" }))
    return slices.items.some((s) => s.metadata.labels?.["app.kubernetes.io/managed-by"] === "listeners.stackable.tech_listener")
  })
})

test("NodePort: one address per node of the labelled PVs, with node ports", async () => {
  await createFakeNode(plane!.kube, { name: "it-node-a", addresses: [{ type: "InternalIP", address: "10.20.0.1" }, { type: "Hostname", address: "it-node-a" }] })
  await createFakeNode(plane!.kube, { name: "it-node-b", addresses: [{ type: "ExternalIP", address: "203.0.113.20" }, { type: "InternalIP", address: "10.20.0.2" }] })
  await createClass("it-nodeport", { serviceType: "NodePort" })
  await createListener("np", { className: "it-nodeport", ports: [{ name: "http", port: 8080 }, { name: "dns", port: 53, protocol: "UDP" }] })
  await listenerWhere("np", "AwaitingAddresses (no backing node yet)", withReason("AwaitingAddresses"))
  for (const [pv, node] of [["it-pv-a", "it-node-a"], ["it-pv-b", "it-node-b"]] as const) {
    await api((a) => a.create(Kinds.PersistentVolume, {
      apiVersion: "v1", kind: "PersistentVolume",
      metadata: { name: pv, labels: { "listeners.stackable.tech/listener-namespace": NS, "listeners.stackable.tech/listener-name": "np" } },
      spec: {
        capacity: { storage: "1" }, accessModes: ["ReadWriteMany"], storageClassName: "listeners.stackable.tech",
        csi: { driver: "listeners.stackable.tech", volumeHandle: pv },
        nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: "listeners.stackable.tech/hostname", operator: "In", values: [node] }] }] } }
      }
    }))
  }
  const listener = await listenerWhere("np", "two addresses", (l) => (statusOf(l)?.ingressAddresses ?? []).length === 2)
  const ports = specOf(await get(Kinds.Service, "np", NS))["ports"] as Array<{ name: string; nodePort: number }>
  const nodePorts = Object.fromEntries(ports.map((p) => [p.name, p.nodePort]))
  assert.deepEqual(statusOf(listener)?.ingressAddresses, [
    { address: "10.20.0.1", addressType: "IP", ports: nodePorts },
    { address: "203.0.113.20", addressType: "IP", ports: nodePorts }
  ])
  assert.deepEqual(statusOf(listener)?.nodePorts, nodePorts)
  assert.equal(readyOf(listener)?.["status"], "True")
})

test("nodeAddressTypes and nodeAddressSelection: the first listed type wins; OnePerFamily publishes IPv4 and IPv6", async () => {
  await createFakeNode(plane!.kube, {
    name: "it-node-ds",
    addresses: [
      { type: "InternalIP", address: "10.20.0.9" },
      { type: "ExternalIP", address: "203.0.113.9" },
      { type: "ExternalIP", address: "2001:db8::9" },
      { type: "ExternalDNS", address: "it-node-ds.example.com" }
    ]
  })
  await createClass("it-types", { serviceType: "NodePort", nodeAddressTypes: ["ExternalDNS", "InternalIP"] })
  await createListener("np-types", { className: "it-types", ports: [{ name: "http", port: 8080 }] })
  await api((a) => a.create(Kinds.PersistentVolume, {
    apiVersion: "v1", kind: "PersistentVolume",
    metadata: { name: "it-pv-ds", labels: { "listeners.stackable.tech/listener-namespace": NS, "listeners.stackable.tech/listener-name": "np-types" } },
    spec: {
      capacity: { storage: "1" }, accessModes: ["ReadWriteMany"], storageClassName: "listeners.stackable.tech",
      csi: { driver: "listeners.stackable.tech", volumeHandle: "it-pv-ds" },
      nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: "listeners.stackable.tech/hostname", operator: "In", values: ["it-node-ds"] }] }] } }
    }
  }))
  let listener = await listenerWhere("np-types", "the ExternalDNS name", (l) => statusOf(l)?.ingressAddresses?.[0]?.address === "it-node-ds.example.com")
  assert.deepEqual(statusOf(listener)?.ingressAddresses?.map((a) => [a.address, a.addressType]), [["it-node-ds.example.com", "Hostname"]])
  // Changing the class re-plans its Listeners.
  await api((a) => a.patch(Kinds.ListenerClass, { name: "it-types" }, { spec: { nodeAddressTypes: ["ExternalIP"], nodeAddressSelection: "OnePerFamily" } }, { type: "merge" }))
  listener = await listenerWhere("np-types", "both families", (l) => (statusOf(l)?.ingressAddresses ?? []).length === 2)
  assert.deepEqual(statusOf(listener)?.ingressAddresses?.map((a) => [a.address, a.addressType]), [["203.0.113.9", "IP"], ["2001:db8::9", "IP"]])
})

test("stable node ports: a deleted Service comes back with the same node ports; a remembered port taken elsewhere is a NodePortConflict", async () => {
  const portsOf = async (name: string) =>
    Object.fromEntries((specOf(await get(Kinds.Service, name, NS))["ports"] as Array<{ name: string; nodePort: number }>).map((p) => [p.name, p.nodePort]))
  const before = await portsOf("np")
  const uid = (await get(Kinds.Service, "np", NS))!.metadata.uid
  await api((a) => a.delete(Kinds.Service, { namespace: NS, name: "np" }))
  const recreated = await eventually("Service np re-created", async () => {
    const service = await get(Kinds.Service, "np", NS)
    return service !== undefined && service.metadata.uid !== uid ? service : undefined
  }, { timeoutMs: 60_000 })
  assert.ok(recreated)
  assert.deepEqual(await portsOf("np"), before, "the same node ports again")

  // A port the Listener remembers, held by another Service: reported, the Service left as it is.
  await createClass("it-nodeport-stable", { serviceType: "NodePort" })
  await api((a) => a.create(Kinds.Service, {
    apiVersion: "v1", kind: "Service", metadata: { name: "squatter", namespace: NS },
    spec: { type: "NodePort", ports: [{ name: "x", port: 1, nodePort: 31999 }] }
  }))
  await createListener("np-stable", { className: "it-nodeport-stable", ports: [{ name: "http", port: 8080 }] })
  await listenerWhere("np-stable", "node ports known", (l) => statusOf(l)?.nodePorts?.["http"] !== undefined)
  const own = await portsOf("np-stable")
  await api((a) => a.patchStatus(Kinds.Listener, { namespace: NS, name: "np-stable" }, { status: { nodePorts: { http: 31999 } } }, { type: "merge", fieldManager: "integration" }))
  const conflicted = await listenerWhere("np-stable", "NodePortConflict", withReason("NodePortConflict"))
  assert.match(String(readyOf(conflicted)?.["message"]), /cannot get back the node ports Listener np-stable had \(http=31999\)/)
  assert.deepEqual(await portsOf("np-stable"), own, "the Service is not changed")
  await api((a) => a.delete(Kinds.Service, { namespace: NS, name: "squatter" }))
  await eventually("np-stable on its remembered port", async () => (await portsOf("np-stable"))["http"] === 31999, { timeoutMs: 120_000 })
})

test("LoadBalancer: class fields on the Service; the Listener follows the Service status (IP, then hostname)", async () => {
  await createClass("it-lb", { serviceType: "LoadBalancer", loadBalancerClass: "example.com/fake-lb", loadBalancerAllocateNodePorts: false })
  await createListener("lb", { className: "it-lb", ports: [{ name: "http", port: 80 }] })
  await listenerWhere("lb", "AwaitingAddresses", withReason("AwaitingAddresses"))
  const service = (await get(Kinds.Service, "lb", NS))!
  assert.equal(specOf(service)["type"], "LoadBalancer")
  assert.equal(specOf(service)["loadBalancerClass"], "example.com/fake-lb")
  assert.equal(specOf(service)["allocateLoadBalancerNodePorts"], false)

  await api((a) => a.patchStatus(Kinds.Service, { namespace: NS, name: "lb" }, { status: { loadBalancer: { ingress: [{ ip: "198.51.100.10", ipMode: "VIP" }] } } }, { type: "merge" }))
  let listener = await listenerWhere("lb", "the load balancer IP", (l) => statusOf(l)?.ingressAddresses?.[0]?.address === "198.51.100.10")
  assert.deepEqual(statusOf(listener)?.ingressAddresses, [{ address: "198.51.100.10", addressType: "IP", ports: { http: 80 } }])
  assert.equal(readyOf(listener)?.["reason"], "Reconciled")

  await api((a) => a.patchStatus(Kinds.Service, { namespace: NS, name: "lb" }, { status: { loadBalancer: { ingress: [{ hostname: "lb.example.com" }] } } }, { type: "merge" }))
  listener = await listenerWhere("lb", "the load balancer hostname", (l) => statusOf(l)?.ingressAddresses?.[0]?.address === "lb.example.com")
  assert.deepEqual(statusOf(listener)?.ingressAddresses, [{ address: "lb.example.com", addressType: "Hostname", ports: { http: 80 } }])
})

test("hostnameTemplate: the Service carries the name for external-dns; the Listener publishes it with the load balancer's ports", async () => {
  await createClass("it-named", {
    serviceType: "LoadBalancer",
    hostnameTemplate: "{listener}.{namespace}.kafka.example.com",
    hostnameAnnotation: "external-dns.alpha.kubernetes.io/hostname"
  })
  await createListener("broker-1", { className: "it-named", ports: [{ name: "kafka", port: 9093 }] })
  await listenerWhere("broker-1", "AwaitingAddresses", withReason("AwaitingAddresses"))
  const service = (await get(Kinds.Service, "broker-1", NS))!
  assert.equal(service.metadata.annotations?.["external-dns.alpha.kubernetes.io/hostname"], `broker-1.${NS}.kafka.example.com`)
  await api((a) => a.patchStatus(Kinds.Service, { namespace: NS, name: "broker-1" }, { status: { loadBalancer: { ingress: [{ ip: "198.51.100.21" }] } } }, { type: "merge" }))
  const listener = await listenerWhere("broker-1", "the templated name", (l) => statusOf(l)?.ingressAddresses?.length === 1)
  assert.deepEqual(statusOf(listener)?.ingressAddresses, [{ address: `broker-1.${NS}.kafka.example.com`, addressType: "Hostname", ports: { kafka: 9093 } }])
  assert.equal(readyOf(listener)?.["reason"], "Reconciled")

  // Admission refuses an unknown placeholder (CEL); a template that cannot name a Listener is reported on it.
  const refused = await api((a) => Effect.flip(
    a.create(Kinds.ListenerClass, { apiVersion: LISTENER_API, kind: "ListenerClass", metadata: { name: "it-bad-template" }, spec: { serviceType: "LoadBalancer", hostnameTemplate: "{pod}.example.com" } })))
  assert.equal(refused.reason, "Invalid")
  assert.match(refused.message, /spec.hostnameTemplate: Invalid value: "{pod}.example.com": hostnameTemplate may only hold lower-case letters, digits/)
  await createClass("it-ordinal", { serviceType: "LoadBalancer", hostnameTemplate: "broker-{ordinal}.example.com" })
  await createListener("no-ordinal", { className: "it-ordinal", ports: [{ name: "kafka", port: 9093 }] })
  const unnamed = await listenerWhere("no-ordinal", "InvalidSpec", withReason("InvalidSpec"))
  assert.match(String(readyOf(unnamed)?.["message"]), /uses \{ordinal\}, but Listener no-ordinal is not a StatefulSet replica's/)
})

test("overrides: class annotations < serviceOverrides < objectOverrides", async () => {
  await createClass("it-overrides", {
    serviceType: "ClusterIP",
    serviceAnnotations: { "example.com/a": "class", "example.com/b": "class", "example.com/c": "class" },
    serviceOverrides: { metadata: { annotations: { "example.com/b": "serviceOverrides", "example.com/c": "serviceOverrides" } } }
  })
  await createListener("ov", {
    className: "it-overrides",
    ports: [{ name: "http", port: 80 }],
    objectOverrides: [{ apiVersion: "v1", kind: "Service", metadata: { name: "ov", namespace: NS, annotations: { "example.com/c": "objectOverrides" } } }]
  })
  await listenerWhere("ov", "Ready", withReason("Reconciled"))
  const annotations = (await get(Kinds.Service, "ov", NS))!.metadata.annotations!
  assert.deepEqual(
    [annotations["example.com/a"], annotations["example.com/b"], annotations["example.com/c"]],
    ["class", "serviceOverrides", "objectOverrides"]
  )
})

test("a pre-existing foreign Service is never modified; the Listener reports ServiceConflict", async () => {
  const foreign = await api((a) => a.create(Kinds.Service, {
    apiVersion: "v1", kind: "Service", metadata: { name: "taken", namespace: NS, labels: { owner: "someone-else" } }, spec: { ports: [{ port: 9 }] }
  }))
  await createClass("it-conflict", { serviceType: "NodePort" })
  await createListener("taken", { className: "it-conflict", ports: [{ name: "http", port: 80 }] })
  const listener = await listenerWhere("taken", "ServiceConflict", withReason("ServiceConflict"))
  assert.equal(readyOf(listener)?.["status"], "False")
  const after = (await get(Kinds.Service, "taken", NS))!
  assert.equal(after.metadata.resourceVersion, foreign.metadata.resourceVersion)
  assert.equal(specOf(after)["type"], "ClusterIP")
  const events = await api((a) => a.list(Kinds.Event, { namespace: NS }))
  assert.ok(events.items.some((e) => e["reason"] === "ServiceConflict" && (e["regarding"] as { name?: string })?.name === "taken"))
})

test("changing the class's serviceType changes the Service", async () => {
  await createClass("it-switch", { serviceType: "ClusterIP" })
  await createListener("switch", { className: "it-switch", ports: [{ name: "http", port: 80 }] })
  await listenerWhere("switch", "Ready", withReason("Reconciled"))
  await api((a) => a.patch(Kinds.ListenerClass, { name: "it-switch" }, { spec: { serviceType: "NodePort" } }, { type: "merge" }))
  await eventually("Service switch becomes NodePort", async () => specOf(await get(Kinds.Service, "switch", NS))["type"] === "NodePort")
  const listener = await listenerWhere("switch", "nodePorts reported", (l) => statusOf(l)?.nodePorts !== undefined)
  const nodePort = (specOf(await get(Kinds.Service, "switch", NS))["ports"] as Array<{ nodePort: number }>)[0]!.nodePort
  assert.deepEqual(statusOf(listener)?.nodePorts, { http: nodePort })
})

test("missing class: ListenerClassNotFound, then recovery when the class is created", async () => {
  await createListener("late", { className: "it-late", ports: [{ name: "http", port: 80 }] })
  await listenerWhere("late", "ListenerClassNotFound", withReason("ListenerClassNotFound"))
  assert.equal(await get(Kinds.Service, "late", NS), undefined)
  await createClass("it-late", { serviceType: "ClusterIP" })
  await listenerWhere("late", "Ready after the class appears", withReason("Reconciled"))
  assert.ok(await get(Kinds.Service, "late", NS))
})

test("deleting the Listener removes its Service through garbage collection", async () => {
  await createClass("it-gc", { serviceType: "ClusterIP" })
  await createListener("gone", { className: "it-gc", ports: [{ name: "http", port: 80 }] })
  await listenerWhere("gone", "Ready", withReason("Reconciled"))
  assert.ok(await get(Kinds.Service, "gone", NS))
  await api((a) => a.delete(Kinds.Listener, { namespace: NS, name: "gone" }, { propagationPolicy: "Background" }))
  await eventually("Service gone removed by the garbage collector", async () => (await get(Kinds.Service, "gone", NS)) === undefined, { timeoutMs: 90_000 })
})

test("a malformed Listener (an override the API server refuses) gets InvalidSpec and does not stop others", async () => {
  await createClass("it-bad", { serviceType: "ClusterIP" })
  await createListener("bad", {
    className: "it-bad",
    ports: [{ name: "http", port: 80 }],
    objectOverrides: [{ apiVersion: "v1", kind: "Service", metadata: { name: "bad" }, spec: { sessionAffinity: "Sometimes" } }]
  })
  await createListener("good", { className: "it-bad", ports: [{ name: "http", port: 80 }] })
  const bad = await listenerWhere("bad", "InvalidSpec", withReason("InvalidSpec"))
  assert.match(String(readyOf(bad)?.["message"]), /sessionAffinity/)
  assert.equal(await get(Kinds.Service, "bad", NS), undefined)
  await listenerWhere("good", "Ready", withReason("Reconciled"))
})
