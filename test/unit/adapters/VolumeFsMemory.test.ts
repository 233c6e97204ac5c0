/**
 * The in-memory volume filesystem against the shared VolumeFs cases, plus its dump helper.
 */
import assert from "node:assert/strict"
import { test } from "node:test"
import { Effect } from "effect"
import { VolumeFsMemory } from "../../../adapters/VolumeFsMemory.ts"
import { VolumeFs } from "../../../effects/shared/VolumeFs.ts"
import { volumeFsCases } from "./volumeFsCases.ts"

volumeFsCases("memory", async () => {
  const memory = await Effect.runPromise(VolumeFsMemory.make)
  await Effect.runPromise(memory.fs.mkdir("/volumes/case", { recursive: true }))
  return { fs: memory.fs, root: "/volumes/case", cleanup: async () => {} }
})

test("dump renders directories, files and links below a path", async () => {
  const program = Effect.gen(function*() {
    const fs = yield* VolumeFs
    yield* fs.mkdir("/t/addresses/a/ports", { recursive: true })
    yield* fs.writeFile("/t/addresses/a/address", "a")
    yield* fs.writeFile("/t/addresses/a/ports/http", "80")
    yield* fs.symlink("addresses/a", "/t/default-address")
    return (yield* VolumeFsMemory).dump("/t")
  })
  const tree = await Effect.runPromise(program.pipe(Effect.provide(VolumeFsMemory.layer)))
  assert.deepEqual(tree, {
    "addresses/": "dir",
    "addresses/a/": "dir",
    "addresses/a/address": "a",
    "addresses/a/ports/": "dir",
    "addresses/a/ports/http": "80",
    "default-address": "-> addresses/a"
  })
})

test("errors carry the operation, the path and an errno-style message", async () => {
  const memory = await Effect.runPromise(VolumeFsMemory.make)
  const error = await Effect.runPromise(Effect.flip(memory.fs.readFile("/nope")))
  assert.equal(error.reason, "NotFound")
  assert.equal(error.path, "/nope")
  assert.match(error.message, /^ENOENT: no such file or directory/)
})
