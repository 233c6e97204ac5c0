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

/** One call of the port's method `op`, in a span named after it. */
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
  }).pipe(Effect.withSpan(`VolumeFsNode.${op}`))

const entryTypeOf = (stats: { isSymbolicLink(): boolean; isDirectory(): boolean }): EntryType =>
  stats.isSymbolicLink() ? "symlink" : stats.isDirectory() ? "directory" : "file"

const service = VolumeFs.of({
  mkdir: (path, options) =>
    io("mkdir", path, () => fs.mkdir(path, { recursive: options?.recursive === true, ...(options?.mode === undefined ? {} : { mode: options.mode }) }))
      .pipe(Effect.asVoid),
  writeFile: (path, contents) => io("writeFile", path, () => fs.writeFile(path, contents, "utf8")),
  readFile: (path) => io("readFile", path, () => fs.readFile(path, "utf8")),
  symlink: (target, path) => io("symlink", path, () => fs.symlink(target, path)),
  readLink: (path) => io("readLink", path, () => fs.readlink(path, "utf8")),
  rename: (from, to) => io("rename", from, () => fs.rename(from, to)),
  // rm does not follow a symlink at `path`; force makes a missing path a success.
  removeTree: (path) => io("removeTree", path, () => fs.rm(path, { recursive: true, force: true })),
  entryType: (path) =>
    io("entryType", path, () =>
      fs.lstat(path).then(entryTypeOf, (error: unknown) => {
        if (codeOf(error) === "ENOENT") return undefined
        throw error
      })),
  // Sorted, so callers (and tests) see the same order as from the in-memory tree.
  readDir: (path) => io("readDir", path, () => fs.readdir(path).then((names) => [...names].sort()))
})

/** VolumeFs on the real filesystem: `VolumeFsNode.layer`. */
export const VolumeFsNode = {
  service,
  layer: Layer.succeed(VolumeFs, service) as Layer.Layer<VolumeFs>
} as const
