import { test } from "node:test"
import assert from "node:assert/strict"
import { spawn } from "node:child_process"
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, Layer } from "effect"
import { VolumeFsMemory } from "../../../../adapters/VolumeFsMemory.ts"
import { VolumeFsNode } from "../../../../adapters/VolumeFsNode.ts"
import { planVolumeTree, UnsafeVolumeEntry } from "../../../../domain/volumeTree.ts"
import type { VolumeAddress } from "../../../../domain/volumeTree.ts"
import { VolumeFs } from "../../../../effects/shared/VolumeFs.ts"
import { removeVolumeTree, writeVolumeTree } from "../../../../effects/node/writeVolumeTree.ts"
import { withTempDir } from "../../withTempDir.ts"

const entriesOf = (addresses: ReadonlyArray<VolumeAddress>) => {
  const plan = planVolumeTree(addresses)
  if (plan instanceof UnsafeVolumeEntry) throw plan
  return plan.entries
}
const first = entriesOf([{ address: "10.0.0.1", addressType: "IP", ports: { http: 30080 } }])
const second = entriesOf([{ address: "example.com", addressType: "Hostname", ports: { http: 443, admin: 8443 } }])

const run = <A, E>(layer: Layer.Layer<VolumeFs>, effect: Effect.Effect<A, E, VolumeFs>) =>
  Effect.runPromise(Effect.provide(effect, layer))

const withDir = (body: (dir: string) => Promise<void>) => withTempDir("volume-tree-", body)

// On the real filesystem: rename semantics, symlinks and leftovers as the node plugin sees them.
test("on disk: created, unchanged, replaced, removed; readers see the upstream layout; no leftovers", () =>
  withDir(async (parent) => {
    const target = join(parent, "mount")
    assert.equal(await run(VolumeFsNode.layer, writeVolumeTree(target, first)), "created")
    assert.equal(readFileSync(join(target, "addresses", "10.0.0.1", "ports", "http"), "utf8"), "30080")
    assert.equal(readFileSync(join(target, "default-address", "address"), "utf8"), "10.0.0.1")
    assert.deepEqual(readdirSync(join(target, "default-address", "ports")), ["http"])
    assert.equal(readlinkSync(join(target, "default-address")), "..data/default-address")
    assert.equal(readlinkSync(join(target, "..data", "default-address")), "addresses/10.0.0.1")
    assert.equal(await run(VolumeFsNode.layer, writeVolumeTree(target, first)), "unchanged")
    assert.equal(await run(VolumeFsNode.layer, writeVolumeTree(target, second)), "replaced")
    assert.deepEqual(readdirSync(join(target, "addresses")), ["example.com"])
    assert.equal(readFileSync(join(target, "default-address", "ports", "admin"), "utf8"), "8443")
    // The live version and the one it replaced, the link, the two reader-facing links; nothing beside the target.
    assert.deepEqual(readdirSync(target).sort(), ["..data", "..v1", "..v2", "addresses", "default-address"])
    assert.equal(await run(VolumeFsNode.layer, writeVolumeTree(target, first)), "replaced")
    assert.deepEqual(readdirSync(target).sort(), ["..data", "..v2", "..v3", "addresses", "default-address"])
    assert.deepEqual(readdirSync(parent), ["mount"])
    await run(VolumeFsNode.layer, removeVolumeTree(target))
    assert.deepEqual(readdirSync(parent), [])
  }))

test("on disk: the target directory is never replaced, so a container's bind mount sees the new tree", () =>
  withDir(async (parent) => {
    const target = join(parent, "mount")
    await run(VolumeFsNode.layer, writeVolumeTree(target, first))
    const inode = statSync(target).ino
    // A handle opened before the swap stands for what a running container has mounted.
    const fd = openSync(target, "r")
    try {
      assert.equal(await run(VolumeFsNode.layer, writeVolumeTree(target, second)), "replaced")
      assert.equal(statSync(target).ino, inode)
      assert.equal(readFileSync(`/proc/self/fd/${fd}/default-address/address`, "utf8"), "example.com")
      assert.deepEqual(readdirSync(`/proc/self/fd/${fd}/addresses`), ["example.com"])
    } finally {
      closeSync(fd)
    }
  }))

test("on disk: a tree of the first layout (plain directory, no versions) is converted in place", () =>
  withDir(async (parent) => {
    const target = join(parent, "mount")
    mkdirSync(join(target, "addresses", "10.0.0.1", "ports"), { recursive: true })
    writeFileSync(join(target, "addresses", "10.0.0.1", "address"), "10.0.0.1")
    writeFileSync(join(target, "addresses", "10.0.0.1", "ports", "http"), "30080")
    symlinkSync("addresses/10.0.0.1", join(target, "default-address"))
    mkdirSync(join(parent, ".mount.publishing"))
    const inode = statSync(target).ino
    assert.equal(await run(VolumeFsNode.layer, writeVolumeTree(target, first)), "replaced")
    assert.equal(statSync(target).ino, inode)
    assert.equal(readFileSync(join(target, "default-address", "ports", "http"), "utf8"), "30080")
    assert.deepEqual(readdirSync(target).sort(), ["..data", "..v1", "addresses", "default-address"])
    assert.deepEqual(readdirSync(parent), ["mount"])
  }))

test("on disk: leftovers of a crash (half-written version, stale ..data_tmp) are removed by the next publish", () =>
  withDir(async (parent) => {
    const target = join(parent, "mount")
    await run(VolumeFsNode.layer, writeVolumeTree(target, first))
    mkdirSync(join(target, "..v2", "addresses"), { recursive: true })
    symlinkSync("..v2", join(target, "..data_tmp"))
    assert.equal(await run(VolumeFsNode.layer, writeVolumeTree(target, first)), "unchanged")
    assert.deepEqual(readdirSync(target).sort(), ["..data", "..v1", "addresses", "default-address"])
    assert.equal(await run(VolumeFsNode.layer, writeVolumeTree(target, second)), "replaced")
    assert.deepEqual(readdirSync(target).sort(), ["..data", "..v1", "..v2", "addresses", "default-address"])
  }))

test("on disk: a crash's leftovers in the way of the next version (its directory, ..data_tmp) are replaced, not reused", () =>
  withDir(async (parent) => {
    const target = join(parent, "mount")
    await run(VolumeFsNode.layer, writeVolumeTree(target, first))
    // Half of version 2 and its link, as a write killed before the swap leaves them.
    mkdirSync(join(target, "..v2", "addresses", "10.9.9.9"), { recursive: true })
    writeFileSync(join(target, "..v2", "addresses", "10.9.9.9", "address"), "10.9.9.9")
    symlinkSync("..v2", join(target, "..data_tmp"))
    // Known to change (lastWritten): nothing is read or removed before version 2 is made.
    assert.equal(await run(VolumeFsNode.layer, writeVolumeTree(target, second, first)), "replaced")
    assert.deepEqual(readdirSync(join(target, "addresses")), ["example.com"])
    assert.equal(readFileSync(join(target, "default-address", "ports", "admin"), "utf8"), "8443")
    assert.equal(readlinkSync(join(target, "..data")), "..v2")
    assert.deepEqual(readdirSync(target).sort(), ["..data", "..v1", "..v2", "addresses", "default-address"])
  }))

/** VolumeFs on disk that counts the calls of each method. */
const countingFs = () => {
  const calls = new Map<string, number>()
  const service = Object.fromEntries(Object.entries(VolumeFsNode.service).map(([name, method]) => [
    name,
    (...args: Array<never>) => {
      calls.set(name, (calls.get(name) ?? 0) + 1)
      return (method as (...a: Array<never>) => unknown)(...args)
    }
  ])) as unknown as typeof VolumeFsNode.service
  return { calls, layer: Layer.succeed(VolumeFs, VolumeFs.of(service)) }
}

test("on disk: with the tree it last wrote (lastWritten), a changed tree is swapped in without reading the live one back; the same tree is still compared and left alone", () =>
  withDir(async (parent) => {
    const target = join(parent, "mount")
    await run(VolumeFsNode.layer, writeVolumeTree(target, first))
    const changed = countingFs()
    assert.equal(await run(changed.layer, writeVolumeTree(target, second, first)), "replaced")
    assert.equal(changed.calls.get("readFile") ?? 0, 0)
    // No removal either: no leftover was in the way, and the siblings of the first layout
    // are looked for only by a write that finds no live version.
    assert.equal(changed.calls.get("removeTree") ?? 0, 0)
    assert.equal(readFileSync(join(target, "default-address", "address"), "utf8"), "example.com")
    // lastWritten the same as the new tree: the live version is read and found identical.
    const same = countingFs()
    assert.equal(await run(same.layer, writeVolumeTree(target, second, second)), "unchanged")
    assert.ok((same.calls.get("readFile") ?? 0) > 0)
    assert.equal(same.calls.get("writeFile") ?? 0, 0)
    // Without lastWritten the write reads the live version first, as before.
    const unknown = countingFs()
    assert.equal(await run(unknown.layer, writeVolumeTree(target, first)), "replaced")
    assert.ok((unknown.calls.get("readFile") ?? 0) > 0)
    assert.deepEqual(readdirSync(target).sort(), ["..data", "..v2", "..v3", "addresses", "default-address"])
  }))

// A reader in another process, polling while the tree is swapped back and forth: every
// address directory it lists has its address file and every port file of that address.
const readerScript = `
const fs = require("node:fs")
const [target, stopFile] = [process.argv[1], process.argv[2]]
let reads = 0, partial = 0
process.stdout.write("ready")
while (!fs.existsSync(stopFile)) {
  try {
    const addresses = fs.readdirSync(target + "/addresses")
    for (const a of addresses) {
      const address = fs.readFileSync(target + "/addresses/" + a + "/address", "utf8")
      const ports = fs.readdirSync(target + "/addresses/" + a + "/ports").sort().join(",")
      const expected = a === "10.0.0.1" ? "http" : "admin,http"
      if (address !== a || ports !== expected) partial++
    }
    reads++
  } catch (e) {
    // A version removed between two reads of one walk is not a partial tree; count nothing.
    if (e.code !== "ENOENT") partial++
  }
}
process.stdout.write(JSON.stringify({ reads, partial }))
`

test("on disk: a reader polling during many swaps never sees a partial tree", () =>
  withDir(async (parent) => {
    const target = join(parent, "mount")
    const stopFile = join(parent, "stop")
    await run(VolumeFsNode.layer, writeVolumeTree(target, first))
    // Under Deno, process.execPath is deno; the reader is a plain Node script.
    const node = "Deno" in globalThis ? "node" : process.execPath
    const reader = spawn(node, ["-e", readerScript, target, stopFile], { stdio: ["ignore", "pipe", "inherit"] })
    let output = ""
    reader.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")))
    const done = new Promise<void>((resolve) => reader.on("close", () => resolve()))
    // The swaps start once the reader polls: a loaded machine may take a second to start it.
    while (!output.startsWith("ready") && reader.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 10))
    // At least 1.5 s and 50 swaps, however slow a loaded machine makes each swap (at most 30 s).
    const started = Date.now()
    let swaps = 0
    while ((Date.now() - started < 1500 || swaps < 50) && Date.now() - started < 30_000) {
      await run(VolumeFsNode.layer, writeVolumeTree(target, swaps % 2 === 0 ? second : first))
      swaps++
      // Addresses change seconds apart in a cluster; a few milliseconds still give many swaps.
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    writeFileSync(stopFile, "")
    await done
    const { reads, partial } = JSON.parse(output.slice("ready".length)) as { reads: number; partial: number }
    assert.ok(swaps > 10, `swapped ${swaps} times`)
    assert.ok(reads > 10, `reader walked the tree ${reads} times`)
    assert.equal(partial, 0)
  }))

test("in memory: the same sequence; a missing parent is the CO's mistake (TargetParentMissing) and creates nothing", () =>
  run(
    VolumeFsMemory.layer,
    Effect.gen(function*() {
      const missing = yield* Effect.flip(writeVolumeTree("/nowhere/mount", first))
      assert.equal(missing._tag, "TargetParentMissing")
      assert.match(missing.message, /^target_path: the directory "\/nowhere" that holds "\/nowhere\/mount" does not exist/u)
      const fs = yield* VolumeFs
      assert.equal(yield* fs.entryType("/nowhere"), undefined)
      yield* fs.mkdir("/p")
      assert.equal(yield* writeVolumeTree("/p/mount", first), "created")
      assert.equal(yield* writeVolumeTree("/p/mount", first), "unchanged")
      assert.equal(yield* writeVolumeTree("/p/mount", second), "replaced")
      assert.deepEqual([...(yield* fs.readDir("/p/mount/addresses"))], ["example.com"])
      assert.equal(yield* fs.readFile("/p/mount/default-address/ports/admin"), "8443")
      assert.deepEqual([...(yield* fs.readDir("/p/mount"))].sort(), ["..data", "..v1", "..v2", "addresses", "default-address"])
      yield* removeVolumeTree("/p/mount")
      assert.deepEqual([...(yield* fs.readDir("/p"))], [])
    })
  ))
