/**
 * Every alert of the chart's rules (deploy/helm/listener-operator/files/alerts.yaml) has a
 * runbook: a `### <Alert>` section in docs/troubleshooting.md, which its description links.
 */
import { test } from "node:test"
import assert from "node:assert/strict"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { parse } from "yaml"

const root = join(import.meta.dirname, "..", "..", "..")
const rules = parse(readFileSync(join(root, "deploy/helm/listener-operator/files/alerts.yaml"), "utf8")) as {
  groups: Array<{ rules: Array<{ alert: string; annotations: { description: string } }> }>
}
const troubleshooting = readFileSync(join(root, "docs/troubleshooting.md"), "utf8")

test("every alert has a runbook section in docs/troubleshooting.md, linked from its description", () => {
  const alerts = rules.groups.flatMap((group) => group.rules)
  assert.ok(alerts.length >= 5, "sanity: the rules file has its alerts")
  for (const { alert, annotations } of alerts) {
    assert.match(troubleshooting, new RegExp(`^### ${alert}$`, "mu"), `docs/troubleshooting.md has no "### ${alert}" section`)
    assert.ok(annotations.description.includes(`docs/troubleshooting.md#${alert.toLowerCase()}`), `${alert}'s description links its runbook`)
  }
})
