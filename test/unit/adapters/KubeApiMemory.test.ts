/**
 * What only the in-memory API server offers (request log, seeds, hooks, history size,
 * garbage-collector quiescence) and behaviour the contract cases cannot provoke portably
 * (history eviction, namespace termination, Pods waiting for the kubelet, cross-namespace
 * owners).
 */
import assert from "node:assert/strict"
import { test } from "node:test"
import { Duration, Effect, Fiber, Layer, Stream } from "effect"
import type { Scope } from "effect"
import { KubeApiMemory } from "../../../adapters/KubeApiMemory.ts"
import type { KubeApiMemoryOptions, MemoryCluster } from "../../../adapters/KubeApiMemory.ts"
import { Kinds } from "../../../domain/kinds.ts"
import { KubeApi } from "../../../effects/shared/KubeApi.ts"
import type { KubeObject } from "../../../effects/shared/KubeApi.ts"

const withCluster = <A, E>(
  options: KubeApiMemoryOptions,
  body: (cluster: MemoryCluster) => Effect.Effect<A, E, Scope.Scope>
): Promise<A> => Effect.runPromise(Effect.scoped(Effect.flatMap(KubeApiMemory.make(options), body)))

const cm = (name: string, namespace = "default", extra: Partial<KubeObject> = {}): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  ...extra,
  metadata: { name, namespace, ...extra.metadata }
})

const pod = (name: string, namespace: string, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name, namespace },
  spec: { nodeName: "node-1", containers: [{ name: "main", image: "app:1" }], ...extra }
})

test("the request log counts requests by verb and resource", () =>
  withCluster({}, ({ api, requests }) =>
    Effect.gen(function*() {
      yield* api.create(Kinds.ConfigMap, cm("a"))
      yield* api.get(Kinds.ConfigMap, { namespace: "default", name: "a" })
      yield* api.list(Kinds.Listener, {})
      yield* Effect.flip(api.get(Kinds.ConfigMap, { namespace: "default", name: "missing" }))
      yield* api.patch(Kinds.ConfigMap, { namespace: "default", name: "a" }, { data: { x: "1" } }, { type: "merge" })
      assert.equal(requests.count("get", Kinds.ConfigMap), 2, "failed requests count too")
      assert.equal(requests.count("list", "listeners.listeners.stackable.tech"), 1)
      assert.equal(requests.count(undefined, Kinds.ConfigMap), 4)
      assert.equal(requests.writes(), 2)
      requests.reset()
      assert.equal(requests.count(), 0)
    })))

test("seed objects are stored with their status and namespaces", () =>
  withCluster({
    objects: [
      {
        kind: Kinds.Node,
        object: {
          apiVersion: "v1",
          kind: "Node",
          metadata: { name: "node-1" },
          status: { addresses: [{ type: "InternalIP", address: "192.168.0.1" }] }
        }
      },
      { kind: Kinds.Service, object: { metadata: { name: "lb", namespace: "apps" }, spec: { type: "LoadBalancer", ports: [{ port: 80 }] }, status: { loadBalancer: { ingress: [{ ip: "1.2.3.4" }] } } } }
    ]
  }, ({ api }) =>
    Effect.gen(function*() {
      const node = yield* api.get(Kinds.Node, { name: "node-1" })
      assert.deepEqual(node["status"], { addresses: [{ type: "InternalIP", address: "192.168.0.1" }] })
      const svc = yield* api.get(Kinds.Service, { namespace: "apps", name: "lb" })
      assert.deepEqual((svc["status"] as { loadBalancer: unknown }).loadBalancer, { ingress: [{ ip: "1.2.3.4" }] })
      assert.ok(svc.metadata.managedFields?.some((e) => e.manager === "seed"))
      const namespaces = yield* api.list(Kinds.Namespace, {})
      assert.deepEqual(
        namespaces.items.map((n) => n.metadata.name),
        ["apps", "default", "kube-node-lease", "kube-public", "kube-system"]
      )
      const kubernetes = yield* api.get(Kinds.Service, { namespace: "default", name: "kubernetes" })
      assert.equal((kubernetes["spec"] as { clusterIP: string }).clusterIP, "10.0.0.1")
    })))

test("a watch from before a small history window is Gone; a recent one resumes", () =>
  withCluster({ watchHistory: 3 }, ({ api }) =>
    Effect.gen(function*() {
      const first = yield* api.create(Kinds.ConfigMap, cm("a"))
      for (const n of ["b", "c", "d", "e"]) yield* api.create(Kinds.ConfigMap, cm(n))
      const error = yield* Effect.flip(Stream.runCollect(api.watch(Kinds.ConfigMap, { resourceVersion: first.metadata.resourceVersion! })))
      assert.equal(error.reason, "Gone")
      assert.equal(error.status, 410)
      assert.match(error.message, /^too old resource version: \d+ \(\d+\)$/)
      const recent = yield* api.get(Kinds.ConfigMap, { namespace: "default", name: "c" })
      const events = yield* Stream.runCollect(Stream.take(
        api.watch(Kinds.ConfigMap, { namespace: "default", resourceVersion: recent.metadata.resourceVersion! }),
        2
      ))
      assert.deepEqual(events.map((e) => e.object.metadata.name), ["d", "e"])
    })))

test("bookmarks arrive on allowBookmarks, and an interrupted watch unsubscribes", () =>
  withCluster({ bookmarkInterval: Duration.millis(10) }, (cluster) =>
    Effect.gen(function*() {
      const { api } = cluster
      const fiber = yield* Effect.forkChild(Stream.runCollect(Stream.take(
        api.watch(Kinds.ConfigMap, { resourceVersion: cluster.resourceVersion(), allowBookmarks: true }),
        1
      )))
      const [event] = yield* Fiber.join(fiber)
      assert.equal(event?.type, "BOOKMARK")
      assert.match(event?.object.metadata.resourceVersion ?? "", /^\d+$/)
      const endless = yield* Effect.forkChild(Stream.runDrain(api.watch(Kinds.ConfigMap, { resourceVersion: "0" })))
      yield* Effect.sleep(Duration.millis(5))
      assert.equal(cluster.activeWatches(), 1)
      yield* Fiber.interrupt(endless)
      assert.equal(cluster.activeWatches(), 0)
    })))

test("validators and defaulters plug admission into a kind", () =>
  withCluster({
    defaulters: {
      "listeners.listeners.stackable.tech": (o) => ({ ...o, spec: { publishNotReadyAddresses: true, ...(o["spec"] as object) } })
    },
    validators: {
      "listeners.listeners.stackable.tech": (o) =>
        (o["spec"] as { ports?: Array<{ port: number }> }).ports?.some((p) => p.port === 0)
          ? [{ field: "spec.ports[0].port", message: "should be greater than or equal to 1" }]
          : []
    }
  }, ({ api }) =>
    Effect.gen(function*() {
      const listener = (port: number): KubeObject => ({
        apiVersion: "listeners.stackable.tech/v1alpha1",
        kind: "Listener",
        metadata: { name: "l", namespace: "default" },
        spec: { className: "c", ports: [{ name: "p", port }] }
      })
      const error = yield* Effect.flip(api.create(Kinds.Listener, listener(0)))
      assert.equal(error.reason, "Invalid")
      assert.deepEqual(error.causes?.map((c) => c.field), ["spec.ports[0].port"])
      assert.match(error.message, /^Listener\.listeners\.stackable\.tech "l" is invalid: spec\.ports\[0\]\.port: Invalid value/)
      const created = yield* api.create(Kinds.Listener, listener(80))
      assert.equal((created["spec"] as { publishNotReadyAddresses: boolean }).publishNotReadyAddresses, true)
    })))

test("events.k8s.io Events are validated like on the server", () =>
  withCluster({}, ({ api }) =>
    Effect.gen(function*() {
      const event = (extra: Record<string, unknown>): KubeObject => ({
        apiVersion: "events.k8s.io/v1",
        kind: "Event",
        metadata: { name: "e", namespace: "default" },
        eventTime: "2026-01-01T00:00:00.000000Z",
        reportingController: "listeners.stackable.tech/listener",
        reportingInstance: "controller-0",
        action: "Reconcile",
        reason: "Ready",
        type: "Normal",
        regarding: { kind: "Listener", name: "l", namespace: "default" },
        ...extra
      })
      const error = yield* Effect.flip(api.create(Kinds.Event, event({ type: "Info", action: undefined })))
      assert.equal(error.reason, "Invalid")
      assert.deepEqual(error.causes?.map((c) => c.field).sort(), ["action", "type"])
      yield* api.create(Kinds.Event, event({}))
    })))

test("requests without a name or a namespace are refused before they are served", () =>
  withCluster({}, ({ api }) =>
    Effect.gen(function*() {
      const noName = yield* Effect.flip(api.create(Kinds.ConfigMap, { metadata: { namespace: "default" } }))
      assert.equal(noName.reason, "BadRequest")
      assert.equal(noName.causes?.[0]?.field, "metadata.name")
      const noNamespace = yield* Effect.flip(api.get(Kinds.ConfigMap, { name: "a" }))
      assert.equal(noNamespace.reason, "BadRequest")
      assert.equal(noNamespace.causes?.[0]?.field, "metadata.namespace")
    })))

test("settle waits for the garbage collector, including cluster-scoped owners", () =>
  withCluster({}, ({ api, settle }) =>
    Effect.gen(function*() {
      const pv = yield* api.create(Kinds.PersistentVolume, {
        metadata: { name: "pv-1" },
        spec: { capacity: { storage: "1" }, accessModes: ["ReadWriteOnce"], csi: { driver: "d", volumeHandle: "h" } }
      })
      const owner = { apiVersion: "v1", kind: "PersistentVolume", name: "pv-1", uid: pv.metadata.uid! }
      yield* api.create(Kinds.ConfigMap, cm("owned", "default", { metadata: { ownerReferences: [owner] } }))
      yield* settle
      yield* api.get(Kinds.ConfigMap, { namespace: "default", name: "owned" })
      yield* api.delete(Kinds.PersistentVolume, { name: "pv-1" })
      yield* settle
      const gone = yield* Effect.flip(api.get(Kinds.ConfigMap, { namespace: "default", name: "owned" }))
      assert.equal(gone.reason, "NotFound")
    })))

test("a namespaced owner reference only resolves in the dependent's namespace", () =>
  withCluster({}, ({ api, settle }) =>
    Effect.gen(function*() {
      yield* api.create(Kinds.Namespace, { metadata: { name: "other" } })
      const owner = yield* api.create(Kinds.ConfigMap, cm("owner", "default"))
      const ref = { apiVersion: "v1", kind: "ConfigMap", name: "owner", uid: owner.metadata.uid! }
      yield* api.create(Kinds.ConfigMap, cm("same-ns", "default", { metadata: { ownerReferences: [ref] } }))
      yield* api.create(Kinds.ConfigMap, cm("other-ns", "other", { metadata: { ownerReferences: [ref] } }))
      yield* settle
      yield* api.get(Kinds.ConfigMap, { namespace: "default", name: "same-ns" })
      const collected = yield* Effect.flip(api.get(Kinds.ConfigMap, { namespace: "other", name: "other-ns" }))
      assert.equal(collected.reason, "NotFound", "the owner does not exist in the dependent's namespace")
    })))

test("foreground deletion of a Pod owner waits for the kubelet to finish the Pod", () =>
  withCluster({}, ({ api, settle }) =>
    Effect.gen(function*() {
      const owner = yield* api.create(Kinds.ConfigMap, cm("owner"))
      yield* api.create(Kinds.Pod, {
        ...pod("p", "default"),
        metadata: {
          name: "p",
          namespace: "default",
          ownerReferences: [{ apiVersion: "v1", kind: "ConfigMap", name: "owner", uid: owner.metadata.uid!, blockOwnerDeletion: true }]
        }
      })
      yield* api.delete(Kinds.ConfigMap, { namespace: "default", name: "owner" }, { propagationPolicy: "Foreground" })
      yield* settle
      const terminating = yield* api.get(Kinds.Pod, { namespace: "default", name: "p" })
      assert.equal(terminating.metadata.deletionGracePeriodSeconds, 30)
      yield* api.get(Kinds.ConfigMap, { namespace: "default", name: "owner" })
      yield* api.delete(Kinds.Pod, { namespace: "default", name: "p" }, { gracePeriodSeconds: 0 })
      yield* settle
      const gone = yield* Effect.flip(api.get(Kinds.ConfigMap, { namespace: "default", name: "owner" }))
      assert.equal(gone.reason, "NotFound")
    })))

test("a deleted namespace empties itself, refuses new content meanwhile, then goes", () =>
  withCluster({}, ({ api, settle }) =>
    Effect.gen(function*() {
      yield* api.create(Kinds.Namespace, { metadata: { name: "doomed" } })
      yield* api.create(Kinds.ConfigMap, cm("plain", "doomed"))
      yield* api.create(Kinds.ConfigMap, cm("held", "doomed", { metadata: { finalizers: ["example.com/hold"] } }))
      yield* api.delete(Kinds.Namespace, { name: "doomed" })
      yield* settle
      const ns = yield* api.get(Kinds.Namespace, { name: "doomed" })
      assert.equal((ns["status"] as { phase: string }).phase, "Terminating")
      assert.equal((yield* Effect.flip(api.get(Kinds.ConfigMap, { namespace: "doomed", name: "plain" }))).reason, "NotFound")
      const refused = yield* Effect.flip(api.create(Kinds.ConfigMap, cm("new", "doomed")))
      assert.equal(refused.reason, "Forbidden")
      assert.match(refused.message, /because it is being terminated/)
      yield* api.patch(Kinds.ConfigMap, { namespace: "doomed", name: "held" }, { metadata: { finalizers: null } }, { type: "merge" })
      yield* settle
      assert.equal((yield* Effect.flip(api.get(Kinds.Namespace, { name: "doomed" }))).reason, "NotFound")
      const protectedNs = yield* Effect.flip(api.delete(Kinds.Namespace, { name: "default" }))
      assert.equal(protectedNs.reason, "Forbidden")
    })))

test("Pods: generation follows the spec, status writes keep the spec but apply labels", () =>
  withCluster({}, ({ api }) =>
    Effect.gen(function*() {
      const created = yield* api.create(Kinds.Pod, pod("p", "default"))
      assert.equal(created.metadata.generation, 1)
      assert.deepEqual(created["status"], { phase: "Pending", qosClass: "BestEffort" })
      const spec = created["spec"] as Record<string, unknown>
      const changed = yield* api.update(Kinds.Pod, { ...created, spec: { ...spec, activeDeadlineSeconds: 60 } })
      assert.equal(changed.metadata.generation, 2)
      const status = yield* api.updateStatus(Kinds.Pod, {
        ...changed,
        metadata: { ...changed.metadata, labels: { via: "status" } },
        spec: { ...spec, activeDeadlineSeconds: 1 },
        status: { phase: "Running", podIP: "10.1.0.5" }
      })
      assert.equal((status["spec"] as { activeDeadlineSeconds: number }).activeDeadlineSeconds, 60)
      assert.deepEqual(status.metadata.labels, { via: "status" }, "core status writes keep metadata changes")
      assert.equal((status["status"] as { phase: string }).phase, "Running")
      const running = yield* api.list(Kinds.Pod, { fieldSelector: "status.phase=Running,spec.nodeName=node-1" })
      assert.deepEqual(running.items.map((p) => p.metadata.name), ["p"])
      yield* api.delete(Kinds.Pod, { namespace: "default", name: "p" })
      const terminating = yield* api.get(Kinds.Pod, { namespace: "default", name: "p" })
      assert.equal(terminating.metadata.generation, 3, "graceful deletion bumps the generation")
    })))

test("managedFields use the server's fieldsV1 encoding", () =>
  withCluster({}, ({ api }) =>
    Effect.gen(function*() {
      const svc = yield* api.apply(Kinds.Service, {
        apiVersion: "v1",
        kind: "Service",
        metadata: { name: "web", namespace: "default", finalizers: ["example.com/f"], labels: { a: "b" } },
        spec: { ports: [{ name: "http", port: 80 }] }
      }, { fieldManager: "ctl" })
      const entry = svc.metadata.managedFields?.find((e) => e.manager === "ctl")
      assert.deepEqual(entry?.fieldsV1, {
        "f:metadata": { "f:finalizers": { "v:\"example.com/f\"": {} }, "f:labels": { "f:a": {} } },
        "f:spec": { "f:ports": { "k:{\"port\":80,\"protocol\":\"TCP\"}": { ".": {}, "f:name": {}, "f:port": {} } } }
      })
      assert.equal(entry?.fieldsType, "FieldsV1")
      assert.match(entry?.time ?? "", /Z$/)
    })))

test("applying to an object nobody owns fields of conflicts with before-first-apply", () =>
  withCluster({}, ({ api }) =>
    Effect.gen(function*() {
      yield* api.create(Kinds.ConfigMap, cm("a", "default", { data: { x: "1" } } as Partial<KubeObject>))
      // `managedFields: [{}]` resets ownership; later applies then meet "before-first-apply".
      const reset = yield* api.patch(Kinds.ConfigMap, { namespace: "default", name: "a" }, {
        metadata: { managedFields: [{}] },
        data: { y: "2" }
      }, { type: "merge" })
      assert.equal(reset.metadata.managedFields, undefined)
      const error = yield* Effect.flip(api.apply(Kinds.ConfigMap, { ...cm("a"), data: { x: "2" } }, { fieldManager: "ctl" }))
      assert.equal(error.reason, "Conflict")
      assert.match(error.message, /conflict with "before-first-apply" using v1: \.data\.x/)
      const forced = yield* api.apply(Kinds.ConfigMap, { ...cm("a"), data: { x: "2" } }, { fieldManager: "ctl", force: true })
      assert.deepEqual(forced["data"], { x: "2", y: "2" }, "fields owned by before-first-apply stay")
    })))

test("Service updates keep allocated values the request omits, and type changes drop node ports", () =>
  withCluster({}, ({ api }) =>
    Effect.gen(function*() {
      const applied = (type: string) => ({
        apiVersion: "v1",
        kind: "Service",
        metadata: { name: "web", namespace: "default" },
        spec: { type, ports: [{ name: "http", port: 80 }] }
      })
      const nodePort = yield* api.apply(Kinds.Service, applied("NodePort"), { fieldManager: "ctl" })
      const spec = nodePort["spec"] as { clusterIP: string; ports: Array<{ nodePort: number }> }
      assert.equal(spec.ports[0]!.nodePort, 30000)
      const lb = yield* api.apply(Kinds.Service, applied("LoadBalancer"), { fieldManager: "ctl" })
      const lbSpec = lb["spec"] as { clusterIP: string; allocateLoadBalancerNodePorts: boolean; ports: Array<{ nodePort: number }> }
      assert.equal(lbSpec.ports[0]!.nodePort, 30000, "LoadBalancer keeps the node port")
      assert.equal(lbSpec.allocateLoadBalancerNodePorts, true)
      assert.equal(lbSpec.clusterIP, spec.clusterIP)
      const back = yield* api.apply(Kinds.Service, applied("ClusterIP"), { fieldManager: "ctl" })
      const backSpec = back["spec"] as Record<string, unknown> & { ports: Array<{ nodePort?: number }> }
      assert.equal(backSpec.ports[0]!.nodePort, undefined)
      assert.equal(backSpec["externalTrafficPolicy"], undefined)
      assert.equal(backSpec["allocateLoadBalancerNodePorts"], undefined)
      const second = yield* api.create(Kinds.Service, { ...applied("NodePort"), metadata: { name: "second", namespace: "default" } })
      assert.equal((second["spec"] as { ports: Array<{ nodePort: number }> }).ports[0]!.nodePort, 30000, "released ports are reused")
    })))

test("the layer provides KubeApi and KubeApiMemory over one cluster", () =>
  Effect.runPromise(Effect.gen(function*() {
    const api = yield* KubeApi
    const cluster = yield* KubeApiMemory
    yield* api.create(Kinds.ConfigMap, cm("a"))
    assert.deepEqual(cluster.objects(Kinds.ConfigMap, "default").map((o) => o.metadata.name), ["a"])
    assert.ok(cluster.snapshot().some((e) => e.kind === Kinds.ConfigMap && e.object.metadata.name === "a"))
  }).pipe(Effect.provide(Layer.fresh(KubeApiMemory.layer())))))
