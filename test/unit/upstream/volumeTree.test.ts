import { test } from "node:test"
import assert from "node:assert/strict"
import { lstatSync, mkdirSync, readlinkSync, symlinkSync, writeFileSync, chmodSync } from "node:fs"
import { join } from "node:path"
import { readVolumeTree, writeVolumeTree } from "../../upstream/volumeTree.ts"
import { withTempDir } from "../withTempDir.ts"

test("a plain-directory listener tree reads as data and is written back with the same modes, contents and links", () =>
  withTempDir("volume-tree-", async (dir) => {
    const source = join(dir, "source")
    mkdirSync(join(source, "addresses", "10.0.0.1", "ports"), { recursive: true })
    writeFileSync(join(source, "addresses", "10.0.0.1", "address"), "10.0.0.1")
    writeFileSync(join(source, "addresses", "10.0.0.1", "ports", "http"), "30080")
    chmodSync(join(source, "addresses", "10.0.0.1", "ports", "http"), 0o640)
    symlinkSync("addresses/10.0.0.1", join(source, "default-address"))
    const tree = readVolumeTree(source)
    assert.deepEqual(tree.map((e) => `${e.type} ${e.path}`), [
      "dir .",
      "dir addresses",
      "dir addresses/10.0.0.1",
      "file addresses/10.0.0.1/address",
      "dir addresses/10.0.0.1/ports",
      "file addresses/10.0.0.1/ports/http",
      "symlink default-address"
    ])
    assert.deepEqual(tree.find((e) => e.path === "addresses/10.0.0.1/ports/http"), { path: "addresses/10.0.0.1/ports/http", type: "file", mode: "0640", content: "30080" })
    assert.deepEqual(tree.find((e) => e.path === "default-address"), { path: "default-address", type: "symlink", target: "addresses/10.0.0.1" })

    const copy = join(dir, "copy")
    mkdirSync(copy)
    writeVolumeTree(copy, tree)
    assert.deepEqual(readVolumeTree(copy), tree)
    assert.equal(lstatSync(join(copy, "addresses", "10.0.0.1", "ports", "http")).mode & 0o777, 0o640)
    assert.equal(readlinkSync(join(copy, "default-address")), "addresses/10.0.0.1")
  }))

test("a special file in a volume tree is refused by name", () =>
  withTempDir("volume-tree-", async (dir) => {
    const { createServer } = await import("node:net")
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(join(dir, "sock"), resolve))
    try {
      assert.throws(() => readVolumeTree(dir), /sock: neither a directory, a file nor a symbolic link/)
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  }))
