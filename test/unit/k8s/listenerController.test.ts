/**
 * The Listener controller's wiring over the in-memory API server: watches, mappers and the
 * zero-request steady state, end to end but without a real cluster.
 */
import { test } from "node:test"
import assert from "node:assert/strict"
import { Effect, Fiber } from "effect"
import type { Scope } from "effect"
import { KubeApiMemory } from "../../../adapters/KubeApiMemory.ts"
import { Kinds } from "../../../domain/kinds.ts"
import { EventRecorder } from "../../../effects/shared/EventRecorder.ts"
import { KubeApi } from "../../../effects/shared/KubeApi.ts"
import type { KubeObject } from "../../../effects/shared/KubeApi.ts"
import { makeListenerController } from "../../../k8s/listenerController.ts"
import { listenerClassObject, listenerObject, readyOf } from "../effects/controller/listenerHarness.ts"
import { waitFor } from "./waitFor.ts"

const run = <A, E>(effect: Effect.Effect<A, E, Scope.Scope>) => Effect.runPromise(Effect.scoped(effect))


const startController = Effect.gen(function*() {
  const cluster = yield* KubeApiMemory.make()
  const listenerController = yield* makeListenerController.pipe(Effect.provideService(KubeApi, cluster.api))
  const fiber = yield* listenerController.run({ concurrency: 2 }).pipe(
    Effect.provideService(KubeApi, cluster.api),
    Effect.provide(EventRecorder.layerNoop),
    Effect.forkScoped
  )
  const get = (kind: typeof Kinds.Listener, name: string, namespace?: string): KubeObject | undefined =>
    cluster.objects(kind, namespace).find((o) => o.metadata.name === name)
  return { cluster, listenerController, fiber, get }
})

test("controller: a missing class is reported, and creating the class enqueues its Listeners", () =>
  run(Effect.gen(function*() {
    const { cluster, get, fiber } = yield* startController
    yield* cluster.api.create(Kinds.Namespace, { apiVersion: "v1", kind: "Namespace", metadata: { name: "apps" } })
    yield* cluster.api.create(Kinds.Listener, listenerObject("web", { className: "internal", ports: [{ name: "http", port: 80 }] }).object)
    yield* waitFor("ListenerClassNotFound", () => readyOf(get(Kinds.Listener, "web", "apps"))?.["reason"] === "ListenerClassNotFound")
    yield* cluster.api.create(Kinds.ListenerClass, listenerClassObject("internal", { serviceType: "ClusterIP" }).object)
    yield* waitFor("Reconciled", () => readyOf(get(Kinds.Listener, "web", "apps"))?.["reason"] === "Reconciled")
    assert.ok(get(Kinds.Service, "web", "apps"))

    // Steady state: nothing changes, nothing is sent (watches aside).
    yield* Effect.sleep("200 millis")
    cluster.requests.reset()
    yield* Effect.sleep("300 millis")
    assert.equal(cluster.requests.writes(), 0)
    assert.equal(cluster.requests.count("get") + cluster.requests.count("list"), 0)
    yield* Fiber.interrupt(fiber)
  })))

test("controller: a foreign Service's removal lets a Listener in ServiceConflict create its own", () =>
  run(Effect.gen(function*() {
    const { cluster, get } = yield* startController
    yield* cluster.api.create(Kinds.Namespace, { apiVersion: "v1", kind: "Namespace", metadata: { name: "apps" } })
    yield* cluster.api.create(Kinds.ListenerClass, listenerClassObject("internal", { serviceType: "ClusterIP" }).object)
    yield* cluster.api.create(Kinds.Service, { apiVersion: "v1", kind: "Service", metadata: { name: "web", namespace: "apps" }, spec: { ports: [{ port: 1 }] } })
    yield* cluster.api.create(Kinds.Listener, listenerObject("web", { className: "internal", ports: [{ name: "http", port: 80 }] }).object)
    yield* waitFor("ServiceConflict", () => readyOf(get(Kinds.Listener, "web", "apps"))?.["reason"] === "ServiceConflict")
    yield* cluster.api.delete(Kinds.Service, { namespace: "apps", name: "web" })
    yield* waitFor("Reconciled", () => readyOf(get(Kinds.Listener, "web", "apps"))?.["reason"] === "Reconciled")
  })))

test("controller: a labelled PV and a Node address change update a NodePort Listener", () =>
  run(Effect.gen(function*() {
    const { cluster, get } = yield* startController
    yield* cluster.api.create(Kinds.Namespace, { apiVersion: "v1", kind: "Namespace", metadata: { name: "apps" } })
    yield* cluster.api.create(Kinds.ListenerClass, listenerClassObject("external", { serviceType: "NodePort" }).object)
    yield* cluster.api.create(Kinds.Node, { apiVersion: "v1", kind: "Node", metadata: { name: "n1" }, status: { addresses: [{ type: "InternalIP", address: "10.9.0.1" }] } })
    yield* cluster.api.create(Kinds.Listener, listenerObject("web", { className: "external", ports: [{ name: "http", port: 80 }] }).object)
    yield* waitFor("AwaitingAddresses", () => readyOf(get(Kinds.Listener, "web", "apps"))?.["reason"] === "AwaitingAddresses")
    yield* cluster.api.create(Kinds.PersistentVolume, {
      apiVersion: "v1", kind: "PersistentVolume",
      metadata: { name: "pv1", labels: { "listeners.stackable.tech/listener-namespace": "apps", "listeners.stackable.tech/listener-name": "web" } },
      spec: {
        capacity: { storage: "1" }, accessModes: ["ReadWriteOnce"], csi: { driver: "listeners.stackable.tech", volumeHandle: "pv1" },
        nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: "listeners.stackable.tech/hostname", operator: "In", values: ["n1"] }] }] } }
      }
    })
    const addressOf = () => ((get(Kinds.Listener, "web", "apps")?.["status"] as { ingressAddresses?: Array<{ address: string }> })?.ingressAddresses ?? [])[0]?.address
    yield* waitFor("node address", () => addressOf() === "10.9.0.1")
    yield* cluster.api.patchStatus(Kinds.Node, { name: "n1" }, { status: { addresses: [{ type: "ExternalIP", address: "203.0.113.9" }] } }, { type: "merge" })
    yield* waitFor("new node address", () => addressOf() === "203.0.113.9")

    // An endpoint on another node (EndpointSlice labelled like its Service) adds that node.
    yield* cluster.api.create(Kinds.Node, { apiVersion: "v1", kind: "Node", metadata: { name: "n2" }, status: { addresses: [{ type: "InternalIP", address: "10.9.0.2" }] } })
    yield* cluster.api.create(Kinds.EndpointSlice, {
      apiVersion: "discovery.k8s.io/v1", kind: "EndpointSlice",
      metadata: { name: "web-1", namespace: "apps", labels: { "kubernetes.io/service-name": "web", "app.kubernetes.io/managed-by": "listeners.stackable.tech_listener" } },
      addressType: "IPv4", endpoints: [{ addresses: ["10.244.1.1"], nodeName: "n2" }]
    })
    const addresses = () => ((get(Kinds.Listener, "web", "apps")?.["status"] as { ingressAddresses?: Array<{ address: string }> })?.ingressAddresses ?? []).map((a) => a.address)
    yield* waitFor("the endpoint's node", () => addresses().includes("10.9.0.2"))
    assert.deepEqual(addresses(), ["203.0.113.9", "10.9.0.2"])
  })))
