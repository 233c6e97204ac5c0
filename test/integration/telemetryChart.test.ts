// The chart's `telemetry` values (upstream's names) become upstream's environment variables
// on both roles, with an emptyDir for the rolling log files; by default nothing changes;
// a misspelt key is refused by values.schema.json. The real Helm of test/envtest.
import { test } from "node:test"
import assert from "node:assert/strict"
import { spawnSync } from "node:child_process"
import { join } from "node:path"
import { parseAllDocuments } from "yaml"
import { binary } from "../envtest/binDir.ts"

const CHART = join(import.meta.dirname, "..", "..", "deploy", "helm", "listener-operator")

interface Container { readonly name: string; readonly env?: ReadonlyArray<{ name: string; value?: string }>; readonly volumeMounts?: ReadonlyArray<{ name: string; mountPath: string }> }
interface Workload { readonly kind: string; readonly spec: { readonly template: { readonly spec: { readonly containers: ReadonlyArray<Container>; readonly volumes?: ReadonlyArray<{ name: string; emptyDir?: unknown }> } } } }

const template = (...values: ReadonlyArray<string>) =>
  spawnSync(binary("helm"), ["template", "t", CHART, ...values.flatMap((v) => ["--set", v])], { encoding: "utf8" })

const roles = (...values: ReadonlyArray<string>) => {
  const run = template(...values)
  assert.equal(run.status, 0, run.stderr)
  const workloads = parseAllDocuments(run.stdout).map((d) => d.toJS() as Workload | null)
    .filter((o): o is Workload => o !== null && (o.kind === "Deployment" || o.kind === "DaemonSet"))
  assert.equal(workloads.length, 2)
  return workloads.map((w) => ({
    workload: w,
    operator: w.spec.template.spec.containers.find((c) => c.name === "controller" || c.name === "node")!
  }))
}

const envOf = (c: Container) => Object.fromEntries((c.env ?? []).filter((e) => e.value !== undefined).map((e) => [e.name, e.value]))

test("by default no telemetry variable is set and no log volume is mounted", () => {
  for (const { workload, operator } of roles()) {
    assert.deepEqual(Object.keys(envOf(operator)).filter((n) => /^(OTEL_|FILE_LOG|CONSOLE_LOG)/u.test(n)), [])
    assert.equal(workload.spec.template.spec.volumes?.some((v) => v.name === "log-dir"), false)
  }
})

test("upstream's telemetry values set upstream's variables on both roles, with an emptyDir at /logs for the files", () => {
  for (const { workload, operator } of roles(
    "telemetry.consoleLog.enabled=false",
    "telemetry.consoleLog.level=debug",
    "telemetry.fileLog.enabled=true",
    "telemetry.otelTraceExporter.enabled=true",
    "telemetry.otelTraceExporter.endpoint=http://collector:4318/v1/traces",
    "telemetry.otelLogExporter.enabled=true",
    "telemetry.otelLogExporter.level=warn",
    "telemetry.env.OTEL_RESOURCE_ATTRIBUTES=deployment.environment=test"
  )) {
    const env = envOf(operator)
    assert.equal(env.CONSOLE_LOG_DISABLED, "true")
    assert.equal(env.CONSOLE_LOG_LEVEL, "debug")
    assert.equal(env.FILE_LOG_DIRECTORY, "/logs")
    assert.equal(env.FILE_LOG_ROTATION_PERIOD, "hourly")
    assert.equal(env.FILE_LOG_MAX_FILES, "6")
    assert.equal(env.OTEL_TRACE_EXPORTER_ENABLED, "true")
    assert.equal(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, "http://collector:4318/v1/traces")
    assert.equal(env.OTEL_LOG_EXPORTER_ENABLED, "true")
    assert.equal(env.OTEL_LOG_EXPORTER_LEVEL, "warn")
    assert.equal(env.OTEL_RESOURCE_ATTRIBUTES, "deployment.environment=test")
    assert.ok(operator.volumeMounts?.some((m) => m.name === "log-dir" && m.mountPath === "/logs"))
    assert.ok(workload.spec.template.spec.volumes?.some((v) => v.name === "log-dir" && v.emptyDir !== undefined))
  }
})

test("a misspelt telemetry key, a bad rotation period or a non-OTEL env name is refused by the schema", () => {
  for (const value of ["telemetry.otelTraceExporter.enabeld=true", "telemetry.fileLog.rotationPeriod=weekly", "telemetry.env.FOO=1"]) {
    const run = template(value)
    assert.notEqual(run.status, 0, `--set ${value} should fail`)
    assert.match(run.stderr, /values don't meet the specifications of the schema/u)
  }
})
