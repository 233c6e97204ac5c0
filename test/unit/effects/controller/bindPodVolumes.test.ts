// The controller's volume binder (k8s/volumeBinder.ts) on the in-memory API server: what it
// binds, re-binds and leaves alone (docs/security.md). Its pure decisions: test/unit/domain/volumeBinding.test.ts.
import { test } from "node:test"
import assert from "node:assert/strict"
import { Effect, Option } from "effect"
import { BOUND_NODE_LABEL, LISTENER_API_VERSION, MOUNT_LABEL_PREFIX, mountLabelKey, NODE_PUBLISHED_LABEL } from "../../../../domain/constants.ts"
import { Kinds } from "../../../../domain/kinds.ts"
import { KubeApiMemory } from "../../../../adapters/KubeApiMemory.ts"
import { getOption, KubeApi } from "../../../../effects/shared/KubeApi.ts"
import type { KubeObject } from "../../../../effects/shared/KubeApi.ts"
import { bindPodVolumes } from "../../../../effects/controller/bindPodVolumes.ts"
import { makeVolumeBinder, slimListener, slimMarkedPod } from "../../../../k8s/volumeBinder.ts"
import { CLASS, createListener, createPod, createVolume, NAMESPACE, seedCluster } from "../shared/volumeFixtures.ts"
import { runInCluster } from "../shared/volumeTestLayer.ts"

const CLAIM = "data-web-0"

/** PV pvc-1 (listener-class, labelled as the node plugin labels it) and Pod web-0 on `node` mounting it. */
const seed = (node: string) =>
  Effect.gen(function*() {
    yield* seedCluster
    const { pv } = yield* createVolume({ pvcName: CLAIM, volumeId: "pvc-1", annotations: { "listeners.stackable.tech/listener-class": CLASS.nodePort } })
    const api = yield* KubeApi
    const labelled = yield* api.patch(Kinds.PersistentVolume, { name: "pvc-1" }, {
      metadata: { labels: { "listeners.stackable.tech/listener-namespace": NAMESPACE, "listeners.stackable.tech/listener-name": CLAIM } }
    }, { type: "merge" })
    const pod = yield* createPod({ name: "web-0", nodeName: node, volumes: [{ name: "data", persistentVolumeClaim: { claimName: CLAIM } }] })
    return { pv: labelled ?? pv, pod }
  })

const markPod = (pod: KubeObject, node: string) =>
  KubeApi.use((api) => api.patch(Kinds.Pod, { namespace: NAMESPACE, name: pod.metadata.name ?? "" }, { metadata: { labels: { [NODE_PUBLISHED_LABEL]: node } } }, { type: "merge" }))

/** Polls until `check` holds for the object (the binder runs beside the test). */
const until = (kind: typeof Kinds.Listener | typeof Kinds.PodListeners, name: string, check: (object: KubeObject) => boolean) =>
  Effect.gen(function*() {
    const api = yield* KubeApi
    for (let i = 0; i < 200; i++) {
      const live = yield* getOption(api.get(kind, { namespace: NAMESPACE, name }))
      if (Option.isSome(live) && check(live.value)) return live.value
      yield* Effect.sleep("10 millis")
    }
    return assert.fail(`${kind.kind} ${name} never satisfied the check`)
  })

test("re-binding moves the node's published-on label too: the old node's watch no longer sees the Listener", () =>
  runInCluster(Effect.gen(function*() {
    const { pv, pod } = yield* seed("node-1")
    const api = yield* KubeApi
    yield* api.create(Kinds.Listener, {
      apiVersion: LISTENER_API_VERSION,
      kind: "Listener",
      metadata: {
        name: CLAIM,
        namespace: NAMESPACE,
        labels: { [BOUND_NODE_LABEL]: "node-2", "listeners.stackable.tech/on.node-2": "true", team: "a" },
        ownerReferences: [{ apiVersion: "v1", kind: "PersistentVolume", name: "pvc-1", uid: pv.metadata.uid! }]
      },
      spec: { className: CLASS.nodePort, ports: [{ name: "old", port: 1 }], publishNotReadyAddresses: true }
    })
    yield* markPod(pod, "node-1")
    const rebound = yield* until(Kinds.Listener, CLAIM, (l) => l.metadata.labels?.[BOUND_NODE_LABEL] === "node-1")
    assert.deepEqual(rebound.metadata.labels, { [BOUND_NODE_LABEL]: "node-1", "listeners.stackable.tech/on.node-1": "true", team: "a" })
    assert.deepEqual((rebound["spec"] as { ports: unknown }).ports, [
      { name: "http", port: 8080, protocol: "TCP" },
      { name: "port-9090", port: 9090, protocol: "UDP" }
    ], "the ports of the Pod that now mounts it")
    yield* until(Kinds.PodListeners, `pod-${pod.metadata.uid}`, (p) => p.metadata.labels?.[BOUND_NODE_LABEL] === "node-1")
  })))

test("a Listener of the claim's name that the volume does not own is never bound (the user's, not the volume's)", () =>
  runInCluster(Effect.gen(function*() {
    const { pod } = yield* seed("node-1")
    const api = yield* KubeApi
    const foreign = yield* api.create(Kinds.Listener, {
      apiVersion: LISTENER_API_VERSION,
      kind: "Listener",
      metadata: { name: CLAIM, namespace: NAMESPACE },
      spec: { className: CLASS.nodePort, ports: [] }
    })
    yield* markPod(pod, "node-1")
    // The PodListeners is bound; the foreign Listener stays as it was.
    yield* until(Kinds.PodListeners, `pod-${pod.metadata.uid}`, (p) => p.metadata.labels?.[BOUND_NODE_LABEL] === "node-1")
    yield* Effect.sleep("100 millis")
    const after = yield* api.get(Kinds.Listener, { namespace: NAMESPACE, name: CLAIM })
    assert.equal(after.metadata.resourceVersion, foreign.metadata.resourceVersion)
  })))

test("a Listener kept through a node loss (owned by the Pod's workload, its volume gone) is adopted by the new volume and bound", () =>
  runInCluster(Effect.gen(function*() {
    const { pv, pod } = yield* seed("node-1")
    const api = yield* KubeApi
    const workload = { apiVersion: "apps/v1", kind: "StatefulSet", name: "web", uid: "sts-uid", controller: true }
    yield* api.patch(Kinds.Pod, { namespace: NAMESPACE, name: pod.metadata.name ?? "" }, { metadata: { ownerReferences: [workload] } }, { type: "merge" })
    yield* api.create(Kinds.Listener, {
      apiVersion: LISTENER_API_VERSION,
      kind: "Listener",
      metadata: { name: CLAIM, namespace: NAMESPACE, labels: { [BOUND_NODE_LABEL]: "node-2" }, ownerReferences: [{ ...workload, controller: false }] },
      spec: { className: CLASS.nodePort, ports: [], publishNotReadyAddresses: true }
    })
    yield* markPod(pod, "node-1")
    const adopted = yield* until(Kinds.Listener, CLAIM, (l) => l.metadata.labels?.[BOUND_NODE_LABEL] === "node-1")
    assert.deepEqual(adopted.metadata.ownerReferences?.map((o) => o.uid), ["sts-uid", pv.metadata.uid], "the workload kept, the new volume added")
  })))

test("an unmarked Pod, a Pod being deleted and a shared volume's Listener get nothing from the binder", () =>
  runInCluster(Effect.gen(function*() {
    const { pod } = yield* seed("node-1")
    const cluster = yield* KubeApiMemory
    yield* Effect.sleep("100 millis")
    assert.equal(cluster.objects(Kinds.PodListeners, NAMESPACE).length, 0, "not marked: nothing")
    // A shared volume (listener-name): the PodListeners only, no per-volume Listener.
    yield* createVolume({ pvcName: "shared-claim", volumeId: "pvc-2", annotations: { "listeners.stackable.tech/listener-name": "shared" } })
    const api = yield* KubeApi
    yield* api.patch(Kinds.PersistentVolume, { name: "pvc-2" }, {
      metadata: { labels: { "listeners.stackable.tech/listener-namespace": NAMESPACE, "listeners.stackable.tech/listener-name": "shared" } }
    }, { type: "merge" })
    const web1 = yield* createPod({ name: "web-1", nodeName: "node-2", volumes: [{ name: "data", persistentVolumeClaim: { claimName: "shared-claim" } }] })
    yield* markPod(web1, "node-2")
    yield* until(Kinds.PodListeners, `pod-${web1.metadata.uid}`, (p) => p.metadata.labels?.[BOUND_NODE_LABEL] === "node-2")
    yield* Effect.sleep("100 millis")
    assert.deepEqual(cluster.objects(Kinds.Listener, NAMESPACE).map((l) => l.metadata.name), [], "no Listener for a shared volume")
    void pod
  })))

const mountLabelsOf = (pod: KubeObject | undefined) =>
  Object.fromEntries(Object.entries(pod?.metadata.labels ?? {}).filter(([key]) => key.startsWith(MOUNT_LABEL_PREFIX)))

/** Polls the Pod until it carries `count` mount labels. */
const untilMountLabels = (name: string, count: number) =>
  Effect.gen(function*() {
    const api = yield* KubeApi
    for (let i = 0; i < 200; i++) {
      const pod = yield* api.get(Kinds.Pod, { namespace: NAMESPACE, name })
      if (Object.keys(mountLabelsOf(pod)).length >= count) return pod
      yield* Effect.sleep("10 millis")
    }
    return assert.fail(`Pod ${name} never got ${count} mount labels`)
  })

test("the binder sets the mount labels of a marked Pod: its per-volume Listener and the shared Listener its other volume names", () =>
  runInCluster(Effect.gen(function*() {
    const { pod } = yield* seed("node-1")
    const api = yield* KubeApi
    const shared = yield* createListener("shared", { className: CLASS.clusterIp, ports: [] })
    yield* createVolume({ pvcName: "shared-claim", volumeId: "pvc-2", annotations: { "listeners.stackable.tech/listener-name": "shared" } })
    yield* api.patch(Kinds.PersistentVolume, { name: "pvc-2" }, {
      metadata: { labels: { "listeners.stackable.tech/listener-namespace": NAMESPACE, "listeners.stackable.tech/listener-name": "shared" } }
    }, { type: "merge" })
    const both = yield* createPod({
      name: "web-1",
      nodeName: "node-1",
      volumes: [{ name: "a", persistentVolumeClaim: { claimName: "shared-claim" } }]
    })
    yield* markPod(pod, "node-1")
    yield* markPod(both, "node-1")
    const labelled = yield* untilMountLabels("web-0", 1)
    const perVolume = yield* api.get(Kinds.Listener, { namespace: NAMESPACE, name: CLAIM })
    assert.deepEqual(mountLabelsOf(labelled), { [mountLabelKey(perVolume.metadata.uid!)]: CLAIM })
    const sharedPod = yield* untilMountLabels("web-1", 1)
    assert.deepEqual(mountLabelsOf(sharedPod), { [mountLabelKey(shared.metadata.uid!)]: "shared" })
    assert.equal(sharedPod.metadata.labels?.["app"], "web", "the Pod's other labels stay")
  })))

test("a shared Listener created after the Pod was marked: its creation labels the Pod", () =>
  runInCluster(Effect.gen(function*() {
    yield* seedCluster
    const api = yield* KubeApi
    yield* createVolume({ pvcName: "shared-claim", volumeId: "pvc-2", annotations: { "listeners.stackable.tech/listener-name": "late" } })
    yield* api.patch(Kinds.PersistentVolume, { name: "pvc-2" }, {
      metadata: { labels: { "listeners.stackable.tech/listener-namespace": NAMESPACE, "listeners.stackable.tech/listener-name": "late" } }
    }, { type: "merge" })
    const pod = yield* createPod({ name: "web-2", nodeName: "node-2", volumes: [{ name: "a", persistentVolumeClaim: { claimName: "shared-claim" } }] })
    yield* markPod(pod, "node-2")
    yield* until(Kinds.PodListeners, `pod-${pod.metadata.uid}`, (p) => p.metadata.labels?.[BOUND_NODE_LABEL] === "node-2")
    assert.deepEqual(mountLabelsOf(yield* api.get(Kinds.Pod, { namespace: NAMESPACE, name: "web-2" })), {}, "no Listener yet: no label")
    const late = yield* createListener("late", { className: CLASS.clusterIp, ports: [] })
    const labelled = yield* untilMountLabels("web-2", 1)
    assert.deepEqual(mountLabelsOf(labelled), { [mountLabelKey(late.metadata.uid!)]: "late" })
  })))

test("a shared Listener's mount label only for a volume the Pod mounts, of our driver, bound to its claim", () =>
  runInCluster(Effect.gen(function*() {
    yield* seedCluster
    const api = yield* KubeApi
    yield* createListener("shared", { className: CLASS.clusterIp, ports: [] })
    // A PV of our driver naming "shared", bound to a claim this Pod does not mount.
    yield* createVolume({ pvcName: "other-claim", volumeId: "pvc-3", annotations: { "listeners.stackable.tech/listener-name": "shared" } })
    yield* api.patch(Kinds.PersistentVolume, { name: "pvc-3" }, {
      metadata: { labels: { "listeners.stackable.tech/listener-namespace": NAMESPACE, "listeners.stackable.tech/listener-name": "shared" } }
    }, { type: "merge" })
    const pod = yield* createPod({ name: "web-3", nodeName: "node-1", volumes: [{ name: "a", persistentVolumeClaim: { claimName: "not-ours" } }] })
    yield* markPod(pod, "node-1")
    yield* until(Kinds.PodListeners, `pod-${pod.metadata.uid}`, (p) => p.metadata.labels?.[BOUND_NODE_LABEL] === "node-1")
    yield* Effect.sleep("100 millis")
    assert.deepEqual(mountLabelsOf(yield* api.get(Kinds.Pod, { namespace: NAMESPACE, name: "web-3" })), {})
  })))

test("a restarted binder rewrites no mount label (nor anything else) of a labelled Pod", () =>
  runInCluster(Effect.gen(function*() {
    const { pod } = yield* seed("node-1")
    yield* markPod(pod, "node-1")
    yield* untilMountLabels("web-0", 1)
    yield* until(Kinds.PodListeners, `pod-${pod.metadata.uid}`, (p) => p.metadata.labels?.[BOUND_NODE_LABEL] === "node-1")
    const cluster = yield* KubeApiMemory
    const api = yield* KubeApi
    const writes: string[] = []
    const counting = KubeApi.overriding(cluster.api, {
      patch: (kind, ref, patch, options) => Effect.andThen(Effect.sync(() => writes.push(`patch ${kind.kind}`)), cluster.api.patch(kind, ref, patch, options)),
      create: (kind, object, options) => Effect.andThen(Effect.sync(() => writes.push(`create ${kind.kind}`)), cluster.api.create(kind, object, options)),
      apply: (kind, object, options) => Effect.andThen(Effect.sync(() => writes.push(`apply ${kind.kind}`)), cluster.api.apply(kind, object, options))
    })
    // A second binder (as after a restart), on warm objects: it reconciles the Pod and writes nothing.
    const outcome = yield* Effect.scoped(Effect.gen(function*() {
      const binder = yield* makeVolumeBinder
      const live = yield* api.get(Kinds.Pod, { namespace: NAMESPACE, name: "web-0" })
      for (let i = 0; i < 200; i++) {
        if (Option.isSome(yield* binder.view.boundListener(NAMESPACE, CLAIM))) break
        yield* Effect.sleep("10 millis")
      }
      return yield* bindPodVolumes(binder.view, slimMarkedPod(live))
    })).pipe(Effect.provideService(KubeApi, counting))
    assert.deepEqual(outcome, { podListeners: "bound", listeners: [{ name: CLAIM, outcome: "bound" }], mountLabels: undefined })
    assert.deepEqual(writes, [])
  })))

test("the binder's caches stay stripped: a Pod keeps only the marker and mount labels; a shared Listener only its identity", () => {
  const slimPod = slimMarkedPod({
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "p", namespace: NAMESPACE, uid: "u", labels: { app: "web", [NODE_PUBLISHED_LABEL]: "node-1", [mountLabelKey("a-b")]: "l" }, annotations: { big: "x" } },
    spec: { nodeName: "node-1", containers: [{ name: "c", image: "i", env: [{ name: "SECRET", value: "s" }] }], volumes: [] },
    status: { phase: "Running" }
  })
  assert.deepEqual(slimPod.metadata.labels, { [NODE_PUBLISHED_LABEL]: "node-1", [mountLabelKey("a-b")]: "l" })
  assert.equal(slimPod["status"], undefined)
  assert.equal(slimPod.metadata.annotations, undefined)
  const listener = (labels: Record<string, string>) => ({
    apiVersion: LISTENER_API_VERSION,
    kind: "Listener",
    metadata: { name: "l", namespace: NAMESPACE, uid: "u", labels, annotations: { big: "x" } },
    spec: { className: "c", ports: [] },
    status: { ingressAddresses: [] }
  })
  const shared = slimListener(listener({}))
  assert.deepEqual([shared.metadata.uid, shared["spec"], shared["status"], shared.metadata.annotations], ["u", undefined, undefined, undefined])
  const bound = slimListener(listener({ [BOUND_NODE_LABEL]: "node-1" }))
  assert.deepEqual([bound["spec"], bound["status"]], [{ className: "c", ports: [] }, undefined])
})
