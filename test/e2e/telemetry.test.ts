// OpenTelemetry export as a user turns it on: the chart's upstream-named `telemetry` values
// point both roles at a real collector — Jaeger v2 (test/collector/, built from the Go
// module proxy), run in node-a's network namespace like the monitoring suite's Prometheus,
// so the operator's Pods reach it over the Pod network. After a Pod with a listener volume
// starts, Jaeger's query API returns the trace of its NodePublishVolume with the API
// requests inside it, and the trace of the Listener reconcile that gave it an address.
// Jaeger stores traces only: its logs pipeline goes to the collector's debug exporter,
// whose output (Jaeger's own log) must show a log record carrying that trace's id.
import assert from "node:assert/strict"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { after, before, describe, test } from "node:test"
import { stringify } from "yaml"
import { LISTENER_API_VERSION } from "../../domain/constants.ts"
import { jaegerBinary } from "../collector/binDir.ts"
import { createNamespace, eventually } from "../envtest/kubeClient.ts"
import type { KubeClient } from "../envtest/kubeClient.ts"
import { isPodReady } from "../envtest/localCluster.ts"
import { spawnTracked } from "../envtest/processes.ts"
import type { TrackedProcess } from "../envtest/processes.ts"
import { names, nodeAddress } from "../realnodes/network.ts"
import { startOperatorCluster } from "../realnodes/operatorCluster.ts"
import type { OperatorCluster } from "../realnodes/operatorCluster.ts"
import { ephemeralPod, listenerClass } from "./workloads.ts"

const log = process.env["E2E_LOG"] !== undefined ? (line: string) => console.error(line) : undefined
const NS = "telemetry"
const NODES = ["node-a", "node-b"] as const
const WAIT = { timeoutMs: 240_000, intervalMs: 1000 }
/** node-a's address on the node bridge (the cluster's first node), where Jaeger listens. */
const COLLECTOR = nodeAddress(0)
const OTLP = `http://${COLLECTOR}:4318`
const QUERY = `http://${COLLECTOR}:16686`

interface JaegerSpan {
  readonly traceID: string
  readonly spanID: string
  readonly operationName: string
  readonly references: ReadonlyArray<{ readonly refType: string; readonly spanID: string }>
  readonly tags: ReadonlyArray<{ readonly key: string; readonly value: unknown }>
}
interface JaegerTrace { readonly traceID: string; readonly spans: ReadonlyArray<JaegerSpan> }

const tag = (span: JaegerSpan, key: string): unknown => span.tags.find((t) => t.key === key)?.value

const jaegerConfig = (storageLimit: number) => ({
  service: {
    extensions: ["jaeger_storage", "jaeger_query"],
    pipelines: {
      traces: { receivers: ["otlp"], exporters: ["jaeger_storage_exporter"] },
      logs: { receivers: ["otlp"], exporters: ["debug"] }
    },
    telemetry: { metrics: { level: "none" }, logs: { level: "info" } }
  },
  extensions: {
    jaeger_query: { storage: { traces: "mem" }, enable_tracing: false, http: { endpoint: `${COLLECTOR}:16686` }, grpc: { endpoint: `${COLLECTOR}:16685` } },
    jaeger_storage: { backends: { mem: { memory: { max_traces: storageLimit } } } }
  },
  receivers: { otlp: { protocols: { http: { endpoint: `${COLLECTOR}:4318` } } } },
  exporters: { jaeger_storage_exporter: { trace_storage: "mem" }, debug: { verbosity: "detailed" } }
})

describe("OpenTelemetry export to a real collector (Jaeger v2) from both roles on real kubelets", { timeout: 1_800_000 }, () => {
  let operator: OperatorCluster
  let kube: KubeClient
  let jaeger: TrackedProcess | undefined
  let work: string

  const traces = async (operation: string): Promise<ReadonlyArray<JaegerTrace>> => {
    const url = `${QUERY}/api/traces?service=listener-operator&operation=${encodeURIComponent(operation)}&limit=200&lookback=1h`
    const response = await fetch(url)
    assert.equal(response.status, 200, `${url}: ${await response.clone().text()}`)
    return ((await response.json()) as { data: ReadonlyArray<JaegerTrace> | null }).data ?? []
  }

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "e2e-jaeger-"))
    writeFileSync(join(work, "jaeger.yaml"), stringify(jaegerConfig(10_000)))
    operator = await startOperatorCluster({
      nodes: [...NODES],
      log,
      // Jaeger first, in node-a's namespace: the operator exports from its first reconcile.
      beforeInstall: async (cluster) => {
        jaeger = spawnTracked({
          name: "jaeger",
          command: "ip",
          args: ["netns", "exec", names(cluster.runId).netns(0), jaegerBinary(), "--config", join(work, "jaeger.yaml")],
          logPath: join(work, "jaeger.log")
        })
        await eventually("Jaeger's query API answers", async () => {
          if (!jaeger!.running()) throw new Error(`jaeger exited:\n${jaeger!.logTail(30)}`)
          return (await fetch(`${QUERY}/api/services`).catch(() => undefined))?.ok === true
        }, WAIT)
      },
      values: [
        "telemetry.otelTraceExporter.enabled=true",
        `telemetry.otelTraceExporter.endpoint=${OTLP}/v1/traces`,
        "telemetry.otelLogExporter.enabled=true",
        `telemetry.otelLogExporter.endpoint=${OTLP}/v1/logs`,
        // export within half a second, so the test does not wait for the default 5 s
        "telemetry.env.OTEL_BSP_SCHEDULE_DELAY=500",
        "telemetry.env.OTEL_BLRP_SCHEDULE_DELAY=500"
      ]
    })
    kube = operator.cluster.kube
    await createNamespace(kube, NS)
    await kube.create(`/apis/${LISTENER_API_VERSION}/listenerclasses`, listenerClass("telemetry-cluster-ip", { serviceType: "ClusterIP" }))
    await kube.create(`/api/v1/namespaces/${NS}/pods`, ephemeralPod("app", NS, "telemetry-cluster-ip", "node-a"))
    await eventually("app ready", async () => isPodReady(await kube.get(`/api/v1/namespaces/${NS}/pods/app`)), WAIT)
  })

  after(async () => {
    await jaeger?.stop()
    await operator?.stop()
    if (work !== undefined) rmSync(work, { recursive: true, force: true })
  })

  test("the Pod's NodePublishVolume is a trace with the API requests it made inside it, and a log record carries its trace id", async () => {
    const publish = await eventually("a NodePublishVolume trace with requests in the test namespace", async () =>
      (await traces("/csi.v1.Node/NodePublishVolume")).find((trace) =>
        trace.spans.some((s) => tag(s, "k8s.namespace.name") === NS && tag(s, "k8s.verb") !== undefined)), WAIT)
    const root = publish.spans.find((s) => s.operationName === "/csi.v1.Node/NodePublishVolume")!
    assert.equal(tag(root, "rpc.system"), "grpc")
    const requests = publish.spans.filter((s) => tag(s, "k8s.verb") !== undefined)
    assert.ok(requests.length >= 1, "the publish made API requests")
    for (const request of requests) {
      assert.equal(request.traceID, root.traceID)
      assert.match(String(tag(request, "http.response.status_code")), /^\d{3}$/u, `${request.operationName} has its status code`)
      assert.ok(request.references.some((r) => r.refType === "CHILD_OF"), `${request.operationName} is a child span`)
      assert.equal(request.operationName, `${String(tag(request, "k8s.verb"))} ${String(tag(request, "k8s.resource"))}`)
    }
    // Jaeger keeps no logs; its debug exporter prints each log record it receives, with the
    // record's trace id: the publish's "CSI call" line is among them.
    const logged = await eventually("a log record with the publish's trace id", async () =>
      readFileSync(join(work, "jaeger.log"), "utf8").includes(`Trace ID: ${root.traceID}`), WAIT)
    assert.ok(logged)
  })

  test("the Listener reconcile that gave the Pod its address is a trace with its status write inside it", async () => {
    const listenerName = await eventually("the Pod's Listener", async () => {
      const list = await kube.list(`/apis/${LISTENER_API_VERSION}/namespaces/${NS}/listeners`)
      const listener = list.items.find((l) => ((l["status"] as { ingressAddresses?: unknown[] } | undefined)?.ingressAddresses ?? []).length > 0)
      return listener?.metadata.name
    }, WAIT)
    const reconcile = await eventually("a reconcile trace of that Listener writing its status", async () =>
      (await traces("reconcile listener")).find((trace) =>
        trace.spans.some((s) => s.operationName === "reconcile listener" && String(tag(s, "key")).includes(listenerName)) &&
        trace.spans.some((s) => String(tag(s, "k8s.resource")).startsWith("listeners.listeners.stackable.tech/status") && tag(s, "http.response.status_code") === 200)), WAIT)
    const statusWrite = reconcile.spans.find((s) => String(tag(s, "k8s.resource")).startsWith("listeners.listeners.stackable.tech/status"))!
    assert.equal(tag(statusWrite, "k8s.namespace.name"), NS)
    // both roles export, under the service name and with their role
    const services = ((await (await fetch(`${QUERY}/api/services`)).json()) as { data: string[] }).data
    assert.ok(services.includes("listener-operator"), services.join(", "))
  })
})
