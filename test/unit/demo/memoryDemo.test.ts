import { test } from "node:test"
import assert from "node:assert/strict"
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { runMemoryDemo, table } from "../../../demo/memoryDemo.ts"

const repoRoot = join(import.meta.dirname, "..", "..", "..")

test("the in-memory demo tells the story: per-replica addresses, pinning, a Pod back on its node; logs go to the file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "demo-test-"))
  try {
    const lines: string[] = []
    const logs = join(dir, "roles.log")
    await Effect.runPromise(runMemoryDemo({ say: (line) => lines.push(line), logs }))
    const text = lines.join("\n")
    assert.match(text, /kafka-0 on node-a reads \/listener\/default-address\/address = 203\.0\.113\.10, ports kafka=\d+ metrics=\d+/u)
    assert.match(text, /kafka-1 on node-b reads \/listener\/default-address\/address = 203\.0\.113\.20/u)
    assert.match(text, /Listener listener-kafka-0 .* reports 203\.0\.113\.10$/mu)
    assert.match(text, /kafka-0 is back on node-a and reads the same address: 203\.0\.113\.10/u)
    const header = lines.findIndex((l) => /^POD\s+NODE\s+ADDRESS\s+PORTS$/u.test(l))
    assert.ok(header >= 0, "a summary table")
    const rows = lines.slice(header + 1, header + 3).map((l) => l.split(/\s{2,}/u))
    assert.deepEqual(rows.map((r) => r.slice(0, 3)), [["kafka-0", "node-a", "203.0.113.10"], ["kafka-1", "node-b", "203.0.113.20"]])
    assert.notEqual(rows[0]![3], rows[1]![3], "each replica has its own node ports")
    assert.match(text, /npm run demo -- --cluster/u)
    // The story is on stdout only; the roles' logs are in the file.
    assert.ok(!lines.some((l) => /level=|"level"/u.test(l)), "no log records in the story")
    assert.match(readFileSync(logs, "utf8"), /level=/u)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test("`listener-operator demo` exits 0 on its own (nothing left running) with the story on stdout", () => {
  // Under Deno, process.execPath is deno; the CLI runs on Node (npm's pinned Node 24 on PATH).
  const node = "Deno" in globalThis ? "node" : process.execPath
  const run = spawnSync(node, ["--import", "tsx", "main.ts", "demo"], { cwd: repoRoot, encoding: "utf8", timeout: 60_000 })
  assert.equal(run.status, 0, run.stderr)
  assert.match(run.stdout, /^listener-operator demo — the in-memory cluster/u)
  assert.match(run.stdout, /kafka-1\s+node-b\s+203\.0\.113\.20/u)
  const logFile = /role logs: (\S+)\)/u.exec(run.stdout)?.[1]
  assert.ok(logFile !== undefined)
  rmSync(logFile, { force: true })
})

test("the summary table pads columns", () => {
  assert.deepEqual(table(["A", "BB"], [["xyz", "1"], ["q", "22"]]), ["A    BB", "xyz  1", "q    22"])
})
