import { test } from "node:test"
import assert from "node:assert/strict"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { runExample } from "../../../examples/custom-distribution.ts"

test("examples/custom-distribution.ts: an own preset, both roles on sockets over the in-memory cluster, a published volume", async () => {
  const dir = mkdtempSync(join(tmpdir(), "custom-distribution-test-"))
  try {
    const result = await Effect.runPromise(runExample(dir))
    assert.equal(result.address, "198.51.100.7")
    assert.match(result.ports["kafka"] ?? "", /^3\d{4}$/u)
    assert.deepEqual(result.listenerAddresses, ["198.51.100.7"])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
