/**
 * Putting a planned volume file tree (`domain/volumeTree.ts`) at a CSI target path so that
 * a reader never sees a half-written tree, and publishing again converges.
 *
 * How: the tree is built in a staging directory next to the target (same parent, so the
 * same filesystem and `rename` is atomic), then renamed into place. When a tree is already
 * there, it is compared first: an identical tree is left alone (the common re-publish after
 * a kubelet restart, with the Pod's containers already bind-mounting the target). A
 * different one is renamed aside, the new one renamed in, and the old one removed; between
 * the two renames the target is briefly absent, never partial.
 *
 * The staging and retired names are fixed (`.<target>.publishing`, `.<target>.retired`) so
 * leftovers of a crash are found and removed by the next publish or unpublish.
 */
import { Effect } from "effect"
import type { VolumeEntry } from "../domain/volumeTree.ts"
import { VolumeFs } from "./VolumeFs.ts"
import type { VolumeFsError } from "./VolumeFs.ts"
import { VolumeTreeWriteFailed } from "./volumeErrors.ts"

const splitPath = (path: string): { readonly parent: string; readonly base: string } => {
  const slash = path.lastIndexOf("/")
  return { parent: slash <= 0 ? "/" : path.slice(0, slash), base: path.slice(slash + 1) }
}

const join = (dir: string, name: string): string => (dir.endsWith("/") ? `${dir}${name}` : `${dir}/${name}`)

/** The sibling paths used while swapping a tree in at `targetPath`. */
export const siblingPaths = (targetPath: string): { readonly staging: string; readonly retired: string } => {
  const { parent, base } = splitPath(targetPath)
  return { staging: join(parent, `.${base}.publishing`), retired: join(parent, `.${base}.retired`) }
}

const entryKey = (entry: VolumeEntry): string =>
  entry.type === "directory"
    ? `d ${entry.path}`
    : entry.type === "file"
    ? `f ${entry.path}\0${entry.contents}`
    : `l ${entry.path}\0${entry.target}`

/** Every entry under `root` (paths relative to it), read without following links. */
const readTree = (root: string): Effect.Effect<ReadonlyArray<VolumeEntry>, VolumeFsError, VolumeFs> =>
  Effect.gen(function*() {
    const fs = yield* VolumeFs
    const entries: VolumeEntry[] = []
    const walk = (relative: string): Effect.Effect<void, VolumeFsError> =>
      Effect.gen(function*() {
        const names = yield* fs.readDir(relative === "" ? root : join(root, relative))
        for (const name of names) {
          const path = relative === "" ? name : `${relative}/${name}`
          const full = join(root, path)
          const type = yield* fs.entryType(full)
          if (type === "directory") {
            entries.push({ type, path })
            yield* walk(path)
          } else if (type === "file") entries.push({ type, path, contents: yield* fs.readFile(full) })
          else if (type === "symlink") entries.push({ type, path, target: yield* fs.readLink(full) })
        }
      })
    yield* walk("")
    return entries
  })

const sameTree = (a: ReadonlyArray<VolumeEntry>, b: ReadonlyArray<VolumeEntry>): boolean => {
  if (a.length !== b.length) return false
  const keys = new Set(a.map(entryKey))
  return b.every((entry) => keys.has(entryKey(entry)))
}

/** What happened at the target: a new tree, a replaced tree, or nothing (already the same). */
export type TreeWriteOutcome = "created" | "replaced" | "unchanged"

/** Make the directory at `targetPath` hold exactly `entries`. */
export const writeVolumeTree = (
  targetPath: string,
  entries: ReadonlyArray<VolumeEntry>
): Effect.Effect<TreeWriteOutcome, VolumeTreeWriteFailed, VolumeFs> =>
  Effect.gen(function*() {
    const fs = yield* VolumeFs
    const { staging, retired } = siblingPaths(targetPath)
    const step = (name: string) => (cause: VolumeFsError) => new VolumeTreeWriteFailed({ targetPath, step: name, cause })

    const existing = yield* Effect.mapError(fs.entryType(targetPath), step("inspect target"))
    if (existing === "directory") {
      const current = yield* Effect.mapError(readTree(targetPath), step("read current tree"))
      if (sameTree(current, entries)) {
        yield* Effect.mapError(Effect.andThen(fs.removeTree(staging), fs.removeTree(retired)), step("remove leftovers"))
        return "unchanged" as const
      }
    }

    yield* Effect.mapError(
      Effect.gen(function*() {
        yield* fs.removeTree(staging)
        yield* fs.mkdir(staging)
        for (const entry of entries) {
          const path = join(staging, entry.path)
          if (entry.type === "directory") yield* fs.mkdir(path)
          else if (entry.type === "file") yield* fs.writeFile(path, entry.contents)
          else yield* fs.symlink(entry.target, path)
        }
      }),
      step("prepare tree")
    )

    if (existing === undefined) {
      yield* Effect.mapError(fs.rename(staging, targetPath), step("move tree into place"))
      yield* Effect.mapError(fs.removeTree(retired), step("remove leftovers"))
      return "created" as const
    }
    yield* Effect.mapError(
      Effect.gen(function*() {
        yield* fs.removeTree(retired)
        yield* fs.rename(targetPath, retired)
        yield* fs.rename(staging, targetPath)
        yield* fs.removeTree(retired)
      }),
      step("swap tree in")
    )
    return "replaced" as const
  })

/** Remove the tree at `targetPath` and any staging leftovers; an absent path is success. */
export const removeVolumeTree = (targetPath: string): Effect.Effect<void, VolumeTreeWriteFailed, VolumeFs> =>
  Effect.gen(function*() {
    const fs = yield* VolumeFs
    const { staging, retired } = siblingPaths(targetPath)
    yield* Effect.mapError(
      Effect.gen(function*() {
        yield* fs.removeTree(targetPath)
        yield* fs.removeTree(staging)
        yield* fs.removeTree(retired)
      }),
      (cause) => new VolumeTreeWriteFailed({ targetPath, step: "remove target", cause })
    )
  })
