/**
 * docs/troubleshooting.md is keyed by the reasons users see (`kubectl get events`,
 * `kubectl describe listener`): every Event reason and Ready condition reason the code
 * emits must have an entry, so a new reason cannot ship undocumented.
 */
import { test } from "node:test"
import assert from "node:assert/strict"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"

const root = join(import.meta.dirname, "..", "..", "..")

const sourceFiles = (dir: string): string[] =>
  readdirSync(join(root, dir)).flatMap((entry) => {
    const path = join(dir, entry)
    if (statSync(join(root, path)).isDirectory()) return sourceFiles(path)
    return path.endsWith(".ts") ? [path] : []
  })

const matchesIn = (text: string, pattern: RegExp): string[] => [...text.matchAll(pattern)].map((m) => m[1]!)

/** Event reasons: literal reasons in files that record Events, the error-policy table, and recordOn calls. */
const eventReasons = (): Set<string> => {
  const reasons = new Set<string>()
  for (const file of ["domain", "effects", "k8s", "csi"].flatMap(sourceFiles)) {
    const text = readFileSync(join(root, file), "utf8")
    for (const reason of matchesIn(text, /\beventReason: "([A-Za-z]+)"/g)) reasons.add(reason)
    for (const reason of matchesIn(text, /\brecordOn\([^;]*?"(?:Normal|Warning)",\s*"([A-Za-z]+)"/g)) reasons.add(reason)
    if (/\.record\(/.test(text)) {
      for (const reason of matchesIn(text, /\breason: "([A-Za-z]+)"/g)) reasons.add(reason)
    }
  }
  return reasons
}

/** Ready condition reasons: the ReadyReason union. */
const conditionReasons = (): Set<string> => {
  const text = readFileSync(join(root, "domain/listenerPlan/desiredStatus.ts"), "utf8")
  const union = /export type ReadyReason =([^]*?)\n\n/.exec(text)?.[1] ?? ""
  return new Set(matchesIn(union, /"([A-Za-z]+)"/g))
}

const troubleshooting = readFileSync(join(root, "docs/troubleshooting.md"), "utf8")

test("docs/troubleshooting.md names every Event reason the code records", () => {
  const reasons = eventReasons()
  // The scan itself must keep working: these come from each kind of source.
  for (const known of ["AwaitingListenerAddress", "NodeAddressUnusable", "InvalidListenerVolume", "ReconcileFailed", "PinnedNodeLost", "StrandedPodDeleted", "InvalidNodeAddressOverride"]) {
    assert.ok(reasons.has(known), `the scan finds ${known}`)
  }
  const missing = [...reasons].filter((reason) => !troubleshooting.includes(`\`${reason}\``))
  assert.deepEqual(missing, [], `Event reasons without an entry in docs/troubleshooting.md: ${missing.join(", ")}`)
})

test("docs/troubleshooting.md names every Ready condition reason", () => {
  const reasons = conditionReasons()
  assert.ok(reasons.has("AwaitingAddresses") && reasons.has("InvalidSpec"), "the scan finds the ReadyReason union")
  const missing = [...reasons].filter((reason) => !troubleshooting.includes(`\`${reason}\``))
  assert.deepEqual(missing, [], `condition reasons without an entry in docs/troubleshooting.md: ${missing.join(", ")}`)
})
