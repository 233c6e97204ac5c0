/**
 * The behaviour every VolumeFs adapter must have, as one suite that the in-memory and the
 * node:fs adapter both run (against a temporary directory for the latter): the real
 * filesystem is the reference the memory tree is checked against.
 */
import assert from "node:assert/strict"
import { describe, test } from "node:test"
import { Effect } from "effect"
import type { VolumeFs, VolumeFsError, VolumeFsErrorReason } from "../../../effects/shared/VolumeFs.ts"

export type VolumeFsService = (typeof VolumeFs)["Service"]

export interface VolumeFsFixture {
  readonly fs: VolumeFsService
  /** An existing, empty directory the case may use. */
  readonly root: string
  readonly cleanup: () => Promise<void>
}

const run = <A>(effect: Effect.Effect<A, VolumeFsError>): Promise<A> => Effect.runPromise(effect)

const failure = async (effect: Effect.Effect<unknown, VolumeFsError>): Promise<VolumeFsError> =>
  Effect.runPromise(Effect.flip(effect))

const expectReason = async (effect: Effect.Effect<unknown, VolumeFsError>, reason: VolumeFsErrorReason) => {
  const error = await failure(effect)
  assert.equal(error.reason, reason, `expected ${reason}, got ${error.reason}: ${error.message}`)
  return error
}

export const volumeFsCases = (name: string, makeFixture: () => Promise<VolumeFsFixture>): void => {
  describe(`VolumeFs contract: ${name}`, () => {
    const withFs = (title: string, body: (fs: VolumeFsService, root: string) => Promise<void>) =>
      test(title, async () => {
        const fixture = await makeFixture()
        try {
          await body(fixture.fs, fixture.root)
        } finally {
          await fixture.cleanup()
        }
      })

    withFs("mkdir creates one level and refuses existing paths, missing parents and file parents", async (fs, root) => {
      await run(fs.mkdir(`${root}/a`))
      assert.equal(await run(fs.entryType(`${root}/a`)), "directory")
      await expectReason(fs.mkdir(`${root}/a`), "AlreadyExists")
      await expectReason(fs.mkdir(`${root}/missing/b`), "NotFound")
      await run(fs.writeFile(`${root}/file`, "x"))
      await expectReason(fs.mkdir(`${root}/file/b`), "NotADirectory")
    })

    withFs("recursive mkdir creates parents, accepts an existing directory, refuses a file", async (fs, root) => {
      await run(fs.mkdir(`${root}/a/b/c`, { recursive: true }))
      assert.equal(await run(fs.entryType(`${root}/a/b/c`)), "directory")
      await run(fs.mkdir(`${root}/a/b`, { recursive: true }))
      await run(fs.writeFile(`${root}/a/f`, "x"))
      await expectReason(fs.mkdir(`${root}/a/f`, { recursive: true }), "AlreadyExists")
      await expectReason(fs.mkdir(`${root}/a/f/g`, { recursive: true }), "NotADirectory")
    })

    withFs("writeFile creates and truncates; readFile returns exactly the contents", async (fs, root) => {
      await run(fs.writeFile(`${root}/f`, "a longer first version"))
      await run(fs.writeFile(`${root}/f`, "short"))
      assert.equal(await run(fs.readFile(`${root}/f`)), "short")
      await run(fs.writeFile(`${root}/empty`, ""))
      assert.equal(await run(fs.readFile(`${root}/empty`)), "")
      await expectReason(fs.readFile(`${root}/none`), "NotFound")
      await expectReason(fs.writeFile(`${root}/none/f`, "x"), "NotFound")
      await run(fs.mkdir(`${root}/d`))
      await expectReason(fs.writeFile(`${root}/d`, "x"), "IsADirectory")
      await expectReason(fs.readFile(`${root}/d`), "IsADirectory")
    })

    withFs("symlink stores its target verbatim and is not followed by entryType or readLink", async (fs, root) => {
      await run(fs.mkdir(`${root}/addresses/10.0.0.1`, { recursive: true }))
      await run(fs.writeFile(`${root}/addresses/10.0.0.1/address`, "10.0.0.1"))
      await run(fs.symlink("addresses/10.0.0.1", `${root}/default-address`))
      assert.equal(await run(fs.readLink(`${root}/default-address`)), "addresses/10.0.0.1")
      assert.equal(await run(fs.entryType(`${root}/default-address`)), "symlink")
      assert.equal(await run(fs.readFile(`${root}/default-address/address`)), "10.0.0.1")
      assert.deepEqual(await run(fs.readDir(`${root}/default-address`)), ["address"])
      await expectReason(fs.symlink("elsewhere", `${root}/default-address`), "AlreadyExists")
      await expectReason(fs.readLink(`${root}/addresses`), "Other")
      await expectReason(fs.readLink(`${root}/none`), "NotFound")
    })

    withFs("a dangling symlink exists as a link; reading through it is NotFound", async (fs, root) => {
      await run(fs.symlink("nowhere", `${root}/dangling`))
      assert.equal(await run(fs.entryType(`${root}/dangling`)), "symlink")
      await expectReason(fs.readFile(`${root}/dangling`), "NotFound")
      await run(fs.symlink(`${root}/absolute-target`, `${root}/absolute`))
      assert.equal(await run(fs.readLink(`${root}/absolute`)), `${root}/absolute-target`)
    })

    withFs("entryType reports file, directory, symlink, and undefined for a missing path", async (fs, root) => {
      await run(fs.mkdir(`${root}/d`))
      await run(fs.writeFile(`${root}/f`, ""))
      await run(fs.symlink("d", `${root}/l`))
      assert.equal(await run(fs.entryType(`${root}/d`)), "directory")
      assert.equal(await run(fs.entryType(`${root}/f`)), "file")
      assert.equal(await run(fs.entryType(`${root}/l`)), "symlink")
      assert.equal(await run(fs.entryType(`${root}/missing`)), undefined)
      assert.equal(await run(fs.entryType(`${root}/d/missing`)), undefined)
    })

    withFs("readDir lists names in order and refuses files and missing paths", async (fs, root) => {
      for (const n of ["b", "a", "c"]) await run(fs.writeFile(`${root}/${n}`, n))
      await run(fs.mkdir(`${root}/dir`))
      assert.deepEqual(await run(fs.readDir(root)), ["a", "b", "c", "dir"])
      assert.deepEqual(await run(fs.readDir(`${root}/dir`)), [])
      await expectReason(fs.readDir(`${root}/a`), "NotADirectory")
      await expectReason(fs.readDir(`${root}/missing`), "NotFound")
    })

    withFs("rename replaces a file, and a directory replaces an empty directory", async (fs, root) => {
      await run(fs.writeFile(`${root}/new`, "new"))
      await run(fs.writeFile(`${root}/old`, "old"))
      await run(fs.rename(`${root}/new`, `${root}/old`))
      assert.equal(await run(fs.readFile(`${root}/old`)), "new")
      assert.equal(await run(fs.entryType(`${root}/new`)), undefined)
      await run(fs.mkdir(`${root}/staging`))
      await run(fs.writeFile(`${root}/staging/x`, "x"))
      await run(fs.mkdir(`${root}/target`))
      await run(fs.rename(`${root}/staging`, `${root}/target`))
      assert.equal(await run(fs.readFile(`${root}/target/x`)), "x")
      assert.equal(await run(fs.entryType(`${root}/staging`)), undefined)
    })

    withFs("rename refuses a non-empty target directory and mismatched types", async (fs, root) => {
      await run(fs.mkdir(`${root}/src/inner`, { recursive: true }))
      await run(fs.mkdir(`${root}/full`))
      await run(fs.writeFile(`${root}/full/keep`, "keep"))
      await expectReason(fs.rename(`${root}/src`, `${root}/full`), "DirectoryNotEmpty")
      assert.equal(await run(fs.readFile(`${root}/full/keep`)), "keep")
      await run(fs.writeFile(`${root}/file`, "f"))
      await expectReason(fs.rename(`${root}/file`, `${root}/full`), "IsADirectory")
      await expectReason(fs.rename(`${root}/src`, `${root}/file`), "NotADirectory")
      await expectReason(fs.rename(`${root}/missing`, `${root}/x`), "NotFound")
    })

    withFs("rename moves a symlink itself, replacing an existing link", async (fs, root) => {
      await run(fs.mkdir(`${root}/a`))
      await run(fs.mkdir(`${root}/b`))
      await run(fs.symlink("a", `${root}/current`))
      await run(fs.symlink("b", `${root}/next`))
      await run(fs.rename(`${root}/next`, `${root}/current`))
      assert.equal(await run(fs.readLink(`${root}/current`)), "b")
      assert.equal(await run(fs.entryType(`${root}/a`)), "directory")
      assert.equal(await run(fs.entryType(`${root}/next`)), undefined)
    })

    withFs("removeTree removes whole trees, succeeds on missing paths and never follows links", async (fs, root) => {
      await run(fs.mkdir(`${root}/keep`))
      await run(fs.writeFile(`${root}/keep/data`, "data"))
      await run(fs.mkdir(`${root}/tree/a/b`, { recursive: true }))
      await run(fs.writeFile(`${root}/tree/a/b/f`, "f"))
      await run(fs.symlink(`${root}/keep`, `${root}/tree/link`))
      await run(fs.removeTree(`${root}/tree`))
      assert.equal(await run(fs.entryType(`${root}/tree`)), undefined)
      assert.equal(await run(fs.readFile(`${root}/keep/data`)), "data")
      await run(fs.symlink("keep", `${root}/toplink`))
      await run(fs.removeTree(`${root}/toplink`))
      assert.equal(await run(fs.entryType(`${root}/toplink`)), undefined)
      assert.equal(await run(fs.readFile(`${root}/keep/data`)), "data")
      await run(fs.removeTree(`${root}/missing`))
      await run(fs.removeTree(`${root}/keep/data`))
      assert.deepEqual(await run(fs.readDir(`${root}/keep`)), [])
    })

    withFs("paths through a symlinked directory reach the target", async (fs, root) => {
      await run(fs.mkdir(`${root}/real`))
      await run(fs.symlink("real", `${root}/via`))
      await run(fs.writeFile(`${root}/via/f`, "through"))
      assert.equal(await run(fs.readFile(`${root}/real/f`)), "through")
      await run(fs.mkdir(`${root}/via/sub`))
      assert.equal(await run(fs.entryType(`${root}/real/sub`)), "directory")
    })
  })
}
