/**
 * Putting a planned volume file tree (`domain/volumeTree.ts`) at a CSI target path so that
 * a reader never sees a half-written tree, publishing again converges, and a running
 * container keeps seeing the current tree.
 *
 * Why the swap happens inside the target: the container runtime bind-mounts the target
 * directory into the Pod, so the container holds that directory's inode. Replacing the
 * target by a rename (our first design) left a running container looking at the old,
 * deleted directory — after a kubelet restart with changed addresses it saw an empty
 * /listener. So the target directory is created once and never replaced; its contents are
 * versioned, as Kubernetes' own atomic writer does for projected volumes:
 *
 *     <target>/..v<N>/…                     the complete tree of version N
 *     <target>/..data -> ..v<N>             the live version (swapped by rename)
 *     <target>/addresses -> ..data/addresses
 *     <target>/default-address -> ..data/default-address
 *
 * Readers go through the top-level links (the upstream layout: `default-address/address`,
 * `addresses/<a>/ports/<p>`), so every path they resolve lands in one complete version.
 * A new version is written beside the live one, `..data_tmp` is pointed at it and renamed
 * over `..data` (atomic); the version it replaced is removed at the swap after (a reader
 * in the middle of a path walk may still be inside it). An identical tree is left alone:
 * re-publishing after a kubelet restart writes nothing.
 *
 * Leftovers of a crash (a half-written version, a stale `..data_tmp`) are removed by the
 * next publish; `removeVolumeTree` removes the target with everything in it.
 */
import { Effect } from "effect"
import type { VolumeEntry } from "../../domain/volumeTree.ts"
import { VolumeFs } from "../shared/VolumeFs.ts"
import type { VolumeFsError } from "../shared/VolumeFs.ts"
import { TargetParentMissing, VolumeTreeWriteFailed } from "../shared/volumeErrors.ts"

/** The live-version link and its temporary twin. */
export const DATA_LINK = "..data"
const DATA_LINK_TMP = "..data_tmp"
const VERSION_PREFIX = "..v"

const join = (dir: string, name: string): string => (dir.endsWith("/") ? `${dir}${name}` : `${dir}/${name}`)

const splitPath = (path: string): { readonly parent: string; readonly base: string } => {
  const slash = path.lastIndexOf("/")
  return { parent: slash <= 0 ? "/" : path.slice(0, slash), base: path.slice(slash + 1) }
}

/**
 * `.<base>.publishing`: where a first publish is staged (then renamed into place); and the
 * first design's `.<base>.retired`. Both are removed when found (crashes, upgrades).
 */
const legacySiblings = (targetPath: string): ReadonlyArray<string> => {
  const { parent, base } = splitPath(targetPath)
  return [join(parent, `.${base}.publishing`), join(parent, `.${base}.retired`)]
}

const versionNumber = (name: string): number | undefined => {
  if (!name.startsWith(VERSION_PREFIX)) return undefined
  const digits = name.slice(VERSION_PREFIX.length)
  return /^[0-9]+$/u.test(digits) ? Number(digits) : undefined
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

/**
 * A new directory at `path`, or a new link: a leftover of a crashed write in the way is
 * removed only when the creation meets it. Most writes find none, and removing up front
 * cost a file system walk on every write.
 */
const freshDirectory = (path: string): Effect.Effect<void, VolumeFsError, VolumeFs> =>
  Effect.gen(function*() {
    const fs = yield* VolumeFs
    yield* fs.mkdir(path).pipe(
      Effect.catchIf((error) => error.reason === "AlreadyExists", () => Effect.andThen(fs.removeTree(path), fs.mkdir(path)))
    )
  })
const freshLink = (target: string, path: string): Effect.Effect<void, VolumeFsError, VolumeFs> =>
  Effect.gen(function*() {
    const fs = yield* VolumeFs
    yield* fs.symlink(target, path).pipe(
      Effect.catchIf((error) => error.reason === "AlreadyExists", () => Effect.andThen(fs.removeTree(path), fs.symlink(target, path)))
    )
  })

/** The names a reader sees at the top of the volume: the first component of every entry. */
const topLevelNames = (entries: ReadonlyArray<VolumeEntry>): ReadonlySet<string> =>
  new Set(entries.map((entry) => entry.path.split("/")[0]!))

/** What happened at the target: a new tree, a replaced tree, or nothing (already the same). */
export type TreeWriteOutcome = "created" | "replaced" | "unchanged"

/** The target's live version (`..v<N>` behind `..data`), if it has the versioned layout. */
const liveVersion = (targetPath: string): Effect.Effect<string | undefined, VolumeFsError, VolumeFs> =>
  Effect.gen(function*() {
    const fs = yield* VolumeFs
    const link = join(targetPath, DATA_LINK)
    if ((yield* fs.entryType(link)) !== "symlink") return undefined
    const version = yield* fs.readLink(link)
    return versionNumber(version) !== undefined && (yield* fs.entryType(join(targetPath, version))) === "directory"
      ? version
      : undefined
  })

/**
 * Point each top-level name at `..data/<name>` and remove top-level entries the plan no
 * longer has. A plain directory left by the first design's layout cannot be replaced by a
 * link atomically: it is removed first, so during that one-time conversion a reader may
 * briefly find that one name missing (never a partial tree).
 */
const linkTopLevel = (targetPath: string, names: ReadonlySet<string>): Effect.Effect<void, VolumeFsError, VolumeFs> =>
  Effect.gen(function*() {
    const fs = yield* VolumeFs
    for (const name of names) {
      const path = join(targetPath, name)
      const wanted = `${DATA_LINK}/${name}`
      const type = yield* fs.entryType(path)
      if (type === "symlink" && (yield* fs.readLink(path)) === wanted) continue
      if (type === "directory") yield* fs.removeTree(path)
      const tmp = join(targetPath, `..${name}_tmp`)
      yield* freshLink(wanted, tmp)
      yield* fs.rename(tmp, path)
    }
    for (const name of yield* fs.readDir(targetPath)) {
      if (!name.startsWith("..") && !names.has(name)) yield* fs.removeTree(join(targetPath, name))
    }
  })

/**
 * Remove every version but the live one and the one it replaced, stale temporaries, and
 * (`siblings`) the first design's siblings. The replaced version stays until the next swap: a reader
 * whose path walk went through `..data` just before the swap is still inside it, and
 * removing it at once could show that reader a half-removed directory.
 *
 * The siblings are looked for only by a write that found no live version of ours (a new
 * target, a tree of the first layout): the write that made the live version removed them
 * already, and two removals per re-publish were a tenth of its file system calls.
 */
const removeLeftovers = (targetPath: string, live: string, siblings: boolean): Effect.Effect<void, VolumeFsError, VolumeFs> =>
  Effect.gen(function*() {
    const fs = yield* VolumeFs
    const liveNumber = versionNumber(live)!
    for (const name of yield* fs.readDir(targetPath)) {
      const number = versionNumber(name)
      const stale = (number !== undefined && number !== liveNumber && number !== liveNumber - 1) ||
        (name.startsWith("..") && name.endsWith("_tmp"))
      if (stale) yield* fs.removeTree(join(targetPath, name))
    }
    if (siblings) for (const sibling of legacySiblings(targetPath)) yield* fs.removeTree(sibling)
  })

/** Write version `version` of `entries` into `dir`, point `..data` at it, and link the top-level names. */
const populate = (
  dir: string,
  version: string,
  entries: ReadonlyArray<VolumeEntry>,
  step: (name: string) => (cause: VolumeFsError) => VolumeTreeWriteFailed
): Effect.Effect<void, VolumeTreeWriteFailed, VolumeFs> =>
  Effect.gen(function*() {
    const fs = yield* VolumeFs
    const versionPath = join(dir, version)
    yield* Effect.mapError(
      Effect.gen(function*() {
        yield* freshDirectory(versionPath)
        for (const entry of entries) {
          const path = join(versionPath, entry.path)
          if (entry.type === "directory") yield* fs.mkdir(path)
          else if (entry.type === "file") yield* fs.writeFile(path, entry.contents)
          else yield* fs.symlink(entry.target, path)
        }
      }),
      step("prepare tree")
    )
    yield* Effect.mapError(
      Effect.gen(function*() {
        const tmp = join(dir, DATA_LINK_TMP)
        yield* freshLink(version, tmp)
        yield* fs.rename(tmp, join(dir, DATA_LINK))
      }),
      step("swap tree in")
    )
    yield* Effect.mapError(linkTopLevel(dir, topLevelNames(entries)), step("link top-level entries"))
  })

/**
 * Make the directory at `targetPath` present exactly `entries` to readers.
 *
 * A target that does not exist yet (the first publish) is built complete in a sibling
 * staging directory and renamed into place, so it appears with every top-level entry at
 * once — nothing is mounted there yet, and a crash leaves only the staging directory,
 * which the next publish removes. An existing target (possibly bind-mounted into a running
 * container) is never replaced: its `..data` link is swapped.
 *
 * `lastWritten`: the entries this plugin last put at the target, when the caller knows them
 * (the address refresh: its published-volume record). If they differ from `entries`, the
 * tree is known to change and the live version is not read back to compare — that read is
 * a third of a re-publish's file system calls. Without it, or when they are the same, the
 * live version is compared, so an identical tree is left alone.
 */
export const writeVolumeTree = (
  targetPath: string,
  entries: ReadonlyArray<VolumeEntry>,
  lastWritten?: ReadonlyArray<VolumeEntry>
): Effect.Effect<TreeWriteOutcome, VolumeTreeWriteFailed | TargetParentMissing, VolumeFs> =>
  Effect.gen(function*() {
    const fs = yield* VolumeFs
    const step = (name: string) => (cause: VolumeFsError) => new VolumeTreeWriteFailed({ targetPath, step: name, cause })
    const names = topLevelNames(entries)

    const existing = yield* Effect.mapError(fs.entryType(targetPath), step("inspect target"))
    if (existing !== undefined && existing !== "directory") {
      // Not something a container can have mounted as this volume: start over.
      yield* Effect.mapError(fs.removeTree(targetPath), step("remove non-directory target"))
    }
    if (existing !== "directory") {
      const { parent } = splitPath(targetPath)
      if ((yield* Effect.mapError(fs.entryType(parent), step("inspect target"))) !== "directory") {
        return yield* new TargetParentMissing({ targetPath, parent })
      }
      const [staging] = legacySiblings(targetPath)
      yield* Effect.mapError(freshDirectory(staging!), step("create target"))
      yield* populate(staging!, `${VERSION_PREFIX}1`, entries, step)
      yield* Effect.mapError(fs.rename(staging!, targetPath), step("create target"))
      yield* Effect.mapError(removeLeftovers(targetPath, `${VERSION_PREFIX}1`, true), step("remove leftovers"))
      return "created" as const
    }

    const hadTree = (yield* Effect.mapError(fs.readDir(targetPath), step("read current tree"))).length > 0
    const live = hadTree ? yield* Effect.mapError(liveVersion(targetPath), step("read current tree")) : undefined
    if (live !== undefined && (lastWritten === undefined || sameTree(lastWritten, entries))) {
      const current = yield* Effect.mapError(readTree(join(targetPath, live)), step("read current tree"))
      if (sameTree(current, entries)) {
        yield* Effect.mapError(linkTopLevel(targetPath, names), step("link top-level entries"))
        yield* Effect.mapError(removeLeftovers(targetPath, live, false), step("remove leftovers"))
        return "unchanged" as const
      }
    }

    const version = `${VERSION_PREFIX}${live === undefined ? 1 : versionNumber(live)! + 1}`
    yield* populate(targetPath, version, entries, step)
    yield* Effect.mapError(removeLeftovers(targetPath, version, live === undefined), step("remove leftovers"))
    return hadTree ? ("replaced" as const) : ("created" as const)
  })

/** Remove the tree at `targetPath` (the target itself included) and any leftovers; an absent path is success. */
export const removeVolumeTree = (targetPath: string): Effect.Effect<void, VolumeTreeWriteFailed, VolumeFs> =>
  Effect.gen(function*() {
    const fs = yield* VolumeFs
    yield* Effect.mapError(
      Effect.gen(function*() {
        yield* fs.removeTree(targetPath)
        for (const sibling of legacySiblings(targetPath)) yield* fs.removeTree(sibling)
      }),
      (cause) => new VolumeTreeWriteFailed({ targetPath, step: "remove target", cause })
    )
  })
