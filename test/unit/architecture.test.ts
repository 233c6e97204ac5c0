/**
 * Enforces DESIGN.md's dependency direction: domain ← effects ← (adapters, csi, k8s) ← main/mod.
 * The pure core must stay free of transport and I/O so the programs can run over in-memory
 * adapters and be composed into custom distributions.
 */
import { test } from "node:test"
import assert from "node:assert/strict"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"

const root = join(import.meta.dirname, "..", "..")

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

test("the import scanner sees forbidden imports", () => {
  // Guards the guard: a scanner that matched nothing would pass every rule vacuously.
  assert.deepEqual(importsOf("test/unit/architecture.test.ts").slice(0, 4), ["node:test", "node:assert/strict", "node:fs", "node:path"])
  assert.equal(folderOf("domain/x.ts", "../adapters/y.ts"), "adapters")
  assert.equal(folderOf("domain/core/x.ts", "../kinds.ts"), "domain")
})
