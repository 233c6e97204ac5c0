/**
 * The volume filesystem port: what the node plugin needs to prepare a listener volume's
 * file tree. Implementations: `adapters/VolumeFsNode.ts` (node:fs) and
 * `adapters/VolumeFsMemory.ts` (an in-memory tree with symlinks, for tests).
 *
 * Failure reasons (every method fails only with `VolumeFsError`):
 * - NotFound: a path (or a parent) does not exist.
 * - AlreadyExists: the path exists and the operation will not replace it.
 * - NotADirectory / IsADirectory: the path has the wrong type for the operation.
 * - DirectoryNotEmpty: rename onto a non-empty directory.
 * - PermissionDenied: the OS refused.
 * - Other: any other I/O failure (the `cause` holds the original).
 */
import { Context, Data } from "effect"
import type { Effect } from "effect"

export type VolumeFsErrorReason =
  | "NotFound"
  | "AlreadyExists"
  | "NotADirectory"
  | "IsADirectory"
  | "DirectoryNotEmpty"
  | "PermissionDenied"
  | "Other"

export class VolumeFsError extends Data.TaggedError("VolumeFsError")<{
  readonly reason: VolumeFsErrorReason
  readonly op: string
  readonly path: string
  readonly message: string
  readonly cause?: unknown
}> {}

export type EntryType = "file" | "directory" | "symlink"

export class VolumeFs extends Context.Service<VolumeFs, {
  /** Create a directory; with `recursive`, parents too and an existing directory is fine. */
  mkdir(path: string, options?: { readonly recursive?: boolean; readonly mode?: number }): Effect.Effect<void, VolumeFsError>
  /** Create or truncate a regular file with exactly these contents. */
  writeFile(path: string, contents: string): Effect.Effect<void, VolumeFsError>
  readFile(path: string): Effect.Effect<string, VolumeFsError>
  /** Create a symbolic link at `path` whose target is `target` (stored verbatim, may be relative). */
  symlink(target: string, path: string): Effect.Effect<void, VolumeFsError>
  readLink(path: string): Effect.Effect<string, VolumeFsError>
  /** Atomic rename; replaces an existing file or empty directory at `to`. */
  rename(from: string, to: string): Effect.Effect<void, VolumeFsError>
  /** Remove a file, link or whole directory tree; a missing path is success. Never follows links. */
  removeTree(path: string): Effect.Effect<void, VolumeFsError>
  /** The type of the entry at `path` (links are not followed), or undefined when it does not exist. */
  entryType(path: string): Effect.Effect<EntryType | undefined, VolumeFsError>
  readDir(path: string): Effect.Effect<ReadonlyArray<string>, VolumeFsError>
}>()("listener-operator/effects/VolumeFs") {}
