/**
 * Enforces the layout docs/architecture.md describes:
 * - the dependency direction domain ← effects ← (adapters, csi, k8s) ← main/mod: the pure
 *   core stays free of transport and I/O, so the programs run over in-memory adapters and
 *   compose into custom distributions;
 * - the product (what the bundle, the image and the library are built from) imports nothing
 *   of test/ or bench/: the local clusters are test tools, and the demos on them live in test/demo/;
 * - no two file names differ only by case (they collide on case-insensitive filesystems
 *   and read as the same module).
 */
import { test } from "node:test"
import assert from "node:assert/strict"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { basename, join, relative } from "node:path"

const root = join(import.meta.dirname, "..", "..")

/** Not ours, or generated: dependencies, build output, git's and tools' own directories. */
const SKIPPED = new Set(["node_modules", "dist", "coverage"])

const allFiles = (dir: string): string[] =>
  readdirSync(join(root, dir)).flatMap((entry) => {
    if (entry.startsWith(".") || SKIPPED.has(entry)) return []
    const path = dir === "" ? entry : join(dir, entry)
    return statSync(join(root, path)).isDirectory() ? allFiles(path) : [path]
  })

const sourceFiles = (dir: string): string[] =>
  readdirSync(join(root, dir)).flatMap((entry) => {
    const path = join(dir, entry)
    if (statSync(join(root, path)).isDirectory()) return sourceFiles(path)
    return path.endsWith(".ts") ? [path] : []
  })

const importsOf = (file: string): string[] => {
  const text = readFileSync(join(root, file), "utf8")
  const specifiers: string[] = []
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']/g)) specifiers.push(match[1]!)
  for (const match of text.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)) specifiers.push(match[1]!)
  return specifiers
}

const folderOf = (file: string, specifier: string): string | undefined => {
  if (!specifier.startsWith(".")) return undefined
  const target = relative(root, join(root, file, "..", specifier))
  return target.split(/[\\/]/)[0]
}

const rules: ReadonlyArray<{ folder: string; packages: RegExp; folders: ReadonlyArray<string> }> = [
  { folder: "domain", packages: /^effect(\/|$)/, folders: ["domain"] },
  { folder: "effects", packages: /^effect(\/|$)/, folders: ["domain", "effects"] }
]

for (const rule of rules) {
  test(`${rule.folder}/ imports only ${rule.folders.join(", ")} and effect`, () => {
    const files = sourceFiles(rule.folder)
    assert.ok(files.length > 0, `${rule.folder}/ has source files`)
    const violations: string[] = []
    for (const file of files) {
      for (const specifier of importsOf(file)) {
        const folder = folderOf(file, specifier)
        const allowed = folder === undefined ? rule.packages.test(specifier) : rule.folders.includes(folder)
        if (!allowed) violations.push(`${file} imports ${specifier}`)
      }
    }
    assert.deepEqual(violations, [])
  })
}

/** What the bundle, the image and the library (tsconfig.build.json) are built from. */
const PRODUCT_FOLDERS = ["domain", "effects", "adapters", "csi", "k8s", "demo"]
const PRODUCT_ROOT_FILES = ["main.ts", "mod.ts", "cli.ts"]

test("the product imports nothing of test/ or bench/", () => {
  const files = [...PRODUCT_FOLDERS.flatMap(sourceFiles), ...PRODUCT_ROOT_FILES]
  const violations = files.flatMap((file) =>
    importsOf(file).filter((specifier) => ["test", "bench"].includes(folderOf(file, specifier) ?? "")).map((specifier) => `${file} imports ${specifier}`))
  assert.deepEqual(violations, [])
  const build = JSON.parse(readFileSync(join(root, "tsconfig.build.json"), "utf8")) as { include: ReadonlyArray<string> }
  assert.deepEqual([...build.include].sort(), [...PRODUCT_FOLDERS, "main.ts", "mod.ts"].sort(), "tsconfig.build.json compiles the product only")
})

/** Groups of names that are one name to a case-insensitive filesystem. */
const caseCollisions = (paths: ReadonlyArray<string>): string[][] => {
  const byName = new Map<string, Set<string>>()
  for (const path of paths) {
    const name = basename(path)
    byName.set(name.toLowerCase(), (byName.get(name.toLowerCase()) ?? new Set()).add(name))
  }
  return [...byName.values()].filter((names) => names.size > 1).map((names) => [...names].sort())
}

test("no two file names differ only by case", () => {
  const files = allFiles("")
  assert.ok(files.includes(join("effects", "shared", "KubeApi.ts")), "the walk sees the sources")
  assert.deepEqual(caseCollisions(files), [])
})

test("the import scanner sees forbidden imports", () => {
  // Guards the guard: a scanner that matched nothing would pass every rule vacuously.
  assert.deepEqual(importsOf("test/unit/architecture.test.ts").slice(0, 4), ["node:test", "node:assert/strict", "node:fs", "node:path"])
  assert.equal(folderOf("domain/x.ts", "../adapters/y.ts"), "adapters")
  assert.equal(folderOf("domain/core/x.ts", "../kinds.ts"), "domain")
  assert.equal(folderOf("main.ts", "./test/envtest/x.ts"), "test")
  assert.deepEqual(caseCollisions(["effects/controller/ListenerView.ts", "k8s/listenerView.ts", "k8s/other.ts"]), [["ListenerView.ts", "listenerView.ts"]])
})
