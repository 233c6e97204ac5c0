/**
 * An in-memory filesystem behind the VolumeFs port: directories, regular files and
 * symbolic links (targets stored verbatim, relative ones resolved from the link's
 * directory) with the POSIX semantics the node plugin relies on — atomic rename that
 * replaces a file or an empty directory, remove-tree that never follows links, and the
 * errno-style failures of the real filesystem. `dump` renders a tree for assertions.
 */
import { Context, Effect, Layer } from "effect"
import { VolumeFs, VolumeFsError } from "../effects/shared/VolumeFs.ts"
import type { EntryType, VolumeFsErrorReason } from "../effects/shared/VolumeFs.ts"

type FsNode =
  | { readonly type: "file"; contents: string }
  | { readonly type: "directory"; readonly entries: Map<string, FsNode>; readonly mode: number }
  | { readonly type: "symlink"; readonly target: string }

type Directory = Extract<FsNode, { type: "directory" }>

const ERRNO: Record<string, { readonly reason: VolumeFsErrorReason; readonly text: string }> = {
  ENOENT: { reason: "NotFound", text: "no such file or directory" },
  EEXIST: { reason: "AlreadyExists", text: "file already exists" },
  ENOTDIR: { reason: "NotADirectory", text: "not a directory" },
  EISDIR: { reason: "IsADirectory", text: "illegal operation on a directory" },
  ENOTEMPTY: { reason: "DirectoryNotEmpty", text: "directory not empty" },
  EINVAL: { reason: "Other", text: "invalid argument" },
  ELOOP: { reason: "Other", text: "too many symbolic links encountered" },
  EBUSY: { reason: "Other", text: "resource busy or locked" }
}

/** Thrown inside the synchronous tree code, turned into a VolumeFsError at the boundary. */
class Errno {
  constructor(readonly code: keyof typeof ERRNO) {}
}

const newDirectory = (mode = 0o755): Directory => ({ type: "directory", entries: new Map(), mode })

/** Where a path lands: the chain of directories walked, the last name, and what is there. */
interface Location {
  readonly dirs: ReadonlyArray<Directory>
  readonly name: string | undefined
  readonly node: FsNode | undefined
}

const MAX_LINKS = 40

const components = (path: string): Array<string> => path.split("/").filter((c) => c !== "" && c !== ".")

/** Resolves `path` from the directory chain `from`, following links in every component but (optionally) the last. */
const resolve = (root: Directory, from: ReadonlyArray<Directory>, path: string, followLast: boolean, depth = 0): Location => {
  if (depth > MAX_LINKS) throw new Errno("ELOOP")
  let dirs: Array<Directory> = path.startsWith("/") ? [root] : [...from]
  const parts = components(path)
  if (parts.length === 0) return { dirs: dirs.slice(0, -1), name: undefined, node: dirs[dirs.length - 1] }
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!
    const last = i === parts.length - 1
    if (part === "..") {
      if (dirs.length > 1) dirs.pop()
      if (last) return { dirs: dirs.slice(0, -1), name: undefined, node: dirs[dirs.length - 1] }
      continue
    }
    const current = dirs[dirs.length - 1]!
    const child = current.entries.get(part)
    if (last) {
      if (child?.type === "symlink" && followLast) return resolve(root, dirs, child.target, true, depth + 1)
      return { dirs, name: part, node: child }
    }
    if (child === undefined) throw new Errno("ENOENT")
    if (child.type === "file") throw new Errno("ENOTDIR")
    if (child.type === "symlink") {
      const target = resolve(root, dirs, child.target, true, depth + 1)
      if (target.node === undefined) throw new Errno("ENOENT")
      if (target.node.type !== "directory") throw new Errno("ENOTDIR")
      dirs = [...target.dirs, target.node]
    } else {
      dirs.push(child)
    }
  }
  throw new Errno("EINVAL")
}

const parentOf = (location: Location): Directory => {
  const parent = location.dirs[location.dirs.length - 1]
  if (parent === undefined || location.name === undefined) throw new Errno("EBUSY")
  return parent
}

const isInside = (node: FsNode, ancestor: FsNode): boolean => {
  if (node === ancestor) return true
  if (ancestor.type !== "directory") return false
  for (const child of ancestor.entries.values()) if (isInside(node, child)) return true
  return false
}

/** The tree and its operations, synchronous; the service wraps each call. */
class Tree {
  readonly root: Directory = newDirectory()

  private at(path: string, followLast: boolean): Location {
    return resolve(this.root, [this.root], path, followLast)
  }

  /** Where `path` is (its last link not followed); undefined when a directory on the way is missing. */
  private lookUp(path: string): Location | undefined {
    try {
      return this.at(path, false)
    } catch (error) {
      if (error instanceof Errno && error.code === "ENOENT") return undefined
      throw error
    }
  }

  mkdir(path: string, recursive: boolean, mode: number): void {
    if (!recursive) {
      const location = this.at(path, false)
      if (location.node !== undefined) throw new Errno("EEXIST")
      parentOf(location).entries.set(location.name!, newDirectory(mode))
      return
    }
    const parts = components(path)
    parts.forEach((_, i) => {
      const prefix = `${path.startsWith("/") ? "" : "."}/${parts.slice(0, i + 1).join("/")}`
      const location = this.at(prefix, false)
      const node = location.node?.type === "symlink" ? this.at(prefix, true).node : location.node
      if (node === undefined && location.node === undefined) {
        parentOf(location).entries.set(location.name!, newDirectory(mode))
      } else if (node?.type !== "directory") {
        throw new Errno(i === parts.length - 1 ? "EEXIST" : "ENOTDIR")
      }
    })
  }

  writeFile(path: string, contents: string): void {
    const location = this.at(path, true)
    if (location.node?.type === "directory") throw new Errno("EISDIR")
    if (location.node?.type === "file") {
      location.node.contents = contents
      return
    }
    parentOf(location).entries.set(location.name!, { type: "file", contents })
  }

  readFile(path: string): string {
    const node = this.at(path, true).node
    if (node === undefined) throw new Errno("ENOENT")
    if (node.type === "directory") throw new Errno("EISDIR")
    if (node.type !== "file") throw new Errno("EINVAL")
    return node.contents
  }

  symlink(target: string, path: string): void {
    const location = this.at(path, false)
    if (location.node !== undefined) throw new Errno("EEXIST")
    parentOf(location).entries.set(location.name!, { type: "symlink", target })
  }

  readLink(path: string): string {
    const node = this.at(path, false).node
    if (node === undefined) throw new Errno("ENOENT")
    if (node.type !== "symlink") throw new Errno("EINVAL")
    return node.target
  }

  rename(from: string, to: string): void {
    const source = this.at(from, false)
    if (source.node === undefined) throw new Errno("ENOENT")
    const destination = this.at(to, false)
    const sourceParent = parentOf(source)
    const destinationParent = parentOf(destination)
    const moving = source.node
    const replaced = destination.node
    if (replaced === moving) return
    if (moving.type === "directory" && isInside(destinationParent, moving)) throw new Errno("EINVAL")
    if (replaced !== undefined) {
      if (moving.type === "directory") {
        if (replaced.type !== "directory") throw new Errno("ENOTDIR")
        if (replaced.entries.size > 0) throw new Errno("ENOTEMPTY")
      } else if (replaced.type === "directory") {
        throw new Errno("EISDIR")
      }
    }
    sourceParent.entries.delete(source.name!)
    destinationParent.entries.set(destination.name!, moving)
  }

  removeTree(path: string): void {
    const location = this.lookUp(path)
    if (location?.node === undefined) return
    if (location.name === undefined) {
      if (location.node.type === "directory") location.node.entries.clear()
      return
    }
    parentOf(location).entries.delete(location.name)
  }

  entryType(path: string): EntryType | undefined {
    return this.lookUp(path)?.node?.type
  }

  readDir(path: string): ReadonlyArray<string> {
    const node = this.at(path, true).node
    if (node === undefined) throw new Errno("ENOENT")
    if (node.type !== "directory") throw new Errno("ENOTDIR")
    return [...node.entries.keys()].sort()
  }

  /** `{ "dir/": "dir", "dir/file": "contents", "link": "-> target" }` below `path`. */
  dump(path: string): Record<string, string> {
    const start = this.at(path, true).node
    const out: Record<string, string> = {}
    const walk = (dir: Directory, prefix: string) => {
      for (const name of [...dir.entries.keys()].sort()) {
        const node = dir.entries.get(name)!
        const relative = `${prefix}${name}`
        if (node.type === "directory") {
          out[`${relative}/`] = "dir"
          walk(node, `${relative}/`)
        } else if (node.type === "symlink") out[relative] = `-> ${node.target}`
        else out[relative] = node.contents
      }
    }
    if (start?.type === "directory") walk(start, "")
    return out
  }
}

/** One call of the port `method`, in a span named after it; a thrown errno is the port's error. */
const run = <A>(method: string, op: string, path: string, f: () => A): Effect.Effect<A, VolumeFsError> =>
  Effect.suspend(() => {
    try {
      return Effect.succeed(f())
    } catch (error) {
      if (!(error instanceof Errno)) return Effect.die(error)
      const errno = ERRNO[error.code]!
      return Effect.fail(
        new VolumeFsError({ reason: errno.reason, op, path, message: `${error.code}: ${errno.text}, ${op} '${path}'` })
      )
    }
  }).pipe(Effect.withSpan(`VolumeFsMemory.${method}`))

export interface MemoryVolumeFs {
  readonly fs: (typeof VolumeFs)["Service"]
  /** The tree below `path` (default `/`) as `{ "a/": "dir", "a/f": "contents", "l": "-> target" }`. */
  readonly dump: (path?: string) => Record<string, string>
}

const make: Effect.Effect<MemoryVolumeFs> = Effect.sync(() => {
  const tree = new Tree()
  const fs = VolumeFs.of({
    mkdir: (path, options) => run("mkdir", "mkdir", path, () => tree.mkdir(path, options?.recursive === true, options?.mode ?? 0o755)),
    writeFile: (path, contents) => run("writeFile", "open", path, () => tree.writeFile(path, contents)),
    readFile: (path) => run("readFile", "open", path, () => tree.readFile(path)),
    symlink: (target, path) => run("symlink", "symlink", path, () => tree.symlink(target, path)),
    readLink: (path) => run("readLink", "readlink", path, () => tree.readLink(path)),
    rename: (from, to) => run("rename", "rename", from, () => tree.rename(from, to)),
    removeTree: (path) => run("removeTree", "rm", path, () => tree.removeTree(path)),
    entryType: (path) => run("entryType", "lstat", path, () => tree.entryType(path)),
    readDir: (path) => run("readDir", "scandir", path, () => tree.readDir(path))
  })
  return { fs, dump: (path = "/") => tree.dump(path) }
})

/** The in-memory filesystem as a service, so tests can dump the tree the programs wrote. */
export class VolumeFsMemory extends Context.Service<VolumeFsMemory, MemoryVolumeFs>()(
  "listener-operator/adapters/VolumeFsMemory"
) {
  static readonly make = make

  /** VolumeFs backed by a fresh, empty tree (plus VolumeFsMemory to dump it). */
  static readonly layer: Layer.Layer<VolumeFs | VolumeFsMemory> = Layer.effectContext(
    Effect.map(make, (memory) => Context.make(VolumeFsMemory, memory).pipe(Context.add(VolumeFs, memory.fs)))
  )
}
