// A run killed with SIGKILL (no cleanup code can run) leaves containers, shims, mounts,
// namespaces and an interface behind; the sweeper (test/realnodes/runs.ts), which the next
// start and the leftover check call, removes all of it.
import assert from "node:assert/strict"
import { spawn } from "node:child_process"
import { join } from "node:path"
import { test } from "node:test"
import { leftovers, recordedRuns, sweepDeadRuns } from "../realnodes/runs.ts"

test("after a SIGKILLed run with a running Pod, the sweeper leaves nothing behind", { timeout: 300_000 }, async () => {
  const child = spawn(process.execPath, ["--import", "tsx", join(import.meta.dirname, "fixtures", "holdRealCluster.ts")], {
    stdio: ["ignore", "pipe", "inherit"]
  })
  const runId = await new Promise<string>((resolve, reject) => {
    let out = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk
      const match = /READY (\S+)/u.exec(out)
      if (match !== null) resolve(match[1]!)
    })
    child.on("exit", (code) => reject(new Error(`the run exited (${code}) before it was ready`)))
  })
  child.kill("SIGKILL")
  await new Promise((resolve) => child.once("close", resolve))
  assert.ok(recordedRuns().some((run) => run.runId === runId), "the killed run is still recorded")
  assert.ok(leftovers().length > 0, "the killed run left things behind")
  const swept = await sweepDeadRuns()
  assert.deepEqual(swept.map((run) => run.runId), [runId])
  assert.deepEqual(leftovers(), [])
})
