// The chart's values with the real Helm (built by test/envtest; no API server needed):
// - every key of the upstream chart (its values.yaml and the keys its templates read,
//   recorded in test/e2e/fixtures/upstream/chart/) does what docs/migration.md's table says:
//   the same here, or `helm template` fails naming our key; unknown keys are refused too;
// - what must work as upstream: serviceAccount.create/name/annotations, labels on every
//   object, image.pullSecrets;
// - values that mean what they say: tolerations added to tolerate-all, the address refresh
//   left to the binary's default when unset, probes of the node container in both
//   registration modes, the OpenShift SCC and SELinux type, NOTES.txt.
import { test } from "node:test"
import assert from "node:assert/strict"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parse } from "yaml"
import { CHART, FULLNAME, NAMESPACE, REPO_ROOT, find, helm, render, sets, template } from "./chartRender.ts"
import type { KubeObject } from "./chartRender.ts"

const UPSTREAM = join(REPO_ROOT, "test", "e2e", "fixtures", "upstream", "chart")
const upstreamValues = parse(readFileSync(join(UPSTREAM, "values.yaml"), "utf8")) as Record<string, unknown>
const templateKeys = (JSON.parse(readFileSync(join(UPSTREAM, "template-keys.json"), "utf8")) as { keys: Record<string, { value: unknown }> }).keys
const upstreamScc = JSON.parse(readFileSync(join(UPSTREAM, "openshift-scc.json"), "utf8")) as { scc: Record<string, unknown>; nodeContainerSeLinuxType: string }

interface Container {
  readonly name: string
  readonly env?: ReadonlyArray<{ readonly name: string; readonly value?: string }>
  readonly ports?: ReadonlyArray<{ readonly name: string; readonly containerPort: number }>
  readonly livenessProbe?: { readonly httpGet?: { readonly path: string; readonly port: string } }
  readonly readinessProbe?: { readonly httpGet?: { readonly path: string; readonly port: string } }
  readonly securityContext?: Record<string, unknown>
}
interface PodSpec {
  readonly serviceAccountName: string
  readonly containers: ReadonlyArray<Container>
  readonly imagePullSecrets?: ReadonlyArray<{ readonly name: string }>
  readonly tolerations?: ReadonlyArray<Record<string, unknown>>
}
interface Workload extends KubeObject {
  readonly spec: { readonly selector: { readonly matchLabels: Record<string, string> }; readonly template: { readonly metadata: { readonly labels: Record<string, string> }; readonly spec: PodSpec } }
}
interface Binding extends KubeObject {
  readonly subjects: ReadonlyArray<{ readonly kind: string; readonly name: string; readonly namespace: string }>
}
interface Rule {
  readonly apiGroups: ReadonlyArray<string>
  readonly resources: ReadonlyArray<string>
  readonly resourceNames?: ReadonlyArray<string>
  readonly verbs: ReadonlyArray<string>
}

const controllerOf = (objects: ReadonlyArray<KubeObject>) => find<Workload>(objects, "Deployment", `${FULLNAME}-controller`)
const nodeOf = (objects: ReadonlyArray<KubeObject>) => find<Workload>(objects, "DaemonSet", `${FULLNAME}-node`)
const containerOf = (workload: Workload, name: string): Container => {
  const found = workload.spec.template.spec.containers.find((c) => c.name === name)
  assert.ok(found !== undefined, `${workload.metadata.name} has no container ${name}`)
  return found
}
const envOf = (c: Container, name: string) => c.env?.find((e) => e.name === name)?.value

/** Every leaf key of a values tree (an empty map or a list is a leaf). */
const leafKeys = (value: unknown, prefix = ""): ReadonlyArray<string> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length > 0
    ? Object.entries(value).flatMap(([k, v]) => leafKeys(v, prefix === "" ? k : `${prefix}.${k}`))
    : [prefix]

const valueAt = (tree: unknown, key: string): unknown =>
  key.split(".").reduce<unknown>((node, part) => (typeof node === "object" && node !== null ? (node as Record<string, unknown>)[part] : undefined), tree)

/** docs/migration.md's table: upstream key → "same" or the key(s) the refusal must name. */
interface Row { readonly upstream: string; readonly refusedFor?: ReadonlyArray<string> }
const migrationTable = (): ReadonlyArray<Row> => {
  const text = readFileSync(join(REPO_ROOT, "docs", "migration.md"), "utf8")
  const start = text.indexOf("<!-- upstream-values:")
  assert.ok(start >= 0, "docs/migration.md has no upstream-values table")
  const lines = text.slice(start).split("\n").slice(1)
  const rows: Row[] = []
  for (const line of lines.slice(2)) {
    if (!line.startsWith("|")) break
    const [upstreamCell, hereCell] = line.split("|").slice(1).map((c) => c.trim())
    const upstream = /^`([^`]+)`$/.exec(upstreamCell ?? "")?.[1]
    assert.ok(upstream !== undefined, `upstream key cell: ${line}`)
    if (hereCell === "same") rows.push({ upstream })
    else {
      assert.match(hereCell ?? "", /^refused: `/, `"same" or "refused: \`our key\`": ${line}`)
      rows.push({ upstream, refusedFor: [...(hereCell ?? "").matchAll(/`([^`]+)`/g)].map((m) => m[1]!) })
    }
  }
  assert.ok(rows.length > 20, `${rows.length} rows`)
  return rows
}

const rowFor = (rows: ReadonlyArray<Row>, key: string): Row | undefined =>
  rows.find((r) => key === r.upstream || key.startsWith(`${r.upstream}.`))

/** Writes `key: value` as a values file (keys with dots in their last part, like label names, stay whole). */
const valuesFile = (entries: ReadonlyArray<readonly [string, unknown]>): string => {
  const tree: Record<string, unknown> = {}
  for (const [key, value] of entries) {
    const parts = key.split(".")
    let node = tree
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>
    node[parts.at(-1)!] = value
  }
  const file = join(mkdtempSync(join(tmpdir(), "upstream-values-")), "values.yaml")
  writeFileSync(file, JSON.stringify(tree))
  return file
}

test("every key of the upstream chart has a row in docs/migration.md's values table, and every row is an upstream key", () => {
  const rows = migrationTable()
  const keys = [...leafKeys(upstreamValues), ...Object.keys(templateKeys)]
  for (const key of keys) assert.ok(rowFor(rows, key) !== undefined, `upstream key ${key} is missing from docs/migration.md ("Helm values")`)
  for (const row of rows) {
    assert.ok(keys.some((k) => k === row.upstream || k.startsWith(`${row.upstream}.`)), `${row.upstream} is in the table but not an upstream key`)
  }
})

test("each upstream key does what the table says: accepted, or refused with a message naming our key", () => {
  const rows = migrationTable()
  // One entry per row: upstream's own value (or the template keys' sample), the whole subtree.
  for (const row of rows) {
    const sample = Object.entries(templateKeys).find(([k]) => k === row.upstream || k.startsWith(`${row.upstream}.`))
    const value = valueAt(upstreamValues, row.upstream) ?? (sample !== undefined ? (sample[0] === row.upstream ? sample[1].value : { [sample[0].slice(row.upstream.length + 1)]: sample[1].value }) : undefined)
    assert.ok(value !== undefined, `no value to try for ${row.upstream}`)
    const file = valuesFile(row.upstream === "labels" ? [["labels", value]] : [[row.upstream, value]])
    const run = template("-f", file)
    if (row.refusedFor === undefined) {
      assert.equal(run.status, 0, `${row.upstream} should be accepted:\n${run.stderr}`)
    } else {
      assert.notEqual(run.status, 0, `${row.upstream}=${JSON.stringify(value)} should be refused`)
      for (const ours of row.refusedFor) assert.ok(run.stderr.includes(ours), `the refusal of ${row.upstream} should name ${ours}:\n${run.stderr}`)
    }
  }
})

test("upstream's whole values.yaml is refused, every key that means something else here named with ours", () => {
  const run = template("-f", join(UPSTREAM, "values.yaml"))
  assert.notEqual(run.status, 0)
  for (const row of migrationTable()) {
    if (row.refusedFor === undefined || valueAt(upstreamValues, row.upstream) === undefined) continue
    for (const ours of row.refusedFor) assert.ok(run.stderr.includes(ours), `names ${ours} for ${row.upstream}:\n${run.stderr}`)
  }
})

test("a typo anywhere is refused, naming where", () => {
  for (const [value, where, name] of [
    ["node.bogus=1", "/node", "bogus"],
    ["bogus=1", "", "bogus"],
    ["controller.resources.request.cpu=1", "/controller/resources", "request"],
    ["monitoring.serviceMonitor.enable=true", "/monitoring/serviceMonitor", "enable"],
    ["provisioner.image.tags=v1", "/provisioner/image", "tags"],
    ["node.securityContext.runAsUsr=0", "/node/securityContext", "runAsUsr"]
  ] as const) {
    const run = template(...sets(value))
    assert.notEqual(run.status, 0, `--set ${value} should be refused`)
    assert.ok(run.stderr.includes(`at '${where}'`) && run.stderr.includes(`'${name}' not allowed`), `--set ${value}:\n${run.stderr}`)
  }
})

test("logLevel outside what the program accepts is refused (logLevel=verbose)", () => {
  const run = template(...sets("logLevel=verbose"))
  assert.notEqual(run.status, 0)
  assert.match(run.stderr, /logLevel/)
  assert.equal(template(...sets("logLevel=warning")).status, 0)
})

test("serviceAccount: one per role by default; annotations on each; create=false makes none; name runs both roles as one (with the node policies off)", () => {
  const annotated = render(...sets("serviceAccount.annotations.eks\\.amazonaws\\.com/role-arn=arn:aws:iam::1:role/x"))
  const accounts = annotated.filter((o) => o.kind === "ServiceAccount")
  assert.deepEqual(accounts.map((a) => a.metadata.name).sort(), [`${FULLNAME}-controller`, `${FULLNAME}-node`])
  for (const account of accounts) assert.equal(account.metadata.annotations?.["eks.amazonaws.com/role-arn"], "arn:aws:iam::1:role/x")
  assert.equal(controllerOf(annotated).spec.template.spec.serviceAccountName, `${FULLNAME}-controller`)
  assert.equal(nodeOf(annotated).spec.template.spec.serviceAccountName, `${FULLNAME}-node`)

  assert.deepEqual(render(...sets("serviceAccount.create=false")).filter((o) => o.kind === "ServiceAccount"), [])

  const refused = template(...sets("serviceAccount.name=custom"))
  assert.notEqual(refused.status, 0)
  assert.match(refused.stderr, /nodeAdmissionPolicy\.enabled=false/)

  const shared = render(...sets("serviceAccount.name=custom", "nodeAdmissionPolicy.enabled=false", "serviceAccount.annotations.a=b"))
  assert.deepEqual(shared.filter((o) => o.kind === "ServiceAccount").map((a) => [a.metadata.name, a.metadata.annotations?.["a"]]), [["custom", "b"]])
  for (const workload of [controllerOf(shared), nodeOf(shared)]) assert.equal(workload.spec.template.spec.serviceAccountName, "custom")
  const bindings = shared.filter((o): o is Binding => o.kind === "ClusterRoleBinding" || o.kind === "RoleBinding")
  assert.equal(bindings.length, 4)
  for (const binding of bindings) assert.deepEqual(binding.subjects, [{ kind: "ServiceAccount", name: "custom", namespace: NAMESPACE }])
  assert.deepEqual(render(...sets("serviceAccount.name=custom", "serviceAccount.create=false", "nodeAdmissionPolicy.enabled=false")).filter((o) => o.kind === "ServiceAccount"), [])
})

test("labels: on every object the chart renders and on its Pods, never in selectors", () => {
  const everything = sets("labels.team=data", "labels.stackable\\.tech/vendor=Stackable", "monitoring.serviceMonitor.enabled=true", "monitoring.prometheusRule.enabled=true", "openshift.securityContextConstraints=true", "nodeAdmissionPolicy.podListenersByPod=true")
  const objects = render(...everything)
  assert.ok(objects.length > 25, `${objects.length} objects`)
  for (const o of objects) {
    assert.equal(o.metadata.labels?.["team"], "data", `${o.kind} ${o.metadata.name}`)
    assert.equal(o.metadata.labels?.["stackable.tech/vendor"], "Stackable", `${o.kind} ${o.metadata.name}`)
  }
  for (const workload of [controllerOf(objects), nodeOf(objects)]) {
    assert.equal(workload.spec.template.metadata.labels["team"], "data")
    assert.equal(workload.spec.selector.matchLabels["team"], undefined, "selectors are immutable: extra labels stay out")
  }
})

test("image.pullSecrets reach both Pods; the old imagePullSecrets is refused naming it", () => {
  const objects = render(...sets("image.pullSecrets[0].name=registry"))
  for (const workload of [controllerOf(objects), nodeOf(objects)]) assert.deepEqual(workload.spec.template.spec.imagePullSecrets, [{ name: "registry" }])
  assert.equal(controllerOf(render()).spec.template.spec.imagePullSecrets, undefined)
  const old = template(...sets("imagePullSecrets[0].name=registry"))
  assert.notEqual(old.status, 0)
  assert.match(old.stderr, /use image\.pullSecrets/)
})

test("image.repository, tag and pullPolicy set the operator image of both roles", () => {
  const objects = render(...sets("image.repository=registry.example.com/lo", "image.tag=9.9.9", "image.pullPolicy=Always"))
  for (const [workload, name] of [[controllerOf(objects), "controller"], [nodeOf(objects), "node"]] as const) {
    const c = containerOf(workload, name) as Container & { image: string; imagePullPolicy: string }
    assert.equal(c.image, "registry.example.com/lo:9.9.9")
    assert.equal(c.imagePullPolicy, "Always")
  }
})

test("node tolerations are added to tolerating every taint; node.tolerateAllTaints=false leaves only them", () => {
  const extra = { key: "dedicated", operator: "Equal", value: "kafka", effect: "NoSchedule" }
  assert.deepEqual(nodeOf(render()).spec.template.spec.tolerations, [{ operator: "Exists" }])
  const added = render("--set-json", `node.tolerations=${JSON.stringify([extra])}`)
  assert.deepEqual(nodeOf(added).spec.template.spec.tolerations, [{ operator: "Exists" }, extra])
  const only = render("--set-json", `node.tolerations=${JSON.stringify([extra])}`, ...sets("node.tolerateAllTaints=false"))
  assert.deepEqual(nodeOf(only).spec.template.spec.tolerations, [extra])
  assert.equal(nodeOf(render(...sets("node.tolerateAllTaints=false"))).spec.template.spec.tolerations, undefined)
})

test("node.addressRefreshSeconds: unset leaves the program's default; 0 and other values are passed as they are", () => {
  const refreshOf = (...values: string[]) => envOf(containerOf(nodeOf(render(...sets(...values))), "node"), "ADDRESS_REFRESH_SECONDS")
  assert.equal(refreshOf(), undefined)
  assert.equal(refreshOf("node.addressRefreshSeconds=0"), "0")
  assert.equal(refreshOf("node.addressRefreshSeconds=45"), "45")
  assert.notEqual(template(...sets("node.addressRefreshSeconds=-1")).status, 0)
})

test("the node container has liveness and readiness probes on its METRICS_PORT in both registration modes", () => {
  for (const mode of ["sidecar", "builtin"]) {
    const node = containerOf(nodeOf(render(...sets(`node.registration=${mode}`, "metricsPort=9091"))), "node")
    assert.equal(envOf(node, "METRICS_PORT"), "9091", mode)
    assert.equal(node.ports?.find((p) => p.name === "probes")?.containerPort, 9091, mode)
    assert.deepEqual(node.livenessProbe?.httpGet, { path: "/healthz", port: "probes" }, mode)
    assert.deepEqual(node.readinessProbe?.httpGet, { path: "/readyz", port: "probes" }, mode)
  }
})

test("OpenShift: with security.openshift.io/v1 served (or the value), upstream's SCC for the node plugin, the right to use it, and spc_t", () => {
  const sccName = `${FULLNAME}-node`
  const check = (objects: ReadonlyArray<KubeObject>) => {
    const { apiVersion, kind, metadata, ...fields } = find(objects, "SecurityContextConstraints", sccName)
    assert.deepEqual([apiVersion, kind], ["security.openshift.io/v1", "SecurityContextConstraints"])
    assert.ok(metadata.name === sccName)
    assert.deepEqual(fields, upstreamScc.scc)
    const nodeRules = (find(objects, "ClusterRole", `${FULLNAME}-node`) as KubeObject & { rules: ReadonlyArray<Rule> }).rules
    assert.ok(nodeRules.some((r) => r.apiGroups.includes("security.openshift.io") && r.resourceNames?.includes(sccName) && r.verbs.includes("use")), "node role may use its SCC")
    const controllerRules = (find(objects, "ClusterRole", `${FULLNAME}-controller`) as KubeObject & { rules: ReadonlyArray<Rule> }).rules
    assert.ok(controllerRules.some((r) => r.resourceNames?.includes("nonroot-v2") && r.verbs.includes("use")), "controller may use nonroot-v2")
    for (const c of nodeOf(objects).spec.template.spec.containers) {
      assert.deepEqual(c.securityContext?.["seLinuxOptions"], { type: upstreamScc.nodeContainerSeLinuxType }, c.name)
    }
  }
  check(render("--api-versions", "security.openshift.io/v1"))
  check(render(...sets("openshift.securityContextConstraints=true")))
  const none = (objects: ReadonlyArray<KubeObject>) => {
    assert.equal(objects.some((o) => o.kind === "SecurityContextConstraints"), false)
    assert.equal(JSON.stringify(objects).includes("security.openshift.io"), false)
    assert.equal(JSON.stringify(objects).includes("spc_t"), false)
  }
  none(render())
  none(render("--api-versions", "security.openshift.io/v1", ...sets("openshift.securityContextConstraints=false")))
  // The user's own SELinux options win.
  const own = render("--api-versions", "security.openshift.io/v1", ...sets("node.securityContext.seLinuxOptions.type=container_t"))
  assert.deepEqual(containerOf(nodeOf(own), "node").securityContext?.["seLinuxOptions"], { type: "container_t" })
})

test("NOTES.txt says what the chart does: the controller keeps the CRDs current (crds.manage), or you do", () => {
  const notes = (...values: string[]) => {
    const run = helm(["install", "lo", CHART, "--namespace", NAMESPACE, "--dry-run=client", ...sets(...values)])
    assert.equal(run.status, 0, run.stderr)
    const at = run.stdout.indexOf("NOTES:")
    assert.ok(at >= 0, run.stdout.slice(-500))
    return run.stdout.slice(at)
  }
  const managed = notes()
  assert.match(managed, /the controller makes this version's CRDs\s+the live ones at every start \(crds\.manage\)/)
  assert.doesNotMatch(managed, /Helm does not upgrade CRDs: on upgrade, apply/)
  assert.match(managed, /external-stable is a LoadBalancer class/)
  const unmanaged = notes("crds.manage=false", "preset=stable-nodes")
  assert.match(unmanaged, /crds\.manage is off/)
  assert.doesNotMatch(unmanaged, /LoadBalancer/)
  assert.match(notes("openshift.securityContextConstraints=true"), /SecurityContextConstraints/)
})
