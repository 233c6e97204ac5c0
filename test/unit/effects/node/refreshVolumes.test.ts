import { test } from "node:test"
import assert from "node:assert/strict"
import { Effect, Layer } from "effect"
import { KubeApiMemory } from "../../../../adapters/KubeApiMemory.ts"
import { Kinds } from "../../../../domain/kinds.ts"
import { VolumePublisher } from "../../../../csi/programs.ts"
import { VolumePublisherLive } from "../../../../csi/volumePrograms.ts"
import { KubeApi, KubeApiError } from "../../../../effects/shared/KubeApi.ts"
import { PublishedVolumes } from "../../../../effects/node/PublishedVolumes.ts"
import { refreshPublishedVolumes } from "../../../../effects/node/addressRefresh.ts"
import { TargetLocks } from "../../../../effects/node/TargetLocks.ts"
import { VolumeFs } from "../../../../effects/shared/VolumeFs.ts"
import { CLASS, createListener, createPod, createVolume, loadBalancerStatus, NAMESPACE, seedCluster, setListenerStatus, sharedListenerPublish } from "../shared/volumeFixtures.ts"
import { runInCluster, snapshotTree } from "../shared/volumeTestLayer.ts"

const ROOT = "/var/lib/kubelet/pods/p2/volumes/kubernetes.io~csi/pvc-2"
const TARGET = `${ROOT}/mount`

const request = sharedListenerPublish(TARGET)
const lb = loadBalancerStatus

/** A published listener-name volume of a LoadBalancer Listener, through the CSI program layer. */
const published = Effect.gen(function*() {
  yield* seedCluster
  const fs = yield* VolumeFs
  yield* fs.mkdir(ROOT, { recursive: true })
  yield* createListener("shared", { className: CLASS.loadBalancer, ports: [{ name: "http", port: 8080 }] })
  yield* createVolume({ pvcName: "shared-web-1", volumeId: "pvc-2", annotations: { "listeners.stackable.tech/listener-name": "shared" } })
  yield* createPod({ name: "web-1", nodeName: "node-2", volumes: [{ name: "listener", persistentVolumeClaim: { claimName: "shared-web-1" } }] })
  yield* setListenerStatus("shared", lb("192.0.2.1"))
  const publisher = yield* VolumePublisher
  yield* publisher.publish(request)
})

const run = <A, E>(effect: Effect.Effect<A, E, KubeApi | KubeApiMemory | VolumeFs | VolumePublisher | PublishedVolumes | TargetLocks | import("../../../../effects/shared/EventRecorder.ts").EventRecorder>) =>
  runInCluster(effect.pipe(Effect.provide(Layer.provideMerge(VolumePublisherLive, Layer.merge(PublishedVolumes.layerMemory, TargetLocks.layer)))))

const addressIn = (tree: Record<string, string>) => tree["default-address"]

test("a changed Listener address reaches the published volume in place; an unchanged one costs only reads", () =>
  run(Effect.gen(function*() {
    yield* published
    const cluster = yield* KubeApiMemory
    assert.equal(addressIn(yield* snapshotTree(TARGET)), "-> addresses/192.0.2.1")

    cluster.requests.reset()
    assert.deepEqual(yield* refreshPublishedVolumes("node-2"), { checked: 1, republished: 0, forgotten: 0 })
    assert.equal(cluster.requests.writes(), 0)
    assert.ok(cluster.requests.count("get") <= 2, "the Listener and its class")

    yield* setListenerStatus("shared", lb("192.0.2.9"))
    assert.deepEqual(yield* refreshPublishedVolumes("node-2"), { checked: 1, republished: 1, forgotten: 0 })
    const tree = yield* snapshotTree(TARGET)
    assert.equal(addressIn(tree), "-> addresses/192.0.2.9")
    assert.equal(tree["addresses/192.0.2.9/ports/http"], "443")
    assert.equal(tree["addresses/192.0.2.1/"], undefined, "the old address is gone from the tree")
    const api = yield* KubeApi
    const pod = yield* api.get(Kinds.Pod, { namespace: NAMESPACE, name: "web-1" })
    const podListeners = yield* api.get(Kinds.PodListeners, { namespace: NAMESPACE, name: `pod-${pod.metadata.uid}` })
    assert.deepEqual(podListeners["spec"], { listeners: { listener: { scope: "Cluster", ingressAddresses: lb("192.0.2.9").ingressAddresses } } })
  })))

/** The requests since the last reset, as "verb resource" → count. */
const requestsOf = (cluster: KubeApiMemory["Service"]) =>
  Object.fromEntries(cluster.requests.entries().map((e) => [`${e.verb} ${e.resource}`, e.count]))

test("a re-publish costs 2 requests, GET Pod and PATCH PodListeners: the PV, PVC, Listener and labels a publish established are not read again", () =>
  run(Effect.gen(function*() {
    yield* published
    const cluster = yield* KubeApiMemory
    yield* setListenerStatus("shared", lb("192.0.2.9"))
    cluster.requests.reset()
    assert.deepEqual(yield* refreshPublishedVolumes("node-2"), { checked: 1, republished: 1, forgotten: 0 })
    const refreshed = requestsOf(cluster)
    // Without caches (this test's NodeView) the pass reads the Listener and its class itself.
    delete refreshed["get listeners.listeners.stackable.tech"]
    delete refreshed["get listenerclasses.listeners.stackable.tech"]
    assert.deepEqual(refreshed, { "get pods": 1, "patch podlisteners.listeners.stackable.tech": 1 })
    assert.equal(addressIn(yield* snapshotTree(TARGET)), "-> addresses/192.0.2.9")
  })))

test("a re-publish that meets transient API trouble (a GET Pod on a socket the API server closed) is tried again in the same pass, not at the next resync", () =>
  run(Effect.gen(function*() {
    yield* published
    const cluster = yield* KubeApiMemory
    yield* setListenerStatus("shared", lb("192.0.2.9"))
    const api = yield* KubeApi
    let podGets = 0
    // The first GET of the Pod fails as the HTTP client reports a reset keep-alive socket.
    const flaky = KubeApi.of({
      ...api,
      get: (kind, ref) =>
        kind.kind === Kinds.Pod.kind && ++podGets === 1
          ? Effect.fail(new KubeApiError({ reason: "Unavailable", verb: "get", kind: kind.kind, objectName: ref.name, message: "ECONNRESET socket hang up" }))
          : api.get(kind, ref)
    })
    cluster.requests.reset()
    const outcome = yield* refreshPublishedVolumes("node-2").pipe(Effect.provideService(KubeApi, flaky))
    assert.deepEqual(outcome, { checked: 1, republished: 1, forgotten: 0 })
    assert.equal(podGets, 2)
    assert.equal(addressIn(yield* snapshotTree(TARGET)), "-> addresses/192.0.2.9")
    // Only the repeat reached the API server (the failed GET never left the client here).
    assert.equal(cluster.requests.count("patch"), 1)
  })))

test("a record without the Pod's volume (found on disk) and a deleted PodListeners take the whole publish, which re-creates what is missing", () =>
  run(Effect.gen(function*() {
    yield* published
    const cluster = yield* KubeApiMemory
    const registry = yield* PublishedVolumes
    const api = yield* KubeApi
    const [record] = yield* registry.all
    yield* registry.record({ request: record!.request, listener: record!.listener, addresses: record!.addresses })
    yield* setListenerStatus("shared", lb("192.0.2.9"))
    cluster.requests.reset()
    assert.deepEqual(yield* refreshPublishedVolumes("node-2"), { checked: 1, republished: 1, forgotten: 0 })
    assert.equal(cluster.requests.count("get", Kinds.PersistentVolume), 1, "the whole publish reads the PV")
    assert.deepEqual((yield* registry.get(TARGET))?.podVolume, { name: "listener", scope: "Cluster" }, "and the record learns the Pod's volume")

    const pod = yield* api.get(Kinds.Pod, { namespace: NAMESPACE, name: "web-1" })
    const podListeners = { namespace: NAMESPACE, name: `pod-${pod.metadata.uid}` }
    yield* api.delete(Kinds.PodListeners, podListeners)
    yield* setListenerStatus("shared", lb("192.0.2.7"))
    assert.deepEqual(yield* refreshPublishedVolumes("node-2"), { checked: 1, republished: 1, forgotten: 0 })
    const recreated = yield* api.get(Kinds.PodListeners, podListeners)
    assert.deepEqual(recreated["spec"], { listeners: { listener: { scope: "Cluster", ingressAddresses: lb("192.0.2.7").ingressAddresses } } })
    assert.equal(addressIn(yield* snapshotTree(TARGET)), "-> addresses/192.0.2.7")
  })))

test("a Listener without addresses keeps the old tree; a volume whose Pod is gone is forgotten", () =>
  run(Effect.gen(function*() {
    yield* published
    yield* setListenerStatus("shared", { ingressAddresses: [] })
    assert.deepEqual(yield* refreshPublishedVolumes("node-2"), { checked: 1, republished: 0, forgotten: 0 })
    assert.equal(addressIn(yield* snapshotTree(TARGET)), "-> addresses/192.0.2.1")

    const api = yield* KubeApi
    yield* api.delete(Kinds.Pod, { namespace: NAMESPACE, name: "web-1" }, { gracePeriodSeconds: 0 })
    yield* setListenerStatus("shared", lb("192.0.2.5"))
    assert.deepEqual(yield* refreshPublishedVolumes("node-2"), { checked: 1, republished: 0, forgotten: 1 })
    assert.deepEqual(yield* refreshPublishedVolumes("node-2"), { checked: 0, republished: 0, forgotten: 0 })
  })))

test("unpublishing forgets the volume", () =>
  run(Effect.gen(function*() {
    yield* published
    const publisher = yield* VolumePublisher
    yield* publisher.unpublish({ volumeId: "pvc-2", targetPath: TARGET })
    const registry = yield* PublishedVolumes
    assert.deepEqual(yield* registry.all, [])
  })))

test("a Pod being deleted is not refreshed: its tree stays for the stopping containers, the record is forgotten", () =>
  run(Effect.gen(function*() {
    yield* published
    const api = yield* KubeApi
    // Graceful: the Pod's containers are stopping; the kubelet will unpublish the volume after.
    yield* api.delete(Kinds.Pod, { namespace: NAMESPACE, name: "web-1" })
    yield* setListenerStatus("shared", lb("192.0.2.9"))
    const before = yield* snapshotTree(TARGET)
    assert.deepEqual(yield* refreshPublishedVolumes("node-2"), { checked: 1, republished: 0, forgotten: 1 })
    assert.deepEqual(yield* snapshotTree(TARGET), before, "the old tree, untouched")
    assert.equal(addressIn(before), "-> addresses/192.0.2.1")
    const registry = yield* PublishedVolumes
    assert.deepEqual(yield* registry.all, [], "later passes leave the target alone")
  })))
