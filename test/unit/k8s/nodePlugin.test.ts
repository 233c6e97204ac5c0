/**
 * The node role's own plugin (k8s/roles/nodeRole.ts `nodePluginLayer`), composed from
 * in-memory adapters only — the API server, the volume filesystem, the published-volume
 * records and a silent Event recorder — as the in-memory demo composes it: a publish, an
 * address change the live refresh carries into the volume, and an unpublish all run
 * through the program `run node` ships (its locks, records, caches and refresh loop).
 */
import { test } from "node:test"
import assert from "node:assert/strict"
import { Effect, Layer } from "effect"
import { VolumeBinderRunning } from "../effects/shared/volumeBinderLayer.ts"
import { KubeApiMemory } from "../../../adapters/KubeApiMemory.ts"
import { VolumeFsMemory } from "../../../adapters/VolumeFsMemory.ts"
import { VolumePublisher } from "../../../csi/programs.ts"
import { Kinds } from "../../../domain/kinds.ts"
import { publishedOnNodeLabel } from "../../../domain/publishedOnNode.ts"
import { PublishedVolumes } from "../../../effects/node/PublishedVolumes.ts"
import { TargetLocks } from "../../../effects/node/TargetLocks.ts"
import { EventRecorder } from "../../../effects/shared/EventRecorder.ts"
import { KubeApi } from "../../../effects/shared/KubeApi.ts"
import { VolumeFs } from "../../../effects/shared/VolumeFs.ts"
import { nodePluginLayer } from "../../../k8s/roles/nodeRole.ts"
import { CLASS, createListener, createPod, createVolume, loadBalancerStatus, NAMESPACE, seedCluster, setListenerStatus, sharedListenerPublish } from "../effects/shared/volumeFixtures.ts"
import { snapshotTree } from "../effects/shared/volumeTestLayer.ts"

const NODE = "node-2"
const ROOT = "/var/lib/kubelet/pods/p2/volumes/kubernetes.io~csi/pvc-2"
const TARGET = `${ROOT}/mount`

/** Polls `check` until it holds (the refresh runs on its own fiber, driven by the node's watch). */
const until = <E, R>(what: string, check: Effect.Effect<boolean, E, R>) =>
  Effect.gen(function*() {
    for (let attempt = 0; attempt < 200; attempt++) {
      if (yield* check) return
      yield* Effect.sleep("25 millis")
    }
    return assert.fail(`timed out waiting for ${what}`)
  })

const inMemoryAdapters = Layer.mergeAll(KubeApiMemory.layer(), VolumeFsMemory.layer, PublishedVolumes.layerMemory, EventRecorder.layerNoop)

test("the node plugin over in-memory adapters: publish, an address change refreshed into the volume, unpublish", () =>
  Effect.runPromise(Effect.gen(function*() {
    const fs = yield* VolumeFs
    const api = yield* KubeApi
    const publisher = yield* VolumePublisher
    const records = yield* PublishedVolumes
    const locks = yield* TargetLocks
    yield* seedCluster
    yield* fs.mkdir(ROOT, { recursive: true })
    yield* createListener("shared", { className: CLASS.loadBalancer, ports: [{ name: "http", port: 8080 }] })
    yield* createVolume({ pvcName: "shared-web-1", volumeId: "pvc-2", annotations: { "listeners.stackable.tech/listener-name": "shared" } })
    yield* createPod({ name: "web-1", nodeName: NODE, volumes: [{ name: "listener", persistentVolumeClaim: { claimName: "shared-web-1" } }] })
    yield* setListenerStatus("shared", loadBalancerStatus("192.0.2.1"))

    // Publish: the tree, the record the refresh works from, the node's label on the Listener.
    yield* publisher.publish(sharedListenerPublish(TARGET))
    assert.equal((yield* snapshotTree(TARGET))["default-address"], "-> addresses/192.0.2.1")
    assert.deepEqual((yield* records.get(TARGET))?.addresses.map((a) => a.address), ["192.0.2.1"])
    const listener = yield* api.get(Kinds.Listener, { namespace: NAMESPACE, name: "shared" })
    assert.equal(listener.metadata.labels?.[publishedOnNodeLabel(NODE)], "true")

    // The Listener's address changes: the plugin's watch-driven refresh rewrites the volume and its record.
    yield* setListenerStatus("shared", loadBalancerStatus("192.0.2.9"))
    yield* until("the new address in the volume", Effect.map(snapshotTree(TARGET), (tree) => tree["default-address"] === "-> addresses/192.0.2.9"))
    yield* until("the new address in the record", Effect.map(records.get(TARGET), (record) => record?.addresses[0]?.address === "192.0.2.9"))

    // Unpublish: the target, its record and the node's label go; no lock is left behind.
    yield* publisher.unpublish({ volumeId: "pvc-2", targetPath: TARGET })
    assert.equal(yield* fs.entryType(TARGET), undefined)
    assert.equal(yield* records.get(TARGET), undefined)
    assert.equal(yield* locks.inUse, 0)
    const unlabelled = yield* api.get(Kinds.Listener, { namespace: NAMESPACE, name: "shared" })
    assert.equal(unlabelled.metadata.labels?.[publishedOnNodeLabel(NODE)], undefined)
  }).pipe(
    Effect.provide(Layer.mergeAll(nodePluginLayer({ nodeName: NODE, addressRefreshInterval: "1 hour" }), VolumeBinderRunning).pipe(Layer.provideMerge(inMemoryAdapters))),
    Effect.scoped
  )))
