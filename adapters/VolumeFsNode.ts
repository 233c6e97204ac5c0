/**
 * The VolumeFs port on the real filesystem (node:fs, which Deno provides too).
 * Every failure goes through `reasonOf`, the one place that maps errno codes to the
 * port's reasons.
 */
import { Effect, Layer } from "effect"
import * as fs from "node:fs"
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

/**
 * One operation through node:fs's callback API. Not node:fs/promises, and no span per
 * operation: a volume tree's write is some 40 small operations, and each promise-API call
 * (a FileHandle and several promise round trips for a read or write) and span cost more
 * CPU than the system call itself — a quarter of a node role's CPU in a re-publish
 * (profiled, issue 30). The work still runs on libuv's thread pool, off the event loop.
 * Success comes as a `null` error from Node's node:fs, and as `undefined` from Deno's for
 * some calls.
 */
const io = <A>(op: string, path: string, run: (done: (error: NodeJS.ErrnoException | null | undefined, value?: A) => void) => void): Effect.Effect<A, VolumeFsError> =>
  Effect.callback<A, VolumeFsError>((resume) => {
    run((error, value) =>
      resume(
        !error
          ? Effect.succeed(value as A)
          : Effect.fail(new VolumeFsError({ reason: reasonOf(codeOf(error)), op, path, message: error.message, cause: error }))
      )
    )
  })

const entryTypeOf = (stats: { isSymbolicLink(): boolean; isDirectory(): boolean }): EntryType =>
  stats.isSymbolicLink() ? "symlink" : stats.isDirectory() ? "directory" : "file"

const service = VolumeFs.of({
  mkdir: (path, options) =>
    io<void>("mkdir", path, (done) =>
      fs.mkdir(path, { recursive: options?.recursive === true, ...(options?.mode === undefined ? {} : { mode: options.mode }) }, (error) => done(error))),
  writeFile: (path, contents) => io<void>("writeFile", path, (done) => fs.writeFile(path, contents, "utf8", done)),
  readFile: (path) => io<string>("readFile", path, (done) => fs.readFile(path, "utf8", done)),
  symlink: (target, path) => io<void>("symlink", path, (done) => fs.symlink(target, path, done)),
  readLink: (path) => io<string>("readLink", path, (done) => fs.readlink(path, "utf8", done)),
  rename: (from, to) => io<void>("rename", from, (done) => fs.rename(from, to, done)),
  // rm does not follow a symlink at `path`; force makes a missing path a success.
  removeTree: (path) => io<void>("removeTree", path, (done) => fs.rm(path, { recursive: true, force: true }, done)),
  entryType: (path) =>
    io<EntryType | undefined>("entryType", path, (done) =>
      fs.lstat(path, (error, stats) =>
        !error ? done(null, entryTypeOf(stats)) : codeOf(error) === "ENOENT" ? done(null, undefined) : done(error))),
  // Sorted, so callers (and tests) see the same order as from the in-memory tree.
  readDir: (path) => io<ReadonlyArray<string>>("readDir", path, (done) => fs.readdir(path, (error, names) => done(error, !error ? [...names].sort() : undefined)))
})

/** VolumeFs on the real filesystem: `VolumeFsNode.layer`. */
export const VolumeFsNode = {
  service,
  layer: Layer.succeed(VolumeFs, service) as Layer.Layer<VolumeFs>
} as const
