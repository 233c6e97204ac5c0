import { test } from "node:test"
import assert from "node:assert/strict"
import { Effect, Layer, Logger, References } from "effect"
import { VolumeFsMemory } from "../../../../adapters/VolumeFsMemory.ts"
import { PublishedVolumesFiles } from "../../../../adapters/PublishedVolumesFiles.ts"
import { fingerprint } from "../../../../domain/listenerPlan/json.ts"
import { PublishedVolumes } from "../../../../effects/node/PublishedVolumes.ts"
import type { PublishedRecord } from "../../../../effects/node/PublishedVolumes.ts"
import { VolumeFs } from "../../../../effects/shared/VolumeFs.ts"
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
    yield* body(fs).pipe(Effect.provide(PublishedVolumesFiles.layer(STATE).pipe(Layer.provide(Layer.succeed(VolumeFs, fs.fs)))))
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

test("records are read from the state directory once, when the plugin starts: listing and getting them reads no file", () =>
  Effect.runPromise(Effect.gen(function*() {
    const memory = yield* VolumeFsMemory.make
    let reads = 0
    const counting = Layer.succeed(VolumeFs, { ...memory.fs, readFile: (path: string) => Effect.suspend(() => (reads++, memory.fs.readFile(path))) })
    const registry = PublishedVolumesFiles.layer(STATE).pipe(Layer.provide(counting))
    // A previous process of the plugin published two volumes and forgot one of three.
    yield* Effect.gen(function*() {
      const previous = yield* PublishedVolumes
      for (const target of ["/pods/a/mount", "/pods/b/mount", "/pods/c/mount"]) yield* previous.record(recordOf(target))
      yield* previous.forget("/pods/c/mount")
    }).pipe(Effect.provide(registry))
    reads = 0
    // The plugin restarts: its registry reads the two files left, once.
    yield* Effect.gen(function*() {
      const restarted = yield* PublishedVolumes
      assert.equal(reads, 2, "each record file read once at start")
      for (let pass = 0; pass < 3; pass++) {
        const all = yield* restarted.all
        assert.deepEqual([...all].sort((x, y) => x.request.targetPath.localeCompare(y.request.targetPath)), [recordOf("/pods/a/mount"), recordOf("/pods/b/mount")])
      }
      assert.deepEqual(yield* restarted.get("/pods/b/mount"), recordOf("/pods/b/mount"))
      assert.equal(yield* restarted.get("/pods/c/mount"), undefined)
      yield* restarted.record(recordOf("/pods/d/mount"))
      assert.equal((yield* restarted.all).length, 3)
      assert.equal(reads, 2, "a refresh pass lists the records without reading a file")
    }).pipe(Effect.provide(registry))
    assert.deepEqual((yield* memory.fs.readDir(STATE)).filter((name) => name.endsWith(".json")).sort(),
      ["/pods/a/mount", "/pods/b/mount", "/pods/d/mount"].map((target) => `${fingerprint(target)}.json`).sort(), "the files stay the record for the next start")
  })))

test("a record file that cannot be written still leaves the volume refreshed while the plugin runs, after a warning", () =>
  Effect.runPromise(Effect.gen(function*() {
    const memory = yield* VolumeFsMemory.make
    const failing = Layer.succeed(VolumeFs, { ...memory.fs, rename: (from: string, to: string) => to.endsWith(".json") ? memory.fs.rename(from, "/no/such/dir/x") : memory.fs.rename(from, to) })
    const logged: Array<string> = []
    const capture = Logger.make(({ message }) => void logged.push(String(message)))
    yield* Effect.gen(function*() {
      const registry = yield* PublishedVolumes
      yield* registry.record(recordOf("/pods/a/mount"))
      assert.deepEqual(yield* registry.all, [recordOf("/pods/a/mount")])
    }).pipe(Effect.provide(PublishedVolumesFiles.layer(STATE).pipe(Layer.provide(failing))), Effect.provideService(References.CurrentLoggers, new Set([capture])))
    assert.ok(logged.some((line) => line.includes("published-volume state: record /pods/a/mount")), logged.join("\n"))
  })))

test("a record file that is not a record (cut off, or another program's JSON) is reported with what is wrong and removed; the others load", () =>
  Effect.runPromise(Effect.gen(function*() {
    const memory = yield* VolumeFsMemory.make
    yield* memory.fs.mkdir(STATE, { recursive: true })
    yield* memory.fs.writeFile(`${STATE}/${fingerprint("/pods/a/mount")}.json`, JSON.stringify(recordOf("/pods/a/mount")))
    yield* memory.fs.writeFile(`${STATE}/cut.json`, JSON.stringify(recordOf("/pods/b/mount")).slice(0, 40))
    yield* memory.fs.writeFile(`${STATE}/foreign.json`, JSON.stringify({ request: { volumeId: "pvc-3", targetPath: "/pods/c/mount" }, listener: "shared" }))
    const logged: Array<string> = []
    const capture = Logger.make(({ message }) => void logged.push(String(message)))
    const all = yield* Effect.gen(function*() {
      return yield* (yield* PublishedVolumes).all
    }).pipe(
      Effect.provide(PublishedVolumesFiles.layer(STATE).pipe(Layer.provide(Layer.succeed(VolumeFs, memory.fs)))),
      Effect.provideService(References.CurrentLoggers, new Set([capture]))
    )
    assert.deepEqual(all, [recordOf("/pods/a/mount")])
    const cut = logged.find((line) => line.includes(`${STATE}/cut.json is not a published-volume record`))
    const foreign = logged.find((line) => line.includes(`${STATE}/foreign.json is not a published-volume record`))
    assert.ok(cut !== undefined && foreign !== undefined, logged.join("\n"))
    assert.match(foreign, /request\.pod|listener/, "names a field that is wrong")
    assert.deepEqual(yield* memory.fs.readDir(STATE), [`${fingerprint("/pods/a/mount")}.json`], "the broken files are removed")
  })))
