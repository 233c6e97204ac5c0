import { test } from "node:test"
import assert from "node:assert/strict"
import { Deferred, Effect, Fiber, Layer } from "effect"
import { VolumeFsMemory } from "../../../adapters/VolumeFsMemory.ts"
import { fingerprint } from "../../../domain/listenerPlan/json.ts"
import { PublishedVolumes } from "../../../effects/publishedVolumes.ts"
import type { PublishedRecord } from "../../../effects/publishedVolumes.ts"
import { VolumeFs } from "../../../effects/VolumeFs.ts"
import { interleavingVolumeFs } from "./interleavingVolumeFs.ts"
import type { InterleavingVolumeFs } from "./interleavingVolumeFs.ts"

const STATE = "/plugin/published-volumes/node-1"

const recordOf = (targetPath: string): PublishedRecord => ({
  request: {
    volumeId: "pvc-1",
    targetPath,
    pod: { namespace: "default", name: "web-0" },
    listener: { _tag: "ListenerName", listenerName: "shared" },
    volumeContext: {}
  },
  listener: { namespace: "default", name: "shared" },
  addresses: [{ address: "192.0.2.1", addressType: "IP", ports: { http: 443 } }]
})

/** The file-backed registry over an in-memory filesystem whose operations can be paused. */
const withRegistry = (body: (fs: InterleavingVolumeFs) => Effect.Effect<void, unknown, PublishedVolumes>) =>
  Effect.runPromise(Effect.gen(function*() {
    const memory = yield* VolumeFsMemory.make
    const fs = interleavingVolumeFs(memory.fs, 1)
    yield* body(fs).pipe(Effect.provide(PublishedVolumes.layerFiles(STATE).pipe(Layer.provide(Layer.succeed(VolumeFs, fs.fs)))))
  }))

test("get reads one target's record; a forgotten target has none", () =>
  withRegistry(() =>
    Effect.gen(function*() {
      const registry = yield* PublishedVolumes
      yield* registry.record(recordOf("/pods/a/mount"))
      yield* registry.record(recordOf("/pods/b/mount"))
      assert.deepEqual(yield* registry.get("/pods/a/mount"), recordOf("/pods/a/mount"))
      yield* registry.forget("/pods/a/mount")
      assert.equal(yield* registry.get("/pods/a/mount"), undefined)
      assert.deepEqual(yield* registry.all, [recordOf("/pods/b/mount")])
    })))

test("a record forgotten while the registry is being listed is left out; the others are still listed", () =>
  withRegistry((fs) =>
    Effect.gen(function*() {
      const registry = yield* PublishedVolumes
      yield* registry.record(recordOf("/pods/a/mount"))
      yield* registry.record(recordOf("/pods/b/mount"))
      const point = yield* fs.pauseAt("readFile", `${STATE}/${fingerprint("/pods/a/mount")}.json`)
      const listing = yield* Effect.forkChild(registry.all)
      yield* Deferred.await(point.reached)
      // An unpublish beside a refresh pass: the directory was listed, the file goes before it is read.
      yield* registry.forget("/pods/a/mount")
      yield* Deferred.succeed(point.release, undefined)
      assert.deepEqual(yield* Fiber.join(listing), [recordOf("/pods/b/mount")])
    })))
