/**
 * docs/troubleshooting.md is keyed by reason: every Event reason and Ready condition reason
 * the operator writes must have its entry there (what is missing, what unblocks it). The
 * reasons are read from the source of every program that records Events — found by their
 * `events.record(` calls, so a new writer cannot be missed — and from the Listener error
 * policies.
 */
import { test } from "node:test"
import assert from "node:assert/strict"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { errorPolicies } from "../../../effects/listenerErrors.ts"

const root = join(import.meta.dirname, "..", "..", "..")

const sourceFiles = (dir: string): Array<string> =>
  readdirSync(join(root, dir)).flatMap((entry) => {
    const path = join(dir, entry)
    if (statSync(join(root, path)).isDirectory()) return sourceFiles(path)
    return path.endsWith(".ts") ? [path] : []
  })

const REASON_LITERALS = [
  /\b(?:reason|eventReason|condition): "([A-Z][A-Za-z]+)"/gu,
  // releasePinnedVolume.ts: recordOn(subjects, "Warning", "PinnedNodeLost", …)
  /recordOn\([^"]*"(?:Normal|Warning)", "([A-Z][A-Za-z]+)"/gu
]

const eventWriters = ["effects", "k8s", "csi"].flatMap(sourceFiles).filter((file) => readFileSync(join(root, file), "utf8").includes("events.record("))

const reasonsWritten = (): ReadonlySet<string> => {
  const reasons = new Set<string>()
  for (const file of eventWriters) {
    const text = readFileSync(join(root, file), "utf8")
    for (const pattern of REASON_LITERALS) for (const match of text.matchAll(pattern)) reasons.add(match[1]!)
  }
  for (const policy of Object.values(errorPolicies)) {
    reasons.add(policy.eventReason)
    if (policy.condition !== undefined) reasons.add(policy.condition)
  }
  return reasons
}

test("the scan finds the programs that record Events and their reasons", () => {
  // Guards the guard: a scan that found nothing would pass the test below vacuously.
  assert.deepEqual(eventWriters.sort(), ["effects/reconcileListener.ts", "effects/releasePinnedVolume.ts", "effects/volumeWaiting.ts"])
  const reasons = reasonsWritten()
  for (const known of ["AwaitingNodePorts", "NodeAddressUnusable", "InvalidNodeAddressOverride", "NodePortConflict", "HostnameTemplateUnusable", "PinnedNodeLost", "InvalidSpec"]) {
    assert.ok(reasons.has(known), `the scan finds ${known}`)
  }
})

test("docs/troubleshooting.md has an entry for every reason the operator writes", () => {
  const doc = readFileSync(join(root, "docs", "troubleshooting.md"), "utf8")
  // An entry is a table row that starts with the reason in backticks (possibly after others).
  const rows = doc.split("\n").filter((line) => line.startsWith("| `"))
  const missing = [...reasonsWritten()].filter((reason) => !rows.some((row) => row.split("|")[1]!.includes(`\`${reason}\``)))
  assert.deepEqual(missing, [])
})
