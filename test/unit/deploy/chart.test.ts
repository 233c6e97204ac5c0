// The Helm chart's static parts against their sources of truth, without Helm: the CRDs it
// ships are exactly k8s/crds.yaml, its version is the package's, and its defaults name
// the sidecar version the integration tests run and the spec's preset names; its schema
// offers exactly the values the program's settings decoder accepts and refuses unknown keys.
// Rendering, linting and admission of the chart: test/integration/helmChart.test.ts.
import { test } from "node:test"
import assert from "node:assert/strict"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { parse } from "yaml"
import { Config, ConfigProvider, Effect, Exit } from "effect"
import { DEFAULT_LISTENER_CLASS_PRESET, LISTENER_CLASS_PRESETS } from "../../../domain/constants.ts"
import { LOG_FORMATS, LOG_LEVELS, logFormatConfig, logLevelConfig } from "../../../k8s/operability/logging.ts"

const repoRoot = join(import.meta.dirname, "..", "..", "..")
const chartDir = join(repoRoot, "deploy", "helm", "listener-operator")
const read = (...path: string[]) => readFileSync(join(...path), "utf8")

interface ImageValues {
  readonly repository: string
  readonly tag: string
}
interface ChartValues {
  readonly preset: string
  readonly kubeletDir: string
  readonly metricsPort: number
  readonly logFormat: string
  readonly logLevel: string
  readonly provisioner: { readonly image: ImageValues }
  readonly nodeDriverRegistrar: { readonly image: ImageValues }
}

const values = parse(read(chartDir, "values.yaml")) as ChartValues
const schema = JSON.parse(read(chartDir, "values.schema.json")) as {
  readonly properties: Record<string, { readonly enum?: ReadonlyArray<string> }>
}

test("the chart ships exactly the generated CRDs of k8s/crds.yaml", () => {
  const chartCopy = read(chartDir, "crds", "crds.yaml")
  assert.equal(
    chartCopy,
    read(repoRoot, "k8s", "crds.yaml"),
    "deploy/helm/listener-operator/crds/crds.yaml drifted from k8s/crds.yaml; copy it:\n  cp k8s/crds.yaml deploy/helm/listener-operator/crds/crds.yaml"
  )
})

test("the chart's version and appVersion are the package version", () => {
  const chart = parse(read(chartDir, "Chart.yaml")) as { version: string; appVersion: string }
  const pkg = JSON.parse(read(repoRoot, "package.json")) as { version: string }
  assert.equal(chart.version, pkg.version)
  assert.equal(chart.appVersion, pkg.version)
})

test("the default csi-provisioner is the version the integration tests run (test/envtest/go.mod)", () => {
  const pinned = /^\s*github\.com\/kubernetes-csi\/external-provisioner\/v\d+ (v\S+)/m.exec(read(repoRoot, "test", "envtest", "go.mod"))?.[1]
  assert.ok(pinned !== undefined, "external-provisioner not required in test/envtest/go.mod")
  assert.equal(values.provisioner.image.tag, pinned)
  assert.equal(values.provisioner.image.repository, "registry.k8s.io/sig-storage/csi-provisioner")
  assert.equal(values.nodeDriverRegistrar.image.repository, "registry.k8s.io/sig-storage/csi-node-driver-registrar")
  assert.match(values.nodeDriverRegistrar.image.tag, /^v2\.\d+\.\d+$/)
})

test("the preset value accepts exactly the spec's presets and defaults to the program's default", () => {
  assert.equal(values.preset, DEFAULT_LISTENER_CLASS_PRESET)
  assert.deepEqual([...(schema.properties["preset"]?.enum ?? [])].sort(), [...LISTENER_CLASS_PRESETS].sort())
})

test("the remaining documented defaults", () => {
  assert.equal(values.kubeletDir, "/var/lib/kubelet")
  assert.equal(values.metricsPort, 8080)
  assert.deepEqual(schema.properties["logFormat"]?.enum, ["json", "text"])
  assert.ok(schema.properties["logFormat"]?.enum?.includes(values.logFormat))
})

/** Whether the program's decoder accepts `value` for `config` (as read from its environment variable). */
const decodes = <A>(config: Config.Config<A>, env: string, value: string): boolean =>
  Exit.isSuccess(Effect.runSyncExit(Effect.gen(function*() {
    return yield* config
  }).pipe(Effect.provide(ConfigProvider.layer(ConfigProvider.fromUnknown({ [env]: value }))))))

test("logLevel and logFormat offer exactly what the program's decoder accepts (LOG_LEVEL, LOG_FORMAT)", () => {
  for (const [key, list, config, env] of [["logLevel", LOG_LEVELS, logLevelConfig, "LOG_LEVEL"], ["logFormat", LOG_FORMATS, logFormatConfig, "LOG_FORMAT"]] as const) {
    const offered = schema.properties[key]?.enum ?? []
    assert.deepEqual([...offered].sort(), [...list].sort(), `${key}'s enum`)
    for (const value of offered) assert.ok(decodes(config as Config.Config<unknown>, env, value), `${env}=${value} is accepted`)
    for (const value of ["verbose", "INFO", "xml", ""]) assert.ok(!decodes(config as Config.Config<unknown>, env, value), `${env}=${value} is refused`)
  }
  assert.ok(LOG_LEVELS.includes(values.logLevel as (typeof LOG_LEVELS)[number]))
})

interface SchemaNode {
  readonly type?: string | ReadonlyArray<string>
  readonly properties?: Record<string, SchemaNode>
  readonly additionalProperties?: boolean | SchemaNode
  readonly items?: SchemaNode
  readonly definitions?: Record<string, SchemaNode>
}

test("values.schema.json refuses unknown keys everywhere (a typo is an error, not a silent no-op)", () => {
  // Maps whose keys are the user's (labels, annotations, selectors, `for:` per alert) type
  // their values instead; Kubernetes objects passed through as they are (affinity terms, a
  // rolling update) and the telemetry settings, whose schema is their own, are open on purpose.
  const open = new Set(["/telemetry", "/definitions/affinity/nodeAffinity", "/definitions/affinity/podAffinity", "/definitions/affinity/podAntiAffinity", "/node/updateStrategy/rollingUpdate"])
  const walk = (node: SchemaNode, path: string): void => {
    if (node.properties !== undefined) assert.equal(node.additionalProperties, false, `${path} must set additionalProperties: false`)
    else if (node.type === "object" && !open.has(path)) assert.ok(typeof node.additionalProperties === "object", `${path}: an object without properties must type its values`)
    for (const [key, child] of Object.entries(node.properties ?? {})) walk(child, `${path}/${key}`)
    for (const [key, child] of Object.entries(node.definitions ?? {})) walk(child, `/definitions/${key}`)
  }
  walk(schema as unknown as SchemaNode, "")
})
