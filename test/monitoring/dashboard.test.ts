// The Grafana dashboard (deploy/grafana/listener-operator.json): it has the panels users
// need, every query is valid PromQL (promtool parses each as a recording rule) and reads
// only documented series. That each returns data from a real Prometheus scraping the real
// cluster: test/e2e/monitoring.test.ts.
import { test } from "node:test"
import assert from "node:assert/strict"
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { stringify } from "yaml"
import { dashboardPanels, promql } from "./dashboard.ts"

const deployDoc = readFileSync(join(import.meta.dirname, "..", "..", "docs", "deploy.md"), "utf8")

test("the dashboard has Listeners by state, reconcile rate and latency, queue depth, publish latency per node, API requests by role", () => {
  const titles = dashboardPanels().map((p) => p.title)
  for (const wanted of [/^Listeners by state$/u, /reconciles per second/u, /reconcile latency/u, /queue depth/iu, /NodePublishVolume latency per node/u, /API requests .*by role/u]) {
    assert.ok(titles.some((t) => wanted.test(t)), `a panel matching ${wanted}: ${titles.join(" | ")}`)
  }
})

test("every panel query is valid PromQL and reads only series docs/deploy.md documents", () => {
  const panels = dashboardPanels()
  const dir = mkdtempSync(join(tmpdir(), "dashboard-"))
  try {
    const rules = panels.flatMap((panel, i) => panel.targets.map((t, j) => ({ record: `dashboard:panel_${i}_${j}`, expr: promql(t.expr, "5m") })))
    assert.equal(rules.length, panels.length, "one query per panel")
    writeFileSync(join(dir, "queries.yaml"), stringify({ groups: [{ name: "dashboard", rules }] }))
    execFileSync("promtool", ["check", "rules", join(dir, "queries.yaml")], { stdio: "pipe" })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  for (const panel of panels) {
    for (const { expr } of panel.targets) {
      const series = [...expr.matchAll(/\b([a-z_:]+_(?:total|seconds|depth|status|listeners|volumes|count|bucket))\b/gu)].map((m) => m[1]!)
      assert.ok(series.length > 0, `${panel.title}: names a series`)
      for (const name of series) {
        const documented = name.replace(/_(bucket|count|sum)$/u, "")
        assert.ok(deployDoc.includes(`\`${documented}`), `${panel.title}: ${name} is documented in docs/deploy.md#monitoring`)
      }
    }
  }
})
