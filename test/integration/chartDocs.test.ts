// What docs/deploy.md and docs/security.md say the chart deploys and grants, compared with
// what `helm template` (the real Helm built by test/envtest) renders: the list of objects,
// and each RBAC table (marked `<!-- rbac: <kind> <release>-<name> -->`) with the rules of
// that ClusterRole or Role under the default values. A change of the chart that the pages
// do not follow fails here.
import { test } from "node:test"
import assert from "node:assert/strict"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { FULLNAME, REPO_ROOT, render, sets } from "./chartRender.ts"
import type { KubeObject } from "./chartRender.ts"

const page = (name: string) => readFileSync(join(REPO_ROOT, "docs", name), "utf8")

/** The rows of the Markdown table that follows `marker` (after its header and separator). */
const tableAfter = (text: string, marker: string): ReadonlyArray<ReadonlyArray<string>> => {
  const at = text.indexOf(marker)
  assert.ok(at >= 0, `no ${marker}`)
  const lines = text.slice(at).split("\n").slice(1)
  assert.ok(lines[0]?.startsWith("|") && lines[1]?.startsWith("|---"), `a table must follow ${marker}`)
  const rows: Array<ReadonlyArray<string>> = []
  for (const line of lines.slice(2)) {
    if (!line.startsWith("|")) break
    rows.push(line.split("|").slice(1, -1).map((c) => c.trim()))
  }
  return rows
}

const backticked = (cell: string): ReadonlyArray<string> => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!)
const withRelease = (name: string) => name.replace("<release>", FULLNAME)

test("docs/deploy.md lists exactly the objects the chart renders, each under the value that renders it", () => {
  const rows = tableAfter(page("deploy.md"), "<!-- objects:")
  const documented = rows.flatMap(([kind, names, when]) =>
    backticked(names ?? "").map((name) => ({ kind: (kind ?? "").replace(/\s*\(.*\)$/, ""), name: withRelease(name), always: when?.startsWith("always") === true }))
  )
  const key = (o: { kind: string; name: string }) => `${o.kind}/${o.name}`
  // Everything on: every optional object rendered.
  const all = render(
    "--include-crds",
    ...sets(
      "monitoring.serviceMonitor.enabled=true",
      "monitoring.prometheusRule.enabled=true",
      "openshift.securityContextConstraints=true",
      "nodeAdmissionPolicy.podListenersByPod=true"
    )
  )
  assert.deepEqual(documented.map(key).sort(), all.map((o: KubeObject) => key({ kind: o.kind, name: o.metadata.name })).sort())
  // The defaults: every "always" row, and only rows whose value is on by default.
  const defaults = new Set(render("--include-crds").map((o) => key({ kind: o.kind, name: o.metadata.name })))
  for (const o of documented.filter((d) => d.always)) assert.ok(defaults.has(key(o)), `${key(o)} is documented as always rendered`)
  const off = ["SecurityContextConstraints", "ServiceMonitor", "PrometheusRule"]
  for (const k of defaults) assert.ok(!off.some((kind) => k.startsWith(`${kind}/`)), `${k} is rendered by default`)
})

interface Rule {
  readonly apiGroups: ReadonlyArray<string>
  readonly resources: ReadonlyArray<string>
  readonly verbs: ReadonlyArray<string>
}

/** group/resource → verbs, merged over rules. */
const grants = (rules: ReadonlyArray<{ readonly groups: ReadonlyArray<string>; readonly resources: ReadonlyArray<string>; readonly verbs: ReadonlyArray<string> }>) => {
  const map = new Map<string, Set<string>>()
  for (const rule of rules) {
    for (const group of rule.groups) {
      for (const resource of rule.resources) {
        const k = `${group === "" ? "core" : group}/${resource}`
        const verbs = map.get(k) ?? new Set<string>()
        for (const verb of rule.verbs) verbs.add(verb)
        map.set(k, verbs)
      }
    }
  }
  return Object.fromEntries([...map].map(([k, v]) => [k, [...v].sort()]).sort(([a], [b]) => String(a).localeCompare(String(b))))
}

for (const name of ["deploy.md", "security.md"]) {
  test(`docs/${name}: every RBAC table is the rendered ClusterRole or Role`, () => {
    const text = page(name)
    const markers = [...text.matchAll(/<!-- rbac: (ClusterRole|Role) (\S+) -->/g)]
    assert.ok(markers.length >= 2, `${name} has ${markers.length} RBAC tables`)
    const rendered = render()
    for (const [marker, kind, roleName] of markers) {
      const role = rendered.find((o) => o.kind === kind && o.metadata.name === withRelease(roleName!)) as (KubeObject & { rules: ReadonlyArray<Rule> }) | undefined
      assert.ok(role !== undefined, `${marker}: no such ${kind} rendered`)
      const documented = tableAfter(text, marker).map(([group, resources, verbs]) => ({
        groups: [(group ?? "").replaceAll("`", "")].map((g) => (g === "core" ? "" : g)),
        resources: (resources ?? "").replace(/\s*\(.*\)$/, "").split(",").map((r) => r.trim()),
        verbs: (verbs ?? "").split(",").map((v) => v.trim())
      }))
      assert.deepEqual(grants(documented), grants(role.rules.map((r) => ({ groups: r.apiGroups, resources: r.resources, verbs: r.verbs }))), `${name} ${marker}`)
    }
  })
}
