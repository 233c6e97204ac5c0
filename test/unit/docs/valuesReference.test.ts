// docs/deploy.md's "Values reference" describes every key of the chart's values.yaml and
// names no key the chart does not have. A key is covered by a row naming it or a map above
// it (`controller.resources` covers its requests and limits); `.x` after a key in the same
// cell is a sibling (`controller.podAnnotations`, `.priorityClassName`).
import { test } from "node:test"
import assert from "node:assert/strict"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { parse } from "yaml"

const repoRoot = join(import.meta.dirname, "..", "..", "..")
const values = parse(readFileSync(join(repoRoot, "deploy", "helm", "listener-operator", "values.yaml"), "utf8")) as Record<string, unknown>
const deploy = readFileSync(join(repoRoot, "docs", "deploy.md"), "utf8")

/** Every key path of the values tree, maps and their keys alike. */
const keysOf = (tree: unknown, prefix = ""): ReadonlyArray<string> =>
  typeof tree === "object" && tree !== null && !Array.isArray(tree)
    ? Object.entries(tree).flatMap(([k, v]) => {
      const key = prefix === "" ? k : `${prefix}.${k}`
      return [key, ...keysOf(v, key)]
    })
    : []

const leafKeys = (tree: unknown, prefix = ""): ReadonlyArray<string> =>
  typeof tree === "object" && tree !== null && !Array.isArray(tree) && Object.keys(tree).length > 0
    ? Object.entries(tree).flatMap(([k, v]) => leafKeys(v, prefix === "" ? k : `${prefix}.${k}`))
    : [prefix]

const documentedKeys = (): ReadonlyArray<string> => {
  const start = deploy.indexOf("## Values reference")
  const end = deploy.indexOf("\n## ", start + 1)
  const section = deploy.slice(start, end < 0 ? undefined : end)
  const table = section.split("\n").filter((line) => line.startsWith("| `"))
  assert.ok(table.length > 30, `${table.length} rows in the values table`)
  return table.flatMap((line) => {
    const cell = line.split("|")[1] ?? ""
    let last = ""
    return [...cell.matchAll(/`([^`]+)`/g)].map((m) => {
      const token = m[1]!
      if (token.startsWith(".")) return `${last.slice(0, last.lastIndexOf("."))}${token}`
      last = token
      return token
    })
  })
}

test("every key of values.yaml is described in docs/deploy.md's values table", () => {
  const documented = documentedKeys()
  const missing = leafKeys(values).filter((key) => !documented.some((d) => key === d || key.startsWith(`${d}.`)))
  assert.deepEqual(missing, [], `keys of values.yaml missing from docs/deploy.md ("Values reference"): ${missing.join(", ")}`)
})

test("the values table names only keys the chart has", () => {
  const known = new Set(keysOf(values))
  const unknown = documentedKeys().filter((key) => !known.has(key))
  assert.deepEqual(unknown, [], `docs/deploy.md describes keys values.yaml does not have: ${unknown.join(", ")}`)
})
