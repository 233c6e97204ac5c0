// The chart's monitoring options with the real Helm (built by test/envtest): nothing is
// rendered unless enabled; enabled, a ServiceMonitor per role (with the `role` and `node`
// labels the alerts select on) and a PrometheusRule that is files/alerts.yaml with the
// configured `for:` durations and rate window — valid rules for promtool; a `for:` of an
// alert that does not exist is refused.
import { after, before, test } from "node:test"
import assert from "node:assert/strict"
import { execFileSync, spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parse, parseAllDocuments, stringify } from "yaml"
import { binDir, binary } from "../envtest/binDir.ts"

const CHART = join(import.meta.dirname, "..", "..", "deploy", "helm", "listener-operator")
let home: string

before(() => {
  home = mkdtempSync(join(tmpdir(), "monitoring-chart-"))
})
after(() => rmSync(home, { recursive: true, force: true }))

const helmTemplate = (...sets: string[]) =>
  spawnSync(binary("helm", binDir()), ["template", "lo", CHART, "--namespace", "lo", ...sets.flatMap((s) => ["--set", s])], {
    encoding: "utf8",
    env: { ...process.env, HELM_CACHE_HOME: join(home, "cache"), HELM_CONFIG_HOME: join(home, "config"), HELM_DATA_HOME: join(home, "data") }
  })

interface Doc { readonly apiVersion: string; readonly kind: string; readonly metadata: { readonly name: string }; readonly spec?: Record<string, unknown> }
const render = (...sets: string[]): Doc[] => {
  const run = helmTemplate(...sets)
  assert.equal(run.status, 0, run.stderr)
  return parseAllDocuments(run.stdout).map((d) => d.toJSON() as Doc).filter((d) => d !== null)
}

const ENABLED = ["monitoring.serviceMonitor.enabled=true", "monitoring.prometheusRule.enabled=true"]

test("off by default: no ServiceMonitor, PrometheusRule or node metrics Service", () => {
  const kinds = render().map((d) => `${d.kind}/${d.metadata.name}`)
  assert.ok(!kinds.some((k) => /ServiceMonitor|PrometheusRule|node-metrics/u.test(k)), kinds.join("\n"))
})

test("a ServiceMonitor per role, each selecting its role's metrics Service and labelling role and node", () => {
  const docs = render(...ENABLED)
  const monitors = docs.filter((d) => d.kind === "ServiceMonitor")
  assert.deepEqual(monitors.map((m) => m.metadata.name).sort(), ["lo-listener-operator-controller", "lo-listener-operator-node"])
  const services = docs.filter((d) => d.kind === "Service")
  for (const monitor of monitors) {
    const selector = (monitor.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels
    const selected = services.filter((s) => Object.entries(selector).every(([k, v]) => (s as unknown as { metadata: { labels: Record<string, string> } }).metadata.labels[k] === v))
    assert.equal(selected.length, 1, `${monitor.metadata.name} selects exactly one Service`)
    assert.ok(JSON.stringify(selected[0]).includes('"name":"metrics"'), "that Service has the port named metrics")
    const endpoint = (monitor.spec as { endpoints: Array<{ port: string; relabelings: Array<{ targetLabel: string }> }> }).endpoints[0]!
    assert.equal(endpoint.port, "metrics")
    assert.deepEqual(endpoint.relabelings.map((r) => r.targetLabel), ["role", "node"])
  }
})

test("the PrometheusRule is files/alerts.yaml with the configured for: and rate window, and promtool accepts it", () => {
  const docs = render(...ENABLED, "monitoring.prometheusRule.for.ListenerNotReady=20s", "monitoring.prometheusRule.rateWindow=30s")
  const rule = docs.find((d) => d.kind === "PrometheusRule")
  assert.ok(rule !== undefined)
  type Groups = { groups: Array<{ name: string; rules: Array<{ alert: string; expr: string; for: string }> }> }
  const rendered = rule.spec as unknown as Groups
  const source = parse(readFileSync(join(CHART, "files", "alerts.yaml"), "utf8")) as Groups
  const alerts = (g: Groups) => g.groups.flatMap((group) => group.rules)
  assert.deepEqual(alerts(rendered).map((r) => r.alert), alerts(source).map((r) => r.alert))
  for (const [i, r] of alerts(rendered).entries()) {
    const original = alerts(source)[i]!
    assert.equal(r.for, r.alert === "ListenerNotReady" ? "20s" : original.for, r.alert)
    assert.equal(r.expr, original.expr.replaceAll("[5m]", "[30s]"), r.alert)
  }
  const file = join(home, "rendered-rules.yaml")
  writeFileSync(file, stringify(rendered))
  execFileSync("promtool", ["check", "rules", file], { stdio: "pipe" })
})

test("a for: of an alert that does not exist is refused, naming it", () => {
  const run = helmTemplate("monitoring.prometheusRule.enabled=true", "monitoring.prometheusRule.for.ListenerNotReadyy=1m")
  assert.notEqual(run.status, 0)
  assert.match(run.stderr, /monitoring\.prometheusRule\.for: no alert named ListenerNotReadyy/u)
})

test("the ServiceMonitors need the controller's metrics Service", () => {
  const run = helmTemplate("monitoring.serviceMonitor.enabled=true", "controller.metricsService.enabled=false")
  assert.notEqual(run.status, 0)
  assert.match(run.stderr, /needs controller\.metricsService\.enabled/u)
})
