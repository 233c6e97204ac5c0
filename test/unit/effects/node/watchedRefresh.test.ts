/**
 * The node plugin over its watch caches (k8s/nodeCaches.ts on the in-memory API server,
 * which serves list and watch with selectors like the real one): the address refresh is
 * driven by watch events and reads nothing from the API; a publish waits on the Listener
 * watch while the controller catches up; the node's label follows its published volumes.
 */
import { test } from "node:test"
import assert from "node:assert/strict"
import { Effect, Fiber, Layer, Option } from "effect"
import type { Duration } from "effect"
import { KubeApiMemory } from "../../../../adapters/KubeApiMemory.ts"
import { VolumePublisher } from "../../../../csi/programs.ts"
import { VolumePublisherLive } from "../../../../csi/volumePrograms.ts"
import { Kinds } from "../../../../domain/kinds.ts"
import { publishedOnNodeLabel } from "../../../../domain/publishedOnNode.ts"
import type { EventRecorder } from "../../../../effects/shared/EventRecorder.ts"
import { KubeApi } from "../../../../effects/shared/KubeApi.ts"
import { NodeView } from "../../../../effects/node/NodeView.ts"
import { PublishedVolumes } from "../../../../effects/node/PublishedVolumes.ts"
import { runAddressRefresh } from "../../../../effects/node/addressRefresh.ts"
import { TargetLocks } from "../../../../effects/node/TargetLocks.ts"
import { VolumeFs } from "../../../../effects/shared/VolumeFs.ts"
import { makeNodeCaches } from "../../../../k8s/nodeCaches.ts"
import { CLASS, createListener, createPod, createVolume, loadBalancerStatus, NAMESPACE, seedCluster, setListenerStatus, sharedListenerPublish } from "../shared/volumeFixtures.ts"
import { runInCluster, snapshotTree } from "../shared/volumeTestLayer.ts"

const ROOT = "/var/lib/kubelet/pods/p2/volumes/kubernetes.io~csi/pvc-2"
const TARGET = `${ROOT}/mount`
const NODE = "node-2"
const LABEL = publishedOnNodeLabel(NODE)

type Needs = KubeApi | KubeApiMemory | VolumeFs | EventRecorder | VolumePublisher | PublishedVolumes | TargetLocks

/** Runs `body` as node-2's plugin: its caches, publisher and refresh loop (resync `resync`). */
const asNode = <A, E>(body: Effect.Effect<A, E, Needs>, options: { readonly resync?: Duration.Input; readonly publishWait?: Duration.Input } = {}) =>
  runInCluster(Effect.scoped(Effect.gen(function*() {
    yield* seedCluster
    const view = yield* makeNodeCaches({ nodeName: NODE, publishWait: options.publishWait ?? "3 seconds" })
    return yield* Effect.gen(function*() {
      if (options.resync !== undefined) yield* Effect.forkScoped(runAddressRefresh(NODE, options.resync))
      return yield* body
    }).pipe(
      Effect.provide(Layer.provideMerge(VolumePublisherLive, Layer.merge(PublishedVolumes.layerMemory, TargetLocks.layer))),
      Effect.provideService(NodeView, view)
    )
  })))

const until = <A, E, R>(what: string, check: Effect.Effect<A | undefined, E, R>) =>
  Effect.gen(function*() {
    for (let attempt = 0; attempt < 200; attempt++) {
      const value = yield* check
      if (value !== undefined) return value
      yield* Effect.sleep("25 millis")
    }
    return assert.fail(`timed out waiting for ${what}`)
  })

const addressIn = (tree: Record<string, string>) => tree["default-address"]

/** Listener `shared` (LoadBalancer, 192.0.2.1) and Pod web-1 on node-2 with its volume published. */
const publishedShared = Effect.gen(function*() {
  const fs = yield* VolumeFs
  yield* fs.mkdir(ROOT, { recursive: true })
  yield* createListener("shared", { className: CLASS.loadBalancer, ports: [{ name: "http", port: 8080 }] })
  yield* createVolume({ pvcName: "shared-web-1", volumeId: "pvc-2", annotations: { "listeners.stackable.tech/listener-name": "shared" } })
  yield* createPod({ name: "web-1", nodeName: NODE, volumes: [{ name: "listener", persistentVolumeClaim: { claimName: "shared-web-1" } }] })
  yield* setListenerStatus("shared", loadBalancerStatus("192.0.2.1"))
  yield* (yield* VolumePublisher).publish(sharedListenerPublish(TARGET))
})

test("publishing labels the Listener for this node; the node's last unpublish takes the label off", () =>
  asNode(Effect.gen(function*() {
    yield* publishedShared
    const api = yield* KubeApi
    const labelled = yield* api.get(Kinds.Listener, { namespace: NAMESPACE, name: "shared" })
    assert.equal(labelled.metadata.labels?.[LABEL], "true")
    const view = yield* NodeView
    yield* until("the Listener in node-2's cache", Effect.map(view.listener({ namespace: NAMESPACE, name: "shared" }), Option.getOrUndefined))

    yield* (yield* VolumePublisher).unpublish({ volumeId: "pvc-2", targetPath: TARGET })
    const unlabelled = yield* api.get(Kinds.Listener, { namespace: NAMESPACE, name: "shared" })
    assert.equal(unlabelled.metadata.labels?.[LABEL], undefined)
    yield* until("the Listener gone from node-2's cache", Effect.map(view.listener({ namespace: NAMESPACE, name: "shared" }), (o) => Option.isNone(o) ? true : undefined))
  })))

test("a changed Listener address reaches the volume from the watch, without a GET of the Listener, its class or the Node", () =>
  asNode(Effect.gen(function*() {
    yield* publishedShared
    const cluster = yield* KubeApiMemory
    const view = yield* NodeView
    yield* until("the Listener in node-2's cache", Effect.map(view.listener({ namespace: NAMESPACE, name: "shared" }), Option.getOrUndefined))
    yield* Effect.sleep("100 millis") // the recheck after the publish has run
    cluster.requests.reset()

    yield* setListenerStatus("shared", loadBalancerStatus("192.0.2.9")) // one GET of the Listener by the test itself
    yield* until("the new address in the volume", Effect.map(snapshotTree(TARGET), (tree) => addressIn(tree) === "-> addresses/192.0.2.9" ? true : undefined))
    assert.equal(cluster.requests.count("get", Kinds.Listener), 1, "only the test's own read")
    assert.equal(cluster.requests.count("get", Kinds.ListenerClass), 0)
    assert.equal(cluster.requests.count("get", Kinds.Node), 0)
    assert.equal(cluster.requests.count("list"), 0)
  }), { resync: "1 hour" }))

test("resync 0 (ADDRESS_REFRESH_SECONDS=0, what the node role runs with it): no resync, the watch-driven refresh stays on", () =>
  asNode(Effect.gen(function*() {
    yield* publishedShared
    const view = yield* NodeView
    yield* until("the Listener in node-2's cache", Effect.map(view.listener({ namespace: NAMESPACE, name: "shared" }), Option.getOrUndefined))
    yield* setListenerStatus("shared", loadBalancerStatus("192.0.2.7"))
    yield* until("the new address in the volume", Effect.map(snapshotTree(TARGET), (tree) => addressIn(tree) === "-> addresses/192.0.2.7" ? true : undefined))
  }), { resync: "0 seconds" }))

test("at rest the refresh and its resync send no request at all", () =>
  asNode(Effect.gen(function*() {
    yield* publishedShared
    const view = yield* NodeView
    yield* until("the Listener in node-2's cache", Effect.map(view.listener({ namespace: NAMESPACE, name: "shared" }), Option.getOrUndefined))
    yield* Effect.sleep("200 millis")
    const cluster = yield* KubeApiMemory
    cluster.requests.reset()
    yield* Effect.sleep("600 millis") // a dozen resync passes
    assert.deepEqual(cluster.requests.entries(), [])
  }), { resync: "50 millis" }))

test("a publish waits, watching, for node ports the controller has not written yet, and succeeds first try", () =>
  asNode(Effect.gen(function*() {
    const fs = yield* VolumeFs
    yield* fs.mkdir(ROOT, { recursive: true })
    yield* createListener("shared", { className: CLASS.nodePort, ports: [{ name: "http", port: 8080 }] })
    yield* createVolume({ pvcName: "shared-web-1", volumeId: "pvc-2", annotations: { "listeners.stackable.tech/listener-name": "shared" } })
    yield* createPod({ name: "web-1", nodeName: NODE, volumes: [{ name: "listener", persistentVolumeClaim: { claimName: "shared-web-1" } }] })
    const publisher = yield* VolumePublisher
    const started = Date.now()
    const publishing = yield* Effect.forkChild(publisher.publish(sharedListenerPublish(TARGET)))
    yield* Effect.sleep("400 millis")
    yield* setListenerStatus("shared", { ingressAddresses: [], nodePorts: { http: 30080 } })
    yield* Fiber.join(publishing)
    const took = Date.now() - started
    assert.ok(took >= 400 && took < 3000, `published once the status arrived (${took} ms)`)
    const tree = yield* snapshotTree(TARGET)
    assert.equal(addressIn(tree), "-> addresses/10.0.0.2")
    assert.equal(tree["addresses/10.0.0.2/ports/http"], "30080")
    const cluster = yield* KubeApiMemory
    assert.deepEqual(cluster.objects(Kinds.Event).map((event) => event["reason"]), [], "no waiting Event")
  })))

test("a LoadBalancer Listener whose status is current but has no address fails at once, with its Event", () =>
  asNode(Effect.gen(function*() {
    const fs = yield* VolumeFs
    yield* fs.mkdir(ROOT, { recursive: true })
    const listener = yield* createListener("shared", { className: CLASS.loadBalancer, ports: [{ name: "http", port: 8080 }] })
    yield* createVolume({ pvcName: "shared-web-1", volumeId: "pvc-2", annotations: { "listeners.stackable.tech/listener-name": "shared" } })
    yield* createPod({ name: "web-1", nodeName: NODE, volumes: [{ name: "listener", persistentVolumeClaim: { claimName: "shared-web-1" } }] })
    yield* setListenerStatus("shared", { ingressAddresses: [], observedGeneration: listener.metadata.generation ?? 1 })
    const started = Date.now()
    const outcome = yield* Effect.result((yield* VolumePublisher).publish(sharedListenerPublish(TARGET)))
    assert.equal(outcome._tag, "Failure")
    assert.equal(outcome._tag === "Failure" ? outcome.failure._tag : "", "ListenerAddressesNotReady")
    assert.ok(Date.now() - started < 1500, "no wait")
    const cluster = yield* KubeApiMemory
    assert.ok(cluster.objects(Kinds.Event).some((event) => event["reason"] === "AwaitingListenerAddress"))
  })))

test("a Listener the controller has not written a status for is waited for only as long as publishWait", () =>
  asNode(Effect.gen(function*() {
    const fs = yield* VolumeFs
    yield* fs.mkdir(ROOT, { recursive: true })
    yield* createListener("shared", { className: CLASS.loadBalancer, ports: [{ name: "http", port: 8080 }] })
    yield* createVolume({ pvcName: "shared-web-1", volumeId: "pvc-2", annotations: { "listeners.stackable.tech/listener-name": "shared" } })
    yield* createPod({ name: "web-1", nodeName: NODE, volumes: [{ name: "listener", persistentVolumeClaim: { claimName: "shared-web-1" } }] })
    const started = Date.now()
    const outcome = yield* Effect.result((yield* VolumePublisher).publish(sharedListenerPublish(TARGET)))
    const took = Date.now() - started
    assert.equal(outcome._tag === "Failure" ? outcome.failure._tag : "", "ListenerAddressesNotReady")
    assert.ok(took >= 500 && took < 2500, `waited publishWait (${took} ms)`)
  }), { publishWait: "500 millis" }))
