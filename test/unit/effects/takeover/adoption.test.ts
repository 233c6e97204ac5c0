/**
 * Taking over Services and Listener statuses a predecessor (the upstream operator) applied,
 * over the in-memory API server (the same cases run on the real one in
 * test/integration/takeover.test.ts).
 */
import { test } from "node:test"
import assert from "node:assert/strict"
import { Effect } from "effect"
import { Kinds } from "../../../../domain/kinds.ts"
import { mountLabelKey } from "../../../../domain/listenerPlan/index.ts"
import type { KubeObject } from "../../../../effects/shared/KubeApi.ts"
import { listenerClassObject, listenerObject, makeHarness, statusOf } from "../controller/listenerHarness.ts"

const run = <A, E>(effect: Effect.Effect<A, E, import("effect").Scope.Scope>) => Effect.runPromise(Effect.scoped(effect))

const UPSTREAM = "listeners.stackable.tech/listener"
const OURS = "listeners.stackable.tech_listener"

/** The Service the upstream operator applies for a Listener (its labels, no fingerprint of ours). */
const upstreamService = (listener: KubeObject, ports: ReadonlyArray<{ name: string; port: number }>, extraLabels: Record<string, string> = {}) => ({
  apiVersion: "v1",
  kind: "Service",
  metadata: {
    name: listener.metadata.name!,
    namespace: listener.metadata.namespace!,
    labels: {
      "app.kubernetes.io/name": "listener",
      "app.kubernetes.io/instance": listener.metadata.name!,
      "app.kubernetes.io/managed-by": OURS,
      ...extraLabels
    },
    ownerReferences: [{ apiVersion: "listeners.stackable.tech/v1alpha1", kind: "Listener", name: listener.metadata.name!, uid: listener.metadata.uid!, controller: true, blockOwnerDeletion: true }]
  },
  spec: {
    type: "NodePort",
    ports: ports.map((p) => ({ ...p, protocol: "TCP" })),
    selector: { [mountLabelKey(listener.metadata.uid!)]: listener.metadata.name! },
    publishNotReadyAddresses: true
  }
})

const setup = (extraLabels: Record<string, string> = {}) =>
  Effect.gen(function*() {
    const h = yield* makeHarness({
      objects: [listenerClassObject("external", { serviceType: "NodePort" }), listenerObject("kafka", { className: "external", ports: [{ name: "http", port: 8080 }] })]
    })
    const listener = h.get(Kinds.Listener, "kafka", "apps")!
    const applied = yield* h.cluster.api.apply(Kinds.Service, upstreamService(listener, [{ name: "http", port: 8080 }], extraLabels) as KubeObject, {
      fieldManager: UPSTREAM,
      force: true
    })
    return { h, listener, applied }
  })

const managers = (object: KubeObject | undefined) => (object?.metadata.managedFields ?? []).map((e) => `${e.manager}/${e.operation}${e.subresource ? `/${e.subresource}` : ""}`).sort()

test("a Service the upstream operator built from the same Listener is adopted with one write: its fields become ours", () =>
  run(Effect.gen(function*() {
    const { h, applied } = yield* setup()
    h.cluster.requests.reset()
    yield* h.reconcile("kafka")
    assert.equal(h.cluster.requests.count("patch", Kinds.Service), 1, "one JSON patch")
    assert.equal(h.cluster.requests.count("apply", Kinds.Service), 0, "and no apply")
    const service = h.get(Kinds.Service, "kafka", "apps")!
    assert.equal(service.metadata.uid, applied.metadata.uid, "the same Service, not a new one")
    assert.deepEqual(managers(service).filter((m) => m.startsWith("listeners.stackable.tech/")), [], "no field left with the upstream manager")
    assert.ok(service.metadata.annotations?.["listeners.stackable.tech/applied-fingerprint"])
    const nodePort = (service["spec"] as { ports: Array<{ nodePort: number }> }).ports[0]!.nodePort
    assert.equal(nodePort, ((applied["spec"] as { ports: Array<{ nodePort: number }> }).ports[0]!.nodePort), "node port kept")

    // Later reconciles send nothing.
    h.cluster.requests.reset()
    yield* h.reconcile("kafka")
    assert.equal(h.cluster.requests.writes(), 0)
  })))

test("after adoption, changing an upstream Listener's port replaces the old entry (no 'Duplicate value')", () =>
  run(Effect.gen(function*() {
    const { h } = yield* setup()
    yield* h.reconcile("kafka")
    const listener = h.get(Kinds.Listener, "kafka", "apps")!
    yield* h.cluster.api.update(Kinds.Listener, { ...listener, spec: { className: "external", ports: [{ name: "http", port: 9090 }] } })
    yield* h.reconcile("kafka")
    const service = h.get(Kinds.Service, "kafka", "apps")!
    assert.deepEqual((service["spec"] as { ports: Array<{ name: string; port: number }> }).ports.map((p) => `${p.name}:${p.port}`), ["http:9090"])
    const status = statusOf(h.get(Kinds.Listener, "kafka", "apps")!)!
    assert.deepEqual(Object.keys(status["nodePorts"] as object), ["http"])
    const ready = (status["conditions"] as Array<Record<string, unknown>>).find((c) => c["type"] === "Ready")
    // A NodePort Listener without backing nodes waits for addresses; what matters is that the Service was accepted.
    assert.equal(ready?.["reason"], "AwaitingAddresses")
  })))

test("a label only the upstream operator applied is removed in the same single write", () =>
  run(Effect.gen(function*() {
    const { h } = yield* setup({ "stackable.tech/vendor": "Stackable" })
    h.cluster.requests.reset()
    yield* h.reconcile("kafka")
    assert.equal(h.cluster.requests.writes(), 2, "one Service patch + the status write")
    const service = h.get(Kinds.Service, "kafka", "apps")!
    assert.equal(service.metadata.labels?.["stackable.tech/vendor"], undefined)
  })))

test("a Service whose spec differs from ours is handed over, then applied: the upstream-only port goes", () =>
  run(Effect.gen(function*() {
    const h = yield* makeHarness({
      objects: [listenerClassObject("external", { serviceType: "NodePort" }), listenerObject("kafka", { className: "external", ports: [{ name: "http", port: 8080 }] })]
    })
    const listener = h.get(Kinds.Listener, "kafka", "apps")!
    // The Listener was edited while no operator ran: upstream's Service still has the old port.
    yield* h.cluster.api.apply(Kinds.Service, upstreamService(listener, [{ name: "http", port: 7070 }]) as KubeObject, { fieldManager: UPSTREAM, force: true })
    h.cluster.requests.reset()
    yield* h.reconcile("kafka")
    assert.equal(h.cluster.requests.count("patch", Kinds.Service), 1)
    assert.equal(h.cluster.requests.count("apply", Kinds.Service), 1)
    const service = h.get(Kinds.Service, "kafka", "apps")!
    assert.deepEqual((service["spec"] as { ports: Array<{ name: string; port: number }> }).ports.map((p) => `${p.name}:${p.port}`), ["http:8080"])
  })))

test("a field another manager (not a predecessor) owns stays theirs", () =>
  run(Effect.gen(function*() {
    const { h, applied } = yield* setup()
    // A user annotates the Service with kubectl.
    yield* h.cluster.api.patch(Kinds.Service, { namespace: "apps", name: "kafka" }, { metadata: { annotations: { "team/owner": "data" } } }, {
      type: "merge",
      fieldManager: "kubectl-annotate"
    })
    yield* h.reconcile("kafka")
    const service = h.get(Kinds.Service, "kafka", "apps")!
    assert.equal(service.metadata.uid, applied.metadata.uid)
    assert.equal(service.metadata.annotations?.["team/owner"], "data")
    assert.ok(managers(service).includes("kubectl-annotate/Update"))
  })))

test("a renamed port's node port leaves the status even though the upstream operator wrote it", () =>
  run(Effect.gen(function*() {
    const { h } = yield* setup()
    const listener = h.get(Kinds.Listener, "kafka", "apps")!
    yield* h.cluster.api.applyStatus(Kinds.Listener, {
      apiVersion: "listeners.stackable.tech/v1alpha1",
      kind: "Listener",
      metadata: { name: "kafka", namespace: "apps" },
      status: { serviceName: "kafka", ingressAddresses: [], nodePorts: { http: 31000 } }
    }, { fieldManager: "listeners.stackable.tech/listener-status", force: true })
    yield* h.reconcile("kafka")
    yield* h.cluster.api.update(Kinds.Listener, { ...h.get(Kinds.Listener, "kafka", "apps")!, spec: { className: "external", ports: [{ name: "web", port: 8080 }] } })
    yield* h.reconcile("kafka")
    const status = statusOf(h.get(Kinds.Listener, "kafka", "apps")!)!
    assert.deepEqual(Object.keys(status["nodePorts"] as object), ["web"])
    assert.equal(listener.metadata.uid, h.get(Kinds.Listener, "kafka", "apps")!.metadata.uid)
  })))
