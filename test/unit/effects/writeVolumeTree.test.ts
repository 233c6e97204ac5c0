import { test } from "node:test"
import assert from "node:assert/strict"
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer } from "effect"
import { VolumeFsMemory } from "../../../adapters/VolumeFsMemory.ts"
import { VolumeFsNode } from "../../../adapters/VolumeFsNode.ts"
import { planVolumeTree, UnsafeVolumeEntry } from "../../../domain/volumeTree.ts"
import type { VolumeAddress } from "../../../domain/volumeTree.ts"
import { VolumeFs } from "../../../effects/VolumeFs.ts"
import { removeVolumeTree, writeVolumeTree } from "../../../effects/writeVolumeTree.ts"

const entriesOf = (addresses: ReadonlyArray<VolumeAddress>) => {
  const plan = planVolumeTree(addresses)
  if (plan instanceof UnsafeVolumeEntry) throw plan
  return plan.entries
}
const first = entriesOf([{ address: "10.0.0.1", addressType: "IP", ports: { http: 30080 } }])
const second = entriesOf([{ address: "example.com", addressType: "Hostname", ports: { http: 443, admin: 8443 } }])

const run = <A, E>(layer: Layer.Layer<VolumeFs>, effect: Effect.Effect<A, E, VolumeFs>) =>
  Effect.runPromise(Effect.provide(effect, layer))

// On the real filesystem: rename semantics, symlinks and leftovers as the node plugin sees them.
test("on disk: created, unchanged, replaced, removed; no leftovers next to the target", async () => {
  const parent = mkdtempSync(join(tmpdir(), "volume-tree-"))
  const target = join(parent, "mount")
  try {
    assert.equal(await run(VolumeFsNode.layer, writeVolumeTree(target, first)), "created")
    assert.equal(readFileSync(join(target, "addresses", "10.0.0.1", "ports", "http"), "utf8"), "30080")
    assert.equal(readlinkSync(join(target, "default-address")), "addresses/10.0.0.1")
    assert.equal(readFileSync(join(target, "default-address", "address"), "utf8"), "10.0.0.1")
    assert.equal(await run(VolumeFsNode.layer, writeVolumeTree(target, first)), "unchanged")
    assert.equal(await run(VolumeFsNode.layer, writeVolumeTree(target, second)), "replaced")
    assert.deepEqual(readdirSync(join(target, "addresses")), ["example.com"])
    assert.equal(readFileSync(join(target, "default-address", "ports", "admin"), "utf8"), "8443")
    assert.deepEqual(readdirSync(parent), ["mount"])
    await run(VolumeFsNode.layer, removeVolumeTree(target))
    assert.deepEqual(readdirSync(parent), [])
  } finally {
    rmSync(parent, { recursive: true, force: true })
  }
})

test("in memory: the same sequence; a missing parent fails naming the step and creates nothing", () =>
  run(
    VolumeFsMemory.layer,
    Effect.gen(function*() {
      const missing = yield* Effect.flip(writeVolumeTree("/nowhere/mount", first))
      assert.equal(missing.step, "prepare tree")
      assert.equal(missing.cause.reason, "NotFound")
      const fs = yield* VolumeFs
      assert.equal(yield* fs.entryType("/nowhere"), undefined)
      yield* fs.mkdir("/p")
      assert.equal(yield* writeVolumeTree("/p/mount", first), "created")
      assert.equal(yield* writeVolumeTree("/p/mount", first), "unchanged")
      assert.equal(yield* writeVolumeTree("/p/mount", second), "replaced")
      assert.deepEqual([...(yield* fs.readDir("/p/mount/addresses"))], ["example.com"])
      yield* removeVolumeTree("/p/mount")
      assert.deepEqual([...(yield* fs.readDir("/p"))], [])
    })
  ))
