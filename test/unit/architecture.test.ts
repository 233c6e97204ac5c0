/**
 * Enforces the layout docs/architecture.md describes:
 * - the dependency direction domain ← effects ← (adapters, csi, k8s) ← main/mod: the pure
 *   core stays free of transport and I/O, so the programs run over in-memory adapters and
 *   compose into custom distributions;
 * - the product (what the bundle, the image and the library are built from) imports nothing
 *   of test/ or bench/: the local clusters are test tools, and the demos on them live in test/demo/;
 * - no two file names differ only by case (they collide on case-insensitive filesystems
 *   and read as the same module);
 * - no import cycle between the product's files: each file can be read, tested and
 *   replaced with only what it imports;
 * - the node plugin's programs (effects/node/) and the controller role's (effects/controller/,
 *   effects/provisioner/) import nothing of each other: what both use lives in effects/shared/;
 * - a role file (k8s/roles/) imports no adapter: a role is a program that requires its
 *   adapters from the layer graph, and each composition root (k8s/composition/ for
 *   production, demo/ and the tests for in-memory twins) provides its own;
 * - the Listener controller's programs (effects/controller/) reach takeover through one
 *   module, effects/takeover/listenerTakeover.ts, the one step the reconcile calls;
 * - the unit tests of effects/ sit in the folders of the part they test.
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

/** The repository path `specifier` names from `file`; undefined for a package. */
const targetOf = (file: string, specifier: string): string | undefined =>
  specifier.startsWith(".") ? relative(root, join(root, file, "..", specifier)).split(/[\\/]/).join("/") : undefined

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

/** Files that import each other in a circle, one line per circle (Tarjan's strongly connected components). */
const importCycles = (graph: ReadonlyMap<string, ReadonlyArray<string>>): string[] => {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[] = []
  const visit = (file: string): void => {
    index.set(file, index.size)
    low.set(file, index.get(file)!)
    stack.push(file)
    onStack.add(file)
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue
      if (!index.has(next)) {
        visit(next)
        low.set(file, Math.min(low.get(file)!, low.get(next)!))
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!))
    }
    if (low.get(file) !== index.get(file)) return
    const members: string[] = []
    for (let member = stack.pop()!; ; member = stack.pop()!) {
      onStack.delete(member)
      members.push(member)
      if (member === file) break
    }
    if (members.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(members.sort().join(" ⇄ "))
  }
  for (const file of graph.keys()) if (!index.has(file)) visit(file)
  return cycles.sort()
}

const productFiles = (): string[] => [...PRODUCT_FOLDERS.flatMap(sourceFiles), ...PRODUCT_ROOT_FILES].map((file) => file.split(/[\\/]/).join("/"))

const importGraph = (files: ReadonlyArray<string>): Map<string, string[]> =>
  new Map(files.map((file) => [file, importsOf(file).flatMap((specifier) => targetOf(file, specifier) ?? [])]))

test("no two product files import each other, directly or in a circle (type imports included)", () => {
  const graph = importGraph(productFiles())
  assert.ok(graph.size > 100 && [...graph.values()].some((targets) => targets.length > 0), "the graph sees the imports")
  assert.deepEqual(importCycles(graph), [])
})

/** The parts of effects/ by role; a part may import shared/ and takeover/, not the other role's part. */
const NODE_PART = ["effects/node/"]
const CONTROLLER_PART = ["effects/controller/", "effects/provisioner/"]
const partOf = (file: string): "node" | "controller" | undefined =>
  NODE_PART.some((prefix) => file.startsWith(prefix)) ? "node" : CONTROLLER_PART.some((prefix) => file.startsWith(prefix)) ? "controller" : undefined

const crossRoleImports = (graph: ReadonlyMap<string, ReadonlyArray<string>>): string[] =>
  [...graph].flatMap(([file, targets]) => {
    const part = partOf(file)
    return part === undefined ? [] : targets.filter((target) => partOf(target) !== undefined && partOf(target) !== part).map((target) => `${file} imports ${target}`)
  })

test("the node plugin's programs and the controller role's import nothing of each other", () => {
  const graph = importGraph(productFiles())
  assert.ok([...graph.keys()].some((file) => partOf(file) === "node") && [...graph.keys()].some((file) => partOf(file) === "controller"), "both parts have files")
  assert.deepEqual(crossRoleImports(graph), [])
})

/** Imports of adapters/ from the role files, which must require their adapters instead. */
const hardWiredAdapters = (graph: ReadonlyMap<string, ReadonlyArray<string>>): string[] =>
  [...graph].flatMap(([file, targets]) =>
    file.startsWith("k8s/roles/") ? targets.filter((target) => target.startsWith("adapters/")).map((target) => `${file} imports ${target}`) : [])

test("a role file imports no adapter: the composition roots provide them", () => {
  const graph = importGraph(productFiles())
  assert.ok(graph.has("k8s/roles/nodeRole.ts") && graph.has("k8s/roles/controllerRole.ts"), "the role files are seen")
  assert.deepEqual(hardWiredAdapters(graph), [])
})

/** The one module of effects/takeover/ the controller's programs may call. */
const TAKEOVER_STEP = "effects/takeover/listenerTakeover.ts"

/** Imports of takeover's parts from the controller's programs, bypassing its one step. */
const takeoverBypasses = (graph: ReadonlyMap<string, ReadonlyArray<string>>): string[] =>
  [...graph].flatMap(([file, targets]) =>
    file.startsWith("effects/controller/")
      ? targets.filter((target) => target.startsWith("effects/takeover/") && target !== TAKEOVER_STEP).map((target) => `${file} imports ${target}`)
      : [])

test("the Listener controller's programs call takeover through its one step", () => {
  const graph = importGraph(productFiles())
  assert.ok(graph.get("effects/controller/reconcileListener.ts")?.includes(TAKEOVER_STEP), "the reconcile calls the takeover step")
  assert.deepEqual(takeoverBypasses(graph), [])
})

test("the unit tests of effects/ are laid out by the part they test", () => {
  const parts = readdirSync(join(root, "effects")).filter((entry) => statSync(join(root, "effects", entry)).isDirectory())
  const testDir = join(root, "test", "unit", "effects")
  const misplaced = readdirSync(testDir).filter((entry) => !(statSync(join(testDir, entry)).isDirectory() && parts.includes(entry)))
  assert.ok(parts.length >= 5, "the parts of effects/ are seen")
  assert.deepEqual(misplaced, [])
})

test("the cycle, role and adapter checks see what they forbid", () => {
  // Guards the guards with a made-up graph: each rule finds the one violation planted in it.
  const graph = new Map<string, string[]>([
    ["effects/node/a.ts", ["effects/node/b.ts", "effects/shared/s.ts"]],
    ["effects/node/b.ts", ["effects/node/a.ts", "effects/controller/c.ts"]],
    ["effects/controller/c.ts", ["effects/shared/s.ts"]],
    ["effects/shared/s.ts", []],
    ["k8s/roles/r.ts", ["adapters/VolumeFsNode.ts", "effects/node/a.ts"]],
    ["effects/controller/d.ts", [TAKEOVER_STEP, "effects/takeover/StatusSchemaGaps.ts"]]
  ])
  assert.deepEqual(importCycles(graph), ["effects/node/a.ts ⇄ effects/node/b.ts"])
  assert.deepEqual(crossRoleImports(graph), ["effects/node/b.ts imports effects/controller/c.ts"])
  assert.deepEqual(hardWiredAdapters(graph), ["k8s/roles/r.ts imports adapters/VolumeFsNode.ts"])
  assert.deepEqual(takeoverBypasses(graph), ["effects/controller/d.ts imports effects/takeover/StatusSchemaGaps.ts"])
  assert.equal(targetOf("effects/node/a.ts", "../shared/s.ts"), "effects/shared/s.ts")
})
