/**
 * A listener volume's tree as plain data: every entry under the volume's root with its
 * type, permission bits, and file content or link target. record.ts reads the trees the
 * upstream node plugin wrote; the takeover test's stand-in node plugin writes them back
 * exactly, and compares what a Pod sees against them.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"

export type TreeEntry =
  | { readonly path: string; readonly type: "dir"; readonly mode: string }
  | { readonly path: string; readonly type: "file"; readonly mode: string; readonly content: string }
  | { readonly path: string; readonly type: "symlink"; readonly target: string }

const modeOf = (mode: number): string => (mode & 0o7777).toString(8).padStart(4, "0")

/** The entries under `root` (the root itself as path "."), depth first, names sorted. */
export const readVolumeTree = (root: string): TreeEntry[] => {
  const entries: TreeEntry[] = []
  const visit = (relative: string): void => {
    const full = relative === "." ? root : join(root, relative)
    const stats = lstatSync(full)
    if (stats.isSymbolicLink()) {
      entries.push({ path: relative, type: "symlink", target: readlinkSync(full) })
    } else if (stats.isDirectory()) {
      entries.push({ path: relative, type: "dir", mode: modeOf(stats.mode) })
      for (const name of readdirSync(full).sort()) visit(relative === "." ? name : join(relative, name))
    } else if (stats.isFile()) {
      entries.push({ path: relative, type: "file", mode: modeOf(stats.mode), content: readFileSync(full, "utf8") })
    } else {
      throw new Error(`${full}: neither a directory, a file nor a symbolic link`)
    }
  }
  visit(".")
  return entries
}

/** Write `entries` under `root` (which may exist), with exactly their modes. */
export const writeVolumeTree = (root: string, entries: ReadonlyArray<TreeEntry>): void => {
  for (const entry of entries) {
    const full = entry.path === "." ? root : join(root, entry.path)
    switch (entry.type) {
      case "dir":
        mkdirSync(full, { recursive: true })
        chmodSync(full, Number.parseInt(entry.mode, 8))
        break
      case "file":
        writeFileSync(full, entry.content)
        chmodSync(full, Number.parseInt(entry.mode, 8))
        break
      case "symlink":
        symlinkSync(entry.target, full)
        break
    }
  }
}
