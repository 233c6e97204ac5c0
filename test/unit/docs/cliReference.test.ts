// The README's "Configuration reference" is what `run controller --help` and `run node
// --help` print: the same flags, each with its environment variable, its roles and its
// default; and each role's --help opens with a description of the role.
import { test } from "node:test"
import assert from "node:assert/strict"
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { LOG_LEVELS } from "../../../k8s/operability/logging.ts"

const repoRoot = join(import.meta.dirname, "..", "..", "..")
// Under Deno, process.execPath is deno; the CLI runs on Node (npm's pinned Node 24 on PATH).
const node = "Deno" in globalThis ? "node" : process.execPath

const help = (role: string): string => {
  const run = spawnSync(node, ["--import", "tsx", "main.ts", "run", role, "--help"], { cwd: repoRoot, encoding: "utf8", timeout: 60_000 })
  assert.equal(run.status, 0, run.stderr)
  return run.stdout
}

interface Setting { readonly flag: string; readonly env: string; readonly fallback: string }

/** `--flag type  description [env X; default: D]` lines of one --help. */
const settingsOf = (text: string): ReadonlyArray<Setting> =>
  [...text.matchAll(/^\s+(--[a-z-]+)\b.*\[env ([A-Z_]+); default: ([^\]]+)\]/gm)].map((m) => ({ flag: m[1]!, env: m[2]!, fallback: m[3]! }))

/** The README writes "required" as "— (required)" and "unset: why" as "unset (why)". */
const asReadme = (fallback: string) =>
  fallback === "required" ? "— (required)" : fallback.startsWith("unset: ") ? `unset (${fallback.slice("unset: ".length)})` : fallback

const readmeRows = () => {
  const readme = readFileSync(join(repoRoot, "README.md"), "utf8")
  const start = readme.indexOf("## Configuration reference")
  const rows = readme.slice(start).split("\n").filter((l) => l.startsWith("| `--"))
  return rows.map((line) => {
    const [flag, env, role, fallback] = line.split("|").slice(1).map((c) => c.trim())
    return { flag: /`(--[a-z-]+)`/.exec(flag ?? "")?.[1] ?? "", env: (env ?? "").replaceAll("`", ""), role: role ?? "", fallback: (fallback ?? "").replaceAll("`", "") }
  })
}

const controllerHelp = help("controller")
const nodeHelp = help("node")

test("each role's --help starts with a description of the role", () => {
  for (const [role, text] of [["controller", controllerHelp], ["node", nodeHelp]] as const) {
    const description = /^DESCRIPTION\n\s+(.+)$/m.exec(text)?.[1]
    assert.ok(description !== undefined && description.length > 40, `run ${role} --help has no description:\n${text.slice(0, 300)}`)
    assert.match(description, new RegExp(`The ${role} role`))
  }
})

test("the README's configuration reference is exactly the settings of --help, with their roles and defaults", () => {
  const byFlag = new Map<string, { env: string; fallback: string; roles: Set<string> }>()
  for (const [role, text] of [["controller", controllerHelp], ["node", nodeHelp]] as const) {
    for (const s of settingsOf(text)) {
      const entry = byFlag.get(s.flag) ?? { env: s.env, fallback: s.fallback, roles: new Set<string>() }
      assert.equal(entry.env, s.env, `${s.flag}: one environment variable in both roles`)
      entry.roles.add(role)
      byFlag.set(s.flag, entry)
    }
  }
  const rows = readmeRows().filter((r) => r.flag !== "--log-level")
  assert.deepEqual(rows.map((r) => r.flag).sort(), [...byFlag.keys()].sort(), "README flags = --help flags")
  for (const row of rows) {
    const fromHelp = byFlag.get(row.flag)!
    assert.equal(row.env, fromHelp.env, row.flag)
    assert.equal(row.role, fromHelp.roles.size === 2 ? "both" : [...fromHelp.roles][0], `${row.flag}: role`)
    assert.equal(row.fallback, asReadme(fromHelp.fallback), `${row.flag}: default`)
  }
})

test("--log-level (a global flag, environment LOG_LEVEL) offers the levels LOG_LEVEL accepts, as the README says", () => {
  for (const text of [controllerHelp, nodeHelp]) {
    const choices = /--log-level <([^>]+)>/.exec(text)?.[1]?.split("|")
    assert.deepEqual(choices, [...LOG_LEVELS])
  }
  const row = readmeRows().find((r) => r.flag === "--log-level")
  assert.deepEqual([row?.env, row?.role, row?.fallback], ["LOG_LEVEL", "both", "info"])
})
