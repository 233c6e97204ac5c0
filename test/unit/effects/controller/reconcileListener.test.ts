import { test } from "node:test"
import assert from "node:assert/strict"
import { Effect } from "effect"
import { Kinds } from "../../../../domain/kinds.ts"
import { KubeApiError } from "../../../../effects/shared/KubeApi.ts"
import type { KubeObject } from "../../../../effects/shared/KubeApi.ts"
import { applyPresets } from "../../../../effects/controller/presets.ts"
import { listenerClassObject, listenerObject, makeHarness, readyOf, statusOf } from "./listenerHarness.ts"

const run = <A, E>(effect: Effect.Effect<A, E, import("effect").Scope.Scope>) => Effect.runPromise(Effect.scoped(effect))

const AWAIT = { _tag: "AwaitChange" }
const BACKOFF = { _tag: "RetryWithBackoff" }
const web = (spec: Record<string, unknown> = {}) => listenerObject("web", { className: "internal", ports: [{ name: "http", port: 8080 }], ...spec })
const spec = (o: KubeObject | undefined) => o?.["spec"] as Record<string, unknown>
const warningEvents = (objects: ReadonlyArray<KubeObject>, reason: string) => objects.filter((e) => e["reason"] === reason)

test("new ClusterIP Listener: one Service apply, one status write, Ready with the Service hostname", () =>
  run(Effect.gen(function*() {
    const h = yield* makeHarness({ objects: [listenerClassObject("internal", { serviceType: "ClusterIP" }), web({ extraPodSelectorLabels: { role: "x" } })] })
    h.cluster.requests.reset()
    assert.deepEqual(yield* h.reconcile("web"), AWAIT)
    assert.deepEqual([...h.cluster.requests.entries()].sort((a, b) => a.resource.localeCompare(b.resource)), [
      { verb: "apply", resource: "listeners.listeners.stackable.tech/status", count: 1 },
      { verb: "apply", resource: "services", count: 1 }
    ])
    const listener = h.get(Kinds.Listener, "web", "apps")!
    const service = h.get(Kinds.Service, "web", "apps")!
    const uid = listener.metadata.uid!
    assert.deepEqual(service.metadata.ownerReferences, [
      { apiVersion: "listeners.stackable.tech/v1alpha1", kind: "Listener", name: "web", uid, controller: true, blockOwnerDeletion: true }
    ])
    assert.equal(service.metadata.labels?.["app.kubernetes.io/managed-by"], "listeners.stackable.tech_listener")
    assert.equal(spec(service)["type"], "ClusterIP")
    assert.deepEqual(spec(service)["selector"], { role: "x", [`listener.stackable.tech/mnt.${uid.replaceAll("-", "")}`]: "web" })
    const status = statusOf(listener)!
    assert.equal(status["serviceName"], "web")
    assert.deepEqual(status["ingressAddresses"], [{ address: "web.apps.svc.cluster.local", addressType: "Hostname", ports: { http: 8080 } }])
    assert.equal(status["nodePorts"], undefined)
    assert.equal(readyOf(listener)?.["status"], "True")
    assert.equal(readyOf(listener)?.["reason"], "Reconciled")
    assert.equal(readyOf(listener)?.["observedGeneration"], listener.metadata.generation)
  })))

test("a reconcile where nothing changed sends no request at all", () =>
  run(Effect.gen(function*() {
    const h = yield* makeHarness({ objects: [listenerClassObject("internal", { serviceType: "NodePort", serviceAnnotations: { a: "b" } }), web()] })
    yield* h.reconcile("web")
    h.cluster.requests.reset()
    assert.deepEqual(yield* h.reconcile("web"), AWAIT)
    assert.deepEqual(yield* h.reconcile("web"), AWAIT)
    assert.deepEqual(h.cluster.requests.entries(), [])
  })))

test("ClusterIP with preferredAddressType IP publishes the cluster IP", () =>
  run(Effect.gen(function*() {
    const h = yield* makeHarness({ objects: [listenerClassObject("internal", { serviceType: "ClusterIP", preferredAddressType: "IP" }), web()] })
    yield* h.reconcile("web")
    const clusterIP = spec(h.get(Kinds.Service, "web", "apps"))["clusterIP"]
    assert.match(String(clusterIP), /^10\.0\.0\.\d+$/)
    assert.deepEqual(statusOf(h.get(Kinds.Listener, "web", "apps"))!["ingressAddresses"], [{ address: clusterIP, addressType: "IP", ports: { http: 8080 } }])
  })))

const node = (name: string, addresses: Record<string, string>): KubeObject => ({
  apiVersion: "v1", kind: "Node", metadata: { name },
  status: { addresses: Object.entries(addresses).map(([type, address]) => ({ type, address })) }
})

const pv = (name: string, nodeName: string): KubeObject => ({
  apiVersion: "v1", kind: "PersistentVolume",
  metadata: { name, labels: { "listeners.stackable.tech/listener-namespace": "apps", "listeners.stackable.tech/listener-name": "web" } },
  spec: {
    capacity: { storage: "1" }, accessModes: ["ReadWriteOnce"],
    csi: { driver: "listeners.stackable.tech", volumeHandle: name },
    nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: "listeners.stackable.tech/hostname", operator: "In", values: [nodeName] }] }] } }
  }
})

test("NodePort: one address per backing node (labelled PVs ∪ EndpointSlice nodes) with node ports; status.nodePorts", () =>
  run(Effect.gen(function*() {
    const h = yield* makeHarness({
      objects: [
        listenerClassObject("internal", { serviceType: "NodePort" }),
        web(),
        { kind: Kinds.Node, object: node("node-a", { InternalIP: "10.1.0.1", Hostname: "node-a" }) },
        { kind: Kinds.Node, object: node("node-b", { ExternalIP: "203.0.113.2", InternalIP: "10.1.0.2" }) },
        { kind: Kinds.Node, object: node("node-c", { InternalIP: "10.1.0.3" }) },
        { kind: Kinds.PersistentVolume, object: pv("pv-a", "node-a") }
      ]
    })
    yield* h.reconcile("web")
    const nodePort = (spec(h.get(Kinds.Service, "web", "apps"))["ports"] as Array<{ nodePort: number }>)[0]!.nodePort
    assert.ok(nodePort >= 30000)
    assert.deepEqual(statusOf(h.get(Kinds.Listener, "web", "apps"))!["ingressAddresses"], [{ address: "10.1.0.1", addressType: "IP", ports: { http: nodePort } }])
    assert.deepEqual(statusOf(h.get(Kinds.Listener, "web", "apps"))!["nodePorts"], { http: nodePort })

    // An EndpointSlice of the Service puts node-b (ExternalIP wins) into the set.
    yield* h.cluster.api.create(Kinds.EndpointSlice, {
      apiVersion: "discovery.k8s.io/v1", kind: "EndpointSlice",
      metadata: { name: "web-abc", namespace: "apps", labels: { "kubernetes.io/service-name": "web" } },
      addressType: "IPv4",
      endpoints: [{ addresses: ["10.244.0.5"], nodeName: "node-b", conditions: { ready: false } }]
    })
    yield* h.reconcile("web")
    assert.deepEqual(statusOf(h.get(Kinds.Listener, "web", "apps"))!["ingressAddresses"], [
      { address: "10.1.0.1", addressType: "IP", ports: { http: nodePort } },
      { address: "203.0.113.2", addressType: "IP", ports: { http: nodePort } }
    ])
  })))

test("NodePort: a node address that is neither IP nor DNS name is left out and named in the Ready message; no write on repeat", () =>
  run(Effect.gen(function*() {
    const h = yield* makeHarness({
      objects: [
        listenerClassObject("internal", { serviceType: "NodePort" }),
        web(),
        { kind: Kinds.Node, object: node("node-a", { ExternalIP: "../../x", InternalIP: "10.1.0.1" }) },
        { kind: Kinds.PersistentVolume, object: pv("pv-a", "node-a") }
      ]
    })
    yield* h.reconcile("web")
    const ready = readyOf(h.get(Kinds.Listener, "web", "apps"))
    assert.equal(ready?.["reason"], "AwaitingAddresses")
    assert.match(String(ready?.["message"]), /ignored 1 unusable address\(es\): "\.\.\/\.\.\/x" contains '\/'/)
    assert.deepEqual(statusOf(h.get(Kinds.Listener, "web", "apps"))!["ingressAddresses"], [])
    h.cluster.requests.reset()
    yield* h.reconcile("web")
    assert.deepEqual(h.cluster.requests.entries(), [])
  })))

test("LoadBalancer: class fields on the Service; addresses follow status.loadBalancer (IP, then hostname)", () =>
  run(Effect.gen(function*() {
    const h = yield* makeHarness({
      objects: [
        listenerClassObject("internal", { serviceType: "LoadBalancer", loadBalancerClass: "example.com/lb", loadBalancerAllocateNodePorts: false, serviceExternalTrafficPolicy: "Local" }),
        web()
      ]
    })
    yield* h.reconcile("web")
    const service = spec(h.get(Kinds.Service, "web", "apps"))
    assert.equal(service["loadBalancerClass"], "example.com/lb")
    assert.equal(service["allocateLoadBalancerNodePorts"], false)
    assert.equal(service["externalTrafficPolicy"], "Local")
    assert.equal(readyOf(h.get(Kinds.Listener, "web", "apps"))?.["reason"], "AwaitingAddresses")

    yield* h.cluster.api.patchStatus(Kinds.Service, { namespace: "apps", name: "web" }, { status: { loadBalancer: { ingress: [{ ip: "198.51.100.7" }] } } }, { type: "merge" })
    yield* h.reconcile("web")
    let listener = h.get(Kinds.Listener, "web", "apps")
    assert.deepEqual(statusOf(listener)!["ingressAddresses"], [{ address: "198.51.100.7", addressType: "IP", ports: { http: 8080 } }])
    assert.equal(readyOf(listener)?.["status"], "True")

    yield* h.cluster.api.patchStatus(Kinds.Service, { namespace: "apps", name: "web" }, { status: { loadBalancer: { ingress: [{ hostname: "lb.example.com" }] } } }, { type: "merge" })
    yield* h.reconcile("web")
    listener = h.get(Kinds.Listener, "web", "apps")
    assert.deepEqual(statusOf(listener)!["ingressAddresses"], [{ address: "lb.example.com", addressType: "Hostname", ports: { http: 8080 } }])
  })))

test("no className: NoClassName condition and one Warning Event, no Service; a repeat sends nothing", () =>
  run(Effect.gen(function*() {
    const h = yield* makeHarness({ objects: [listenerObject("web", { ports: [{ name: "http", port: 80 }] })] })
    assert.deepEqual(yield* h.reconcile("web"), AWAIT)
    const ready = readyOf(h.get(Kinds.Listener, "web", "apps"))
    assert.equal(ready?.["status"], "False")
    assert.equal(ready?.["reason"], "NoClassName")
    assert.equal(h.get(Kinds.Service, "web", "apps"), undefined)
    assert.equal(warningEvents(h.cluster.objects(Kinds.Event, "apps"), "NoClassName").length, 1)
    h.cluster.requests.reset()
    yield* h.reconcile("web")
    assert.deepEqual(h.cluster.requests.entries(), [])
  })))

test("missing class: ListenerClassNotFound, then recovery once the class exists", () =>
  run(Effect.gen(function*() {
    const h = yield* makeHarness({ objects: [web()] })
    assert.deepEqual(yield* h.reconcile("web"), AWAIT)
    assert.equal(readyOf(h.get(Kinds.Listener, "web", "apps"))?.["reason"], "ListenerClassNotFound")
    const event = warningEvents(h.cluster.objects(Kinds.Event, "apps"), "ListenerClassNotFound")[0]!
    assert.equal(event["type"], "Warning")
    assert.equal((event["regarding"] as Record<string, unknown>)["uid"], h.get(Kinds.Listener, "web", "apps")!.metadata.uid)
    assert.equal(h.get(Kinds.Service, "web", "apps"), undefined)
    yield* h.create(listenerClassObject("internal", { serviceType: "ClusterIP" }))
    yield* h.reconcile("web")
    assert.equal(readyOf(h.get(Kinds.Listener, "web", "apps"))?.["reason"], "Reconciled")
    assert.ok(h.get(Kinds.Service, "web", "apps"))
  })))

test("a foreign Service of the same name is never modified: ServiceConflict", () =>
  run(Effect.gen(function*() {
    const foreign: KubeObject = { apiVersion: "v1", kind: "Service", metadata: { name: "web", namespace: "apps", labels: { mine: "yes" } }, spec: { ports: [{ port: 1 }] } }
    const h = yield* makeHarness({ objects: [listenerClassObject("internal", { serviceType: "NodePort" }), web(), { kind: Kinds.Service, object: foreign }] })
    const before = h.get(Kinds.Service, "web", "apps")!
    h.cluster.requests.reset()
    assert.deepEqual(yield* h.reconcile("web"), AWAIT)
    assert.equal(h.cluster.requests.count(undefined, Kinds.Service), 0)
    assert.deepEqual(h.get(Kinds.Service, "web", "apps"), before)
    assert.equal(readyOf(h.get(Kinds.Listener, "web", "apps"))?.["reason"], "ServiceConflict")
    assert.equal(warningEvents(h.cluster.objects(Kinds.Event, "apps"), "ServiceConflict").length, 1)
  })))

test("a malformed Listener gets InvalidSpec naming the field; other Listeners reconcile", () =>
  run(Effect.gen(function*() {
    const h = yield* makeHarness({
      objects: [listenerClassObject("internal", { serviceType: "ClusterIP" }), listenerObject("bad", { className: "internal", ports: [{ name: "http", port: 0 }] }), web()]
    })
    assert.deepEqual(yield* h.reconcile("bad"), AWAIT)
    const ready = readyOf(h.get(Kinds.Listener, "bad", "apps"))
    assert.equal(ready?.["reason"], "InvalidSpec")
    assert.match(String(ready?.["message"]), /spec\.ports\[0\]\.port/)
    assert.equal(warningEvents(h.cluster.objects(Kinds.Event, "apps"), "InvalidListener").length, 1)
    yield* h.reconcile("web")
    assert.equal(readyOf(h.get(Kinds.Listener, "web", "apps"))?.["reason"], "Reconciled")
  })))

test("a Listener whose name cannot be a label value (over 63 characters) gets InvalidSpec naming metadata.name, and no Service", () =>
  run(Effect.gen(function*() {
    const long = `web-${"x".repeat(60)}`
    const h = yield* makeHarness({
      objects: [listenerClassObject("internal", { serviceType: "ClusterIP" }), listenerObject(long, { className: "internal", ports: [{ name: "http", port: 80 }] })]
    })
    assert.deepEqual(yield* h.reconcile(long), AWAIT)
    const ready = readyOf(h.get(Kinds.Listener, long, "apps"))
    assert.equal(ready?.["reason"], "InvalidSpec")
    assert.match(String(ready?.["message"]), /metadata\.name: is 64 characters long; .* at most 63/)
    assert.equal(h.get(Kinds.Service, long, "apps"), undefined)
    assert.equal(warningEvents(h.cluster.objects(Kinds.Event, "apps"), "InvalidListener").length, 1)
  })))

test("a malformed ListenerClass gives InvalidSpec on its Listeners", () =>
  run(Effect.gen(function*() {
    const h = yield* makeHarness({ objects: [listenerClassObject("internal", { serviceType: "Ingress" }), web()] })
    yield* h.reconcile("web")
    const ready = readyOf(h.get(Kinds.Listener, "web", "apps"))
    assert.equal(ready?.["reason"], "InvalidSpec")
    assert.match(String(ready?.["message"]), /ListenerClass internal .*spec\.serviceType/)
  })))

test("changing the class's serviceType changes the Service; dropping an annotation removes it", () =>
  run(Effect.gen(function*() {
    const h = yield* makeHarness({ objects: [listenerClassObject("internal", { serviceType: "ClusterIP", serviceAnnotations: { drop: "me" } }), web()] })
    yield* h.reconcile("web")
    assert.equal(h.get(Kinds.Service, "web", "apps")!.metadata.annotations?.["drop"], "me")
    const cls = h.get(Kinds.ListenerClass, "internal")!
    yield* h.cluster.api.update(Kinds.ListenerClass, { ...cls, spec: { serviceType: "NodePort" } })
    yield* h.reconcile("web")
    const service = h.get(Kinds.Service, "web", "apps")!
    assert.equal(spec(service)["type"], "NodePort")
    assert.equal(service.metadata.annotations?.["drop"], undefined)
    assert.deepEqual(statusOf(h.get(Kinds.Listener, "web", "apps"))!["nodePorts"], { http: (spec(service)["ports"] as Array<{ nodePort: number }>)[0]!.nodePort })
  })))

test("override precedence on the Service: class annotations < serviceOverrides < objectOverrides", () =>
  run(Effect.gen(function*() {
    const h = yield* makeHarness({
      objects: [
        listenerClassObject("internal", {
          serviceType: "ClusterIP",
          serviceAnnotations: { a: "class", b: "class", c: "class" },
          serviceOverrides: { metadata: { annotations: { b: "serviceOverrides", c: "serviceOverrides" } } }
        }),
        web({ objectOverrides: [{ apiVersion: "v1", kind: "Service", metadata: { name: "web", namespace: "apps", annotations: { c: "objectOverrides" } } }] })
      ]
    })
    yield* h.reconcile("web")
    const annotations = h.get(Kinds.Service, "web", "apps")!.metadata.annotations!
    assert.deepEqual([annotations["a"], annotations["b"], annotations["c"]], ["class", "serviceOverrides", "objectOverrides"])
  })))

test("a Service the API server refuses (bad override) gives InvalidSpec and waits for a change", () =>
  run(Effect.gen(function*() {
    const h = yield* makeHarness({
      objects: [listenerClassObject("internal", { serviceType: "ClusterIP", serviceOverrides: { spec: { sessionAffinity: "Sometimes" } } }), web()]
    })
    assert.deepEqual(yield* h.reconcile("web"), AWAIT)
    assert.equal(readyOf(h.get(Kinds.Listener, "web", "apps"))?.["reason"], "InvalidSpec")
    assert.equal(warningEvents(h.cluster.objects(Kinds.Event, "apps"), "ServiceRejected").length, 1)
  })))

test("hostnameTemplate: the Service carries the name for external-dns; the Listener publishes it once the load balancer has an address", () =>
  run(Effect.gen(function*() {
    const h = yield* makeHarness({
      objects: [
        listenerClassObject("internal", {
          serviceType: "LoadBalancer",
          serviceAnnotations: { "external-dns.alpha.kubernetes.io/ttl": "60" },
          hostnameTemplate: "{listener}.{namespace}.{class}.example.com",
          hostnameAnnotation: "external-dns.alpha.kubernetes.io/hostname"
        }),
        web()
      ]
    })
    h.cluster.requests.reset()
    yield* h.reconcile("web")
    assert.equal(h.cluster.requests.entries().reduce((n, e) => n + e.count, 0), 2, "still one Service apply and one status write")
    assert.deepEqual(h.get(Kinds.Service, "web", "apps")!.metadata.annotations, {
      "external-dns.alpha.kubernetes.io/ttl": "60",
      "external-dns.alpha.kubernetes.io/hostname": "web.apps.internal.example.com",
      "listeners.stackable.tech/applied-fingerprint": h.get(Kinds.Service, "web", "apps")!.metadata.annotations!["listeners.stackable.tech/applied-fingerprint"]!
    })
    // No load-balancer address yet: the name would point nowhere, so nothing is published.
    assert.deepEqual(statusOf(h.get(Kinds.Listener, "web", "apps"))!["ingressAddresses"], [])
    assert.equal(readyOf(h.get(Kinds.Listener, "web", "apps"))?.["reason"], "AwaitingAddresses")
    yield* h.cluster.api.patchStatus(Kinds.Service, { namespace: "apps", name: "web" }, { status: { loadBalancer: { ingress: [{ ip: "198.51.100.7" }] } } }, { type: "merge" })
    yield* h.reconcile("web")
    const listener = h.get(Kinds.Listener, "web", "apps")
    assert.deepEqual(statusOf(listener)!["ingressAddresses"], [{ address: "web.apps.internal.example.com", addressType: "Hostname", ports: { http: 8080 } }])
    assert.equal(readyOf(listener)?.["status"], "True")
  })))

test("hostnameTemplate that cannot name the Listener ({ordinal} without one): InvalidSpec, an Event, no Service", () =>
  run(Effect.gen(function*() {
    const h = yield* makeHarness({
      objects: [listenerClassObject("internal", { serviceType: "LoadBalancer", hostnameTemplate: "broker-{ordinal}.example.com" }), web()]
    })
    assert.deepEqual(yield* h.reconcile("web"), AWAIT)
    const ready = readyOf(h.get(Kinds.Listener, "web", "apps"))
    assert.equal(ready?.["reason"], "InvalidSpec")
    assert.match(String(ready?.["message"]), /uses \{ordinal\}, but Listener web is not a StatefulSet replica's/)
    assert.equal(warningEvents(h.cluster.objects(Kinds.Event, "apps"), "HostnameTemplateUnusable").length, 1)
    assert.equal(h.get(Kinds.Service, "web", "apps"), undefined)
  })))

test("a Service server-side apply cannot type (500 \"failed to create typed patch object\") is refused, not retried as transient", () =>
  run(Effect.gen(function*() {
    const h = yield* makeHarness({
      objects: [listenerClassObject("internal", { serviceType: "ClusterIP", serviceOverrides: { spec: { ports: [{ name: "no-port-number" }] } } }), web()]
    })
    assert.deepEqual(yield* h.reconcile("web"), AWAIT)
    const ready = readyOf(h.get(Kinds.Listener, "web", "apps"))
    assert.equal(ready?.["reason"], "InvalidSpec")
    assert.match(String(ready?.["message"]), /failed to create typed patch object/)
  })))

test("Services created for the Listener that the plan no longer produces are deleted", () =>
  run(Effect.gen(function*() {
    const h = yield* makeHarness({ objects: [listenerClassObject("internal", { serviceType: "ClusterIP" }), web()] })
    yield* h.reconcile("web")
    const uid = h.get(Kinds.Listener, "web", "apps")!.metadata.uid!
    const owner = { apiVersion: "listeners.stackable.tech/v1alpha1", kind: "Listener", name: "web", uid, controller: true }
    const labels = { "app.kubernetes.io/instance": "web", "app.kubernetes.io/managed-by": "listeners.stackable.tech_listener", "app.kubernetes.io/name": "listener" }
    yield* h.cluster.api.create(Kinds.Service, { apiVersion: "v1", kind: "Service", metadata: { name: "web-old", namespace: "apps", labels, ownerReferences: [owner] }, spec: { ports: [{ port: 1 }] } })
    yield* h.cluster.api.create(Kinds.Service, { apiVersion: "v1", kind: "Service", metadata: { name: "web-user", namespace: "apps", ownerReferences: [owner] }, spec: { ports: [{ port: 1 }] } })
    yield* h.reconcile("web")
    assert.equal(h.get(Kinds.Service, "web-old", "apps"), undefined)
    assert.ok(h.get(Kinds.Service, "web-user", "apps"), "a Service without our labels is not ours to delete")
    assert.ok(h.get(Kinds.Service, "web", "apps"))
  })))

test("API failures: retry with backoff, status untouched, one aggregated Event (series count)", () =>
  run(Effect.gen(function*() {
    const h = yield* makeHarness({
      objects: [listenerClassObject("internal", { serviceType: "ClusterIP" }), web()],
      overrides: {
        apply: (kind) => new KubeApiError({ reason: "Unavailable", verb: "apply", kind: kind.kind, message: "etcd is sad", status: 503 })
      }
    })
    assert.deepEqual(yield* h.reconcile("web"), BACKOFF)
    assert.deepEqual(yield* h.reconcile("web"), BACKOFF)
    assert.equal(statusOf(h.get(Kinds.Listener, "web", "apps")), undefined)
    const events = warningEvents(h.cluster.objects(Kinds.Event, "apps"), "ReconcileFailed")
    assert.equal(events.length, 1)
    assert.equal((events[0]!["series"] as Record<string, unknown>)["count"], 2)
    assert.match(String(events[0]!["note"]), /ApplyService .*Unavailable: etcd is sad/)
  })))

test("a Listener being deleted is left to garbage collection", () =>
  run(Effect.gen(function*() {
    const h = yield* makeHarness({ objects: [listenerClassObject("internal", { serviceType: "ClusterIP" })] })
    yield* h.cluster.api.create(Kinds.Namespace, { apiVersion: "v1", kind: "Namespace", metadata: { name: "apps" } })
    yield* h.cluster.api.create(Kinds.Listener, { ...web().object, metadata: { name: "web", namespace: "apps", finalizers: ["example.com/hold"] } })
    yield* h.cluster.api.delete(Kinds.Listener, { namespace: "apps", name: "web" })
    h.cluster.requests.reset()
    assert.deepEqual(yield* h.reconcile("web"), AWAIT)
    assert.equal(h.cluster.requests.writes(), 0)
  })))

test("presets: creates the missing classes of the preset and never overwrites an existing one", () =>
  run(Effect.gen(function*() {
    const h = yield* makeHarness({ objects: [listenerClassObject("external-stable", { serviceType: "ClusterIP", serviceAnnotations: { admin: "edit" } })] })
    const outcome = yield* h.provide(applyPresets("stable-nodes"))
    assert.deepEqual(outcome, { created: ["cluster-internal", "external-unstable"], kept: ["external-stable"] })
    assert.deepEqual(spec(h.get(Kinds.ListenerClass, "external-stable")), { serviceType: "ClusterIP", serviceAnnotations: { admin: "edit" } })
    assert.deepEqual(spec(h.get(Kinds.ListenerClass, "external-unstable")), { serviceType: "NodePort", pinnedNodePorts: false })
    assert.deepEqual(spec(h.get(Kinds.ListenerClass, "cluster-internal")), { serviceType: "ClusterIP" })
    const again = yield* h.provide(applyPresets("stable-nodes"))
    assert.deepEqual(again.created, [])
    assert.deepEqual((yield* h.provide(applyPresets("none"))), { created: [], kept: [] })
  })))

test("stable node ports: a re-created Service gets the node ports the Listener had; learning them costs no write", () =>
  run(Effect.gen(function*() {
    const h = yield* makeHarness({ objects: [listenerClassObject("internal", { serviceType: "NodePort" }), web()] })
    // Another Service first, so the Listener's port is not simply the lowest free one again.
    yield* h.cluster.api.create(Kinds.Service, {
      apiVersion: "v1", kind: "Service", metadata: { name: "other", namespace: "apps" },
      spec: { type: "NodePort", ports: [{ name: "x", port: 1 }] }
    })
    yield* h.reconcile("web")
    const nodePortOf = () => (spec(h.get(Kinds.Service, "web", "apps"))["ports"] as Array<{ nodePort: number }>)[0]!.nodePort
    const first = nodePortOf()
    assert.deepEqual(statusOf(h.get(Kinds.Listener, "web", "apps"))!["nodePorts"], { http: first })
    h.cluster.requests.reset()
    assert.deepEqual(yield* h.reconcile("web"), AWAIT)
    assert.equal(h.cluster.requests.writes(), 0, "the remembered port restates the live one: nothing to apply")

    // Someone deletes the Service, and the port below it frees up: the Listener asks for its own again.
    yield* h.cluster.api.delete(Kinds.Service, { namespace: "apps", name: "other" })
    yield* h.cluster.api.delete(Kinds.Service, { namespace: "apps", name: "web" })
    yield* h.reconcile("web")
    assert.equal(nodePortOf(), first)
    // No backing node in this test: the Listener waits for one, with its port kept.
    assert.equal(readyOf(h.get(Kinds.Listener, "web", "apps"))!["reason"], "AwaitingAddresses")
    assert.deepEqual(statusOf(h.get(Kinds.Listener, "web", "apps"))!["nodePorts"], { http: first })
  })))

test("stable node ports: a remembered port taken by another Service is a NodePortConflict, never a new port", () =>
  run(Effect.gen(function*() {
    const h = yield* makeHarness({ objects: [listenerClassObject("internal", { serviceType: "NodePort" }), web()] })
    yield* h.reconcile("web")
    const taken = (spec(h.get(Kinds.Service, "web", "apps"))["ports"] as Array<{ nodePort: number }>)[0]!.nodePort
    yield* h.cluster.api.delete(Kinds.Service, { namespace: "apps", name: "web" })
    yield* h.cluster.api.create(Kinds.Service, {
      apiVersion: "v1", kind: "Service", metadata: { name: "squatter", namespace: "apps" },
      spec: { type: "NodePort", ports: [{ name: "x", port: 1, nodePort: taken }] }
    })
    assert.deepEqual(yield* h.reconcile("web"), BACKOFF)
    assert.equal(h.get(Kinds.Service, "web", "apps"), undefined, "no Service with another port")
    const ready = readyOf(h.get(Kinds.Listener, "web", "apps"))!
    assert.equal(ready["reason"], "NodePortConflict")
    assert.match(String(ready["message"]), new RegExp(`cannot get back the node ports Listener web had \\(http=${taken}\\)`))
    assert.deepEqual(statusOf(h.get(Kinds.Listener, "web", "apps"))!["nodePorts"], { http: taken }, "still remembered")
    assert.equal(warningEvents(h.cluster.objects(Kinds.Event, "apps"), "NodePortConflict").length, 1)

    yield* h.cluster.api.delete(Kinds.Service, { namespace: "apps", name: "squatter" })
    yield* h.reconcile("web")
    assert.equal((spec(h.get(Kinds.Service, "web", "apps"))["ports"] as Array<{ nodePort: number }>)[0]!.nodePort, taken)
  })))
