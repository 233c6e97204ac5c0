/**
 * Work on one CSI target is serialised (effects/node/TargetLocks.ts): the kubelet's
 * NodePublishVolume / NodeUnpublishVolume and the live address refresh, run concurrently
 * on one target, never leave a target (or its record) behind once the unpublish has
 * completed, and never meet inside one tree. Run on the in-memory and the node:fs volume
 * filesystems, each wrapped so that concurrent calls interleave operation by operation.
 */
import { describe, test } from "node:test"
import assert from "node:assert/strict"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Deferred, Effect, Fiber, Layer, Ref, References } from "effect"
import { VolumeBinderRunning } from "../shared/volumeBinderLayer.ts"
import { KubeApiMemory } from "../../../../adapters/KubeApiMemory.ts"
import { VolumeFsMemory } from "../../../../adapters/VolumeFsMemory.ts"
import { PublishedVolumesFiles } from "../../../../adapters/PublishedVolumesFiles.ts"
import { VolumeFsNode } from "../../../../adapters/VolumeFsNode.ts"
import { VolumePublisher } from "../../../../csi/programs.ts"
import type { PublishVolumeInput } from "../../../../csi/programs.ts"
import { VolumePublisherLive } from "../../../../csi/volumePrograms.ts"
import { EventRecorder } from "../../../../effects/shared/EventRecorder.ts"
import type { KubeApi } from "../../../../effects/shared/KubeApi.ts"
import { PublishedVolumes } from "../../../../effects/node/PublishedVolumes.ts"
import { refreshPublishedVolumes } from "../../../../effects/node/addressRefresh.ts"
import { TargetLocks } from "../../../../effects/node/TargetLocks.ts"
import { VolumeFs } from "../../../../effects/shared/VolumeFs.ts"
import { interleavingVolumeFs } from "./interleavingVolumeFs.ts"
import type { InterleavingVolumeFs } from "./interleavingVolumeFs.ts"
import { CLASS, createListener, createPod, createVolume, loadBalancerStatus, seedCluster, setListenerStatus, sharedListenerPublish } from "../shared/volumeFixtures.ts"
import { snapshotTree } from "../shared/volumeTestLayer.ts"

type VolumeFsService = (typeof VolumeFs)["Service"]

interface Backend {
  readonly name: string
  readonly make: () => Promise<{ readonly fs: VolumeFsService; readonly root: string; readonly cleanup: () => Promise<void> }>
}

const backends: ReadonlyArray<Backend> = [
  {
    name: "in-memory",
    make: async () => ({ fs: (await Effect.runPromise(VolumeFsMemory.make)).fs, root: "/node", cleanup: async () => {} })
  },
  {
    name: "node:fs",
    make: async () => {
      const root = await mkdtemp(join(tmpdir(), "target-locks-"))
      return { fs: VolumeFsNode.service, root, cleanup: () => rm(root, { recursive: true, force: true }) }
    }
  }
]

type Services = KubeApi | KubeApiMemory | VolumeFs | EventRecorder | PublishedVolumes | TargetLocks | VolumePublisher

interface Node {
  readonly target: string
  readonly request: PublishVolumeInput
  readonly interleaving: InterleavingVolumeFs
}

/** The node plugin's layers as the node role composes them (one TargetLocks shared by the CSI calls and the refresh). */
const onNode = (backend: Backend, seed: number, body: (node: Node) => Effect.Effect<void, unknown, Services>) => async () => {
  const base = await backend.make()
  try {
    const interleaving = interleavingVolumeFs(base.fs, seed)
    const infrastructure = Layer.mergeAll(KubeApiMemory.layer(), Layer.succeed(VolumeFs, interleaving.fs), EventRecorder.layerNoop)
    const node = Layer.mergeAll(PublishedVolumesFiles.layer(`${base.root}/state`), TargetLocks.layer, VolumeBinderRunning).pipe(Layer.provideMerge(infrastructure))
    const target = `${base.root}/pods/p2/volumes/kubernetes.io~csi/pvc-2/mount`
    const request = sharedListenerPublish(target)
    await Effect.runPromise(body({ target, request, interleaving }).pipe(
      Effect.provide(VolumePublisherLive.pipe(Layer.provideMerge(node))),
      // The refresh logs every re-publish at Info; failures (Warning) still show.
      Effect.provideService(References.MinimumLogLevel, "Warn")
    ))
  } finally {
    await base.cleanup()
  }
}

const lb = loadBalancerStatus

/** What a reader of a volume published with the single load-balancer address `ip` sees. */
const treeFor = (ip: string): Record<string, string> => ({
  "addresses/": "dir",
  [`addresses/${ip}/`]: "dir",
  [`addresses/${ip}/address`]: ip,
  [`addresses/${ip}/ports/`]: "dir",
  [`addresses/${ip}/ports/http`]: "443",
  "default-address": `-> addresses/${ip}`
})

/** A Pod web-1 on node-2 with a volume of the LoadBalancer Listener `shared`, published at `ip`. */
const published = (node: Node, ip: string) =>
  Effect.gen(function*() {
    yield* seedCluster
    const fs = yield* VolumeFs
    yield* fs.mkdir(node.target.slice(0, node.target.lastIndexOf("/")), { recursive: true })
    yield* createListener("shared", { className: CLASS.loadBalancer, ports: [{ name: "http", port: 8080 }] })
    yield* createVolume({ pvcName: "shared-web-1", volumeId: "pvc-2", annotations: { "listeners.stackable.tech/listener-name": "shared" } })
    yield* createPod({ name: "web-1", nodeName: "node-2", volumes: [{ name: "listener", persistentVolumeClaim: { claimName: "shared-web-1" } }] })
    yield* setListenerStatus("shared", lb(ip))
    const publisher = yield* VolumePublisher
    yield* publisher.publish(node.request)
  })

/** After NodeUnpublishVolume: no target, no record, no lock entry. */
const assertUnpublished = (node: Node, context: string) =>
  Effect.gen(function*() {
    const fs = yield* VolumeFs
    assert.equal(yield* fs.entryType(node.target), undefined, `${context}: the target was re-created after its unpublish`)
    const parent = node.target.slice(0, node.target.lastIndexOf("/"))
    assert.deepEqual(yield* fs.readDir(parent), [], `${context}: nothing left beside the target`)
    assert.deepEqual(yield* (yield* PublishedVolumes).all, [], `${context}: the record was re-created after the unpublish`)
    assert.equal(yield* (yield* TargetLocks).inUse, 0, `${context}: released locks are removed`)
  })

/** A published target holds exactly the tree of `ip`: the live version, at most the one it replaced, the two links. */
const assertWhole = (node: Node, ip: string, context: string) =>
  Effect.gen(function*() {
    const fs = yield* VolumeFs
    assert.deepEqual(yield* snapshotTree(node.target), treeFor(ip), `${context}: the tree`)
    const names = yield* fs.readDir(node.target)
    const versions = names.filter((name) => /^\.\.v[0-9]+$/u.test(name))
    assert.deepEqual(names.filter((name) => !versions.includes(name)), ["..data", "addresses", "default-address"], `${context}: leftovers`)
    assert.ok(versions.length >= 1 && versions.length <= 2, `${context}: versions ${versions.join(", ")}`)
    const parent = node.target.slice(0, node.target.lastIndexOf("/"))
    assert.deepEqual(yield* fs.readDir(parent), ["mount"], `${context}: no staging directory beside the target`)
    const record = yield* (yield* PublishedVolumes).get(node.target)
    assert.deepEqual(record?.addresses, lb(ip).ingressAddresses, `${context}: the record`)
  })

for (const backend of backends) {
  describe(`one target at a time (${backend.name})`, () => {
    test(
      "a refresh that overlaps the kubelet's unpublish finishes first; the unpublish then removes the target for good",
      onNode(backend, 1, (node) =>
        Effect.gen(function*() {
          yield* published(node, "192.0.2.1")
          yield* setListenerStatus("shared", lb("192.0.2.9"))
          // Hold the refresh where it is about to write the tree (the first look at the target).
          const point = yield* node.interleaving.pauseAt("entryType", node.target)
          const refresh = yield* Effect.forkChild(refreshPublishedVolumes("node-2"))
          yield* Deferred.await(point.reached)
          const publisher = yield* VolumePublisher
          const unpublish = yield* Effect.forkChild(publisher.unpublish({ volumeId: "pvc-2", targetPath: node.target }))
          // Unserialised, the unpublish would remove the target meanwhile and the refresh re-create it.
          yield* Effect.sleep("30 millis")
          const unpublishedEarly = unpublish.pollUnsafe() !== undefined
          yield* Deferred.succeed(point.release, undefined)
          assert.deepEqual(yield* Fiber.join(refresh), { checked: 1, republished: 1, forgotten: 0 })
          yield* Fiber.join(unpublish)
          yield* assertUnpublished(node, "after the unpublish")
          assert.equal(unpublishedEarly, false, "the unpublish waited for the refresh holding the target")
        }))
    )

    test(
      "a refresh pass that listed the volume before the kubelet unpublished it skips the target",
      onNode(backend, 2, (node) =>
        Effect.gen(function*() {
          yield* published(node, "192.0.2.1")
          yield* setListenerStatus("shared", lb("192.0.2.9"))
          const registry = yield* PublishedVolumes
          const listedBeforeUnpublish = yield* registry.all
          const publisher = yield* VolumePublisher
          yield* publisher.unpublish({ volumeId: "pvc-2", targetPath: node.target })
          // The pass goes on with the list it read before the unpublish.
          const outcome = yield* refreshPublishedVolumes("node-2").pipe(
            Effect.provideService(PublishedVolumes, PublishedVolumes.of({ ...registry, all: Effect.succeed(listedBeforeUnpublish) }))
          )
          yield* assertUnpublished(node, "after the pass")
          assert.deepEqual(outcome, { checked: 1, republished: 0, forgotten: 0 })
        }))
    )

    for (const seed of [11, 12, 13]) {
      test(
        `publish, refresh and unpublish racing on one target, round after round (seed ${seed})`,
        onNode(backend, seed, (node) =>
          Effect.gen(function*() {
            const publisher = yield* VolumePublisher
            const refresh = refreshPublishedVolumes("node-2")
            let previous = "198.51.100.1"
            yield* published(node, previous)
            for (let round = 0; round < 6; round++) {
              const context = `seed ${seed}, round ${round}`
              // The address changes; the kubelet re-publishes (a retry) while two refresh passes run,
              // and a reader keeps reading through the volume's links.
              const next = `192.0.2.${round + 10}`
              yield* setListenerStatus("shared", lb(next))
              const writing = yield* Ref.make(true)
              const reads = yield* Effect.forkChild(readWhile(writing, `${node.target}/default-address/address`))
              const [publish] = yield* Effect.all([Effect.result(publisher.publish(node.request)), refresh, refresh], { concurrency: "unbounded" })
              yield* Ref.set(writing, false)
              assert.equal(publish._tag, "Success", `${context}: the publish failed: ${publish._tag === "Failure" ? publish.failure.message : ""}`)
              for (const read of yield* Fiber.join(reads)) {
                assert.ok(read === previous || read === next, `${context}: a reader saw ${read}`)
              }
              yield* assertWhole(node, next, context)

              // The address changes again; the kubelet unpublishes while a refresh pass runs.
              previous = `198.51.100.${round + 10}`
              yield* setListenerStatus("shared", lb(previous))
              yield* Effect.all([refresh, publisher.unpublish({ volumeId: "pvc-2", targetPath: node.target }), refresh], { concurrency: "unbounded" })
              yield* assertUnpublished(node, context)

              // The next Pod start publishes the target afresh.
              yield* publisher.publish(node.request)
            }
          }))
      )
    }
  })
}

/** Read `path` until `going` turns false: the address each read saw, or the error it met. */
const readWhile = (going: Ref.Ref<boolean>, path: string) =>
  Effect.gen(function*() {
    const fs = yield* VolumeFs
    const seen: Array<string> = []
    while (yield* Ref.get(going)) {
      seen.push(yield* fs.readFile(path).pipe(Effect.catch((error) => Effect.succeed(`${error.reason} (${error.message})`))))
    }
    return seen
  })
