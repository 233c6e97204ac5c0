/**
 * The VolumeFs port on the real filesystem (node:fs/promises, which Deno provides too).
 * Every failure goes through `reasonOf`, the one place that maps errno codes to the
 * port's reasons.
 */
import { Effect, Layer } from "effect"
import * as fs from "node:fs/promises"
import { VolumeFs, VolumeFsError } from "../effects/shared/VolumeFs.ts"
import type { EntryType, VolumeFsErrorReason } from "../effects/shared/VolumeFs.ts"

/** errno code → port reason. */
export const reasonOf = (code: unknown): VolumeFsErrorReason => {
  switch (code) {
    case "ENOENT":
      return "NotFound"
    case "EEXIST":
      return "AlreadyExists"
    case "ENOTDIR":
      return "NotADirectory"
    case "EISDIR":
      return "IsADirectory"
    case "ENOTEMPTY":
      return "DirectoryNotEmpty"
    case "EACCES":
    case "EPERM":
      return "PermissionDenied"
    default:
      return "Other"
  }
}

const codeOf = (error: unknown): unknown =>
  typeof error === "object" && error !== null && "code" in error ? (error as { code: unknown }).code : undefined

const io = <A>(op: string, path: string, f: () => Promise<A>): Effect.Effect<A, VolumeFsError> =>
  Effect.tryPromise({
    try: f,
    catch: (error) =>
      new VolumeFsError({
        reason: reasonOf(codeOf(error)),
        op,
        path,
        message: error instanceof Error ? error.message : String(error),
        cause: error
      })
  })

const entryTypeOf = (stats: { isSymbolicLink(): boolean; isDirectory(): boolean }): EntryType =>
  stats.isSymbolicLink() ? "symlink" : stats.isDirectory() ? "directory" : "file"

const service = VolumeFs.of({
  mkdir: Effect.fn("VolumeFsNode.mkdir")(function*(path, options) {
    const recursive = options?.recursive === true
    yield* io("mkdir", path, () => fs.mkdir(path, { recursive, ...(options?.mode === undefined ? {} : { mode: options.mode }) }))
  }),
  writeFile: Effect.fn("VolumeFsNode.writeFile")(function*(path, contents) {
    yield* io("writeFile", path, () => fs.writeFile(path, contents, "utf8"))
  }),
  readFile: Effect.fn("VolumeFsNode.readFile")(function*(path) {
    return yield* io("readFile", path, () => fs.readFile(path, "utf8"))
  }),
  symlink: Effect.fn("VolumeFsNode.symlink")(function*(target, path) {
    yield* io("symlink", path, () => fs.symlink(target, path))
  }),
  readLink: Effect.fn("VolumeFsNode.readLink")(function*(path) {
    return yield* io("readLink", path, () => fs.readlink(path, "utf8"))
  }),
  rename: Effect.fn("VolumeFsNode.rename")(function*(from, to) {
    yield* io("rename", from, () => fs.rename(from, to))
  }),
  removeTree: Effect.fn("VolumeFsNode.removeTree")(function*(path) {
    // rm does not follow a symlink at `path`; force makes a missing path a success.
    yield* io("removeTree", path, () => fs.rm(path, { recursive: true, force: true }))
  }),
  entryType: Effect.fn("VolumeFsNode.entryType")(function*(path) {
    return yield* io("entryType", path, () =>
      fs.lstat(path).then(entryTypeOf, (error: unknown) => {
        if (codeOf(error) === "ENOENT") return undefined
        throw error
      }))
  }),
  readDir: Effect.fn("VolumeFsNode.readDir")(function*(path) {
    // Sorted, so callers (and tests) see the same order as from the in-memory tree.
    return yield* io("readDir", path, () => fs.readdir(path).then((names) => [...names].sort()))
  })
})

/** VolumeFs on the real filesystem: `VolumeFsNode.layer`. */
export const VolumeFsNode = {
  service,
  layer: Layer.succeed(VolumeFs, service) as Layer.Layer<VolumeFs>
} as const
