// Monitoring as a user gets it: a real Prometheus (Debian's package) scrapes both roles of
// the chart-installed operator on the real-node cluster, with the chart's own alert rules
// (rendered by Helm from files/alerts.yaml, `for:` shortened through the chart values so
// the test runs in seconds). It sees every series docs/deploy.md documents; a Listener of a
// missing class fires ListenerNotReady and creating the class resolves it; a node plugin
// stopped on one node fires ListenerNodePluginMissing for that node and bringing it back
// resolves it; every panel of the Grafana dashboard (deploy/grafana/) returns data.
//
// Prometheus runs in node-a's network namespace, which routes to both nodes' Pod networks;
// the test queries it from the host over the node bridge. Debian builds Prometheus without
// kubernetes_sd, so the test discovers the operator's Pods as the chart's ServiceMonitors
// would and hands them over as a file_sd file.
import assert from "node:assert/strict"
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { after, before, describe, test } from "node:test"
import { parseAllDocuments, stringify } from "yaml"
import { LISTENER_API_VERSION } from "../../domain/constants.ts"
import { createNamespace, eventually } from "../envtest/kubeClient.ts"
import type { KubeClient } from "../envtest/kubeClient.ts"
import { spawnTracked } from "../envtest/processes.ts"
import type { TrackedProcess } from "../envtest/processes.ts"
import { isPodReady } from "../envtest/localCluster.ts"
import { dashboardPanels, promql } from "../monitoring/dashboard.ts"
import { names } from "../realnodes/network.ts"
import { METALLB_ANNOTATIONS } from "../clusteraddons/metallb.ts"
import { CHART_DIR, OPERATOR_NAMESPACE, RELEASE, startOperatorCluster } from "../realnodes/operatorCluster.ts"
import type { OperatorCluster } from "../realnodes/operatorCluster.ts"
import { ephemeralPod, listenerClass } from "./workloads.ts"

const log = process.env["E2E_LOG"] !== undefined ? (line: string) => console.error(line) : undefined
const NS = "monitoring"
const NODES = ["node-a", "node-b"] as const
const LISTENERS = `/apis/${LISTENER_API_VERSION}`
const WAIT = { timeoutMs: 240_000, intervalMs: 1000 }
const PROMETHEUS_PORT = 9090
/** The chart's metricsPort (default), which both roles serve with node.registration=builtin. */
const METRICS_PORT = 8080
/** Scrape and rule evaluation every second; alerts fire after 3 s; rates over 20 s. */
const SCRAPE_INTERVAL = "1s"
const ALERT_FOR = "3s"
const RATE_WINDOW = "20s"
const ALERTS = ["ListenerNotReady", "ListenerReconcileErrors", "ListenerVolumePublishFailing", "ListenerOperatorNoLeader", "ListenerNodePluginMissing"]
const DAEMONSET = `/apis/apps/v1/namespaces/${OPERATOR_NAMESPACE}/daemonsets/${RELEASE}-node`

interface Sample { readonly metric: Record<string, string>; readonly value: [number, string] }
interface Alert { readonly labels: Record<string, string>; readonly state: string }

/** The series names of docs/deploy.md's Monitoring table (first column, in backticks). */
const documentedSeries = (): string[] => {
  const doc = readFileSync(join(import.meta.dirname, "..", "..", "docs", "deploy.md"), "utf8")
  const table = doc.slice(doc.indexOf("## Monitoring"), doc.indexOf("## Upgrading"))
  return [...new Set(table.split("\n").filter((line) => line.startsWith("| `")).flatMap((line) =>
    [...line.split(" | ")[0]!.matchAll(/`([a-z][a-z_]+)[{`]/gu)].map((m) => m[1]!)))]
}

describe("a real Prometheus scrapes both roles on real kubelets: series, alerts, dashboard", { timeout: 1_800_000 }, () => {
  let operator: OperatorCluster
  let kube: KubeClient
  let prometheus: TrackedProcess | undefined
  let work: string
  let base: string
  let discovery: ReturnType<typeof setInterval> | undefined

  /**
   * Service discovery as the chart's ServiceMonitors do it — the operator's running Pods, on
   * their HTTP port, labelled role / node / namespace / pod — into a file_sd file (Debian's
   * Prometheus is built without kubernetes_sd). Written every second, replaced atomically.
   */
  const writeTargets = async (): Promise<void> => {
    const pods = (await kube.list(`/api/v1/namespaces/${OPERATOR_NAMESPACE}/pods`, { labelSelector: `app.kubernetes.io/instance=${RELEASE}` })).items
    const groups = pods.flatMap((pod) => {
      const ip = pod.status?.["podIP"] as string | undefined
      const role = pod.metadata.labels?.["app.kubernetes.io/component"]
      if (ip === undefined || pod.status?.["phase"] !== "Running" || pod.metadata.deletionTimestamp !== undefined) return []
      return [{ targets: [`${ip}:${METRICS_PORT}`], labels: { role, node: pod.spec?.nodeName, namespace: OPERATOR_NAMESPACE, pod: pod.metadata.name } }]
    })
    writeFileSync(join(work, "targets.json.next"), JSON.stringify(groups))
    renameSync(join(work, "targets.json.next"), join(work, "targets.json"))
  }

  const query = async (expr: string): Promise<Sample[]> => {
    const response = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(expr)}`)
    const body = await response.json() as { status: string; error?: string; data: { result: Sample[] } }
    assert.equal(body.status, "success", `${expr}: ${body.error ?? ""}`)
    return body.data.result
  }
  const alerts = async (): Promise<Alert[]> => ((await (await fetch(`${base}/api/v1/alerts`)).json()) as { data: { alerts: Alert[] } }).data.alerts
  const firing = (name: string, labels: Record<string, string> = {}) =>
    eventually(`${name} firing`, async () =>
      (await alerts()).find((a) => a.labels["alertname"] === name && a.state === "firing" && Object.entries(labels).every(([k, v]) => a.labels[k] === v)), WAIT)
  const resolved = (name: string) =>
    eventually(`${name} resolved`, async () => !(await alerts()).some((a) => a.labels["alertname"] === name), WAIT)

  /** The chart's PrometheusRule spec, rendered by Helm with this test's `for:` and rate window. */
  const renderedRules = async (): Promise<unknown> => {
    const run = await operator.helm([
      "template", RELEASE, CHART_DIR, "--namespace", OPERATOR_NAMESPACE, "--show-only", "templates/monitoring-prometheusrule.yaml",
      "--set", "monitoring.prometheusRule.enabled=true", "--set", `monitoring.prometheusRule.rateWindow=${RATE_WINDOW}`,
      ...ALERTS.flatMap((alert) => ["--set", `monitoring.prometheusRule.for.${alert}=${ALERT_FOR}`])
    ])
    assert.equal(run.code, 0, run.stderr)
    const rule = parseAllDocuments(run.stdout).map((d) => d.toJSON() as { kind?: string; spec?: unknown }).find((d) => d?.kind === "PrometheusRule")
    assert.ok(rule?.spec !== undefined, "the chart renders a PrometheusRule")
    return rule.spec
  }

  before(async () => {
    operator = await startOperatorCluster({ nodes: [...NODES], log })
    kube = operator.cluster.kube
    await createNamespace(kube, NS)
    work = mkdtempSync(join(tmpdir(), "e2e-prometheus-"))
    const nodeA = operator.cluster.nodes.findIndex((n) => n.name === "node-a")
    const address = operator.cluster.nodes[nodeA]!.ip
    base = `http://${address}:${PROMETHEUS_PORT}`
    writeFileSync(join(work, "rules.yaml"), stringify(await renderedRules()))
    writeFileSync(join(work, "prometheus.yaml"), stringify({
      global: { scrape_interval: SCRAPE_INTERVAL, scrape_timeout: SCRAPE_INTERVAL, evaluation_interval: SCRAPE_INTERVAL },
      rule_files: [join(work, "rules.yaml")],
      scrape_configs: [{ job_name: "listener-operator", file_sd_configs: [{ files: [join(work, "targets.json")], refresh_interval: "1s" }] }]
    }))
    await writeTargets()
    discovery = setInterval(() => void writeTargets().catch(() => undefined), 1000)
    prometheus = spawnTracked({
      name: "prometheus",
      command: "ip",
      args: ["netns", "exec", names(operator.cluster.runId).netns(nodeA), "prometheus",
        `--config.file=${join(work, "prometheus.yaml")}`, `--storage.tsdb.path=${join(work, "data")}`,
        `--web.listen-address=${address}:${PROMETHEUS_PORT}`, "--log.level=warn"],
      logPath: join(work, "prometheus.log")
    })
    await eventually("Prometheus ready", async () => {
      if (!prometheus!.running()) throw new Error(`prometheus exited:\n${prometheus!.logTail(30)}`)
      return (await fetch(`${base}/-/ready`).catch(() => undefined))?.ok === true
    }, WAIT)
    // A working Listener on each node, so every role has served CSI calls and published volumes.
    await kube.create(`${LISTENERS}/listenerclasses`, listenerClass("monitoring-cluster-ip", { serviceType: "ClusterIP" }))
    for (const node of NODES) await kube.create(`/api/v1/namespaces/${NS}/pods`, ephemeralPod(`app-${node}`, NS, "monitoring-cluster-ip", node))
    for (const node of NODES) {
      await eventually(`app-${node} ready`, async () => isPodReady(await kube.get(`/api/v1/namespaces/${NS}/pods/app-${node}`)), WAIT)
    }
  })

  after(async () => {
    if (discovery !== undefined) clearInterval(discovery)
    await prometheus?.stop()
    if (work !== undefined) rmSync(work, { recursive: true, force: true })
    await operator?.stop()
  })

  test("both roles are scraped on every node, with role and node labels", async () => {
    const up = await eventually("3 targets up", async () => {
      const samples = await query("up == 1")
      return samples.length === 3 ? samples : undefined
    }, WAIT)
    assert.deepEqual(up.map((s) => `${s.metric["role"]}@${s.metric["node"] === undefined ? "?" : "node"}`).sort(), ["controller@node", "node@node", "node@node"])
    assert.deepEqual(up.filter((s) => s.metric["role"] === "node").map((s) => s.metric["node"]).sort(), [...NODES])
  })

  test("a Listener of a missing class fires ListenerNotReady; creating the class resolves it", async () => {
    await kube.create(`${LISTENERS}/namespaces/${NS}/listeners`, {
      apiVersion: LISTENER_API_VERSION, kind: "Listener", metadata: { name: "orphan", namespace: NS },
      spec: { className: "monitoring-missing", ports: [{ name: "http", port: 8080, protocol: "TCP" }] }
    })
    // A Pod mounting it waits: its volume is not provisioned while the class is missing.
    await kube.create(`/api/v1/namespaces/${NS}/pods`, {
      ...ephemeralPod("waiting", NS, "monitoring-missing", "node-a"),
      spec: {
        ...ephemeralPod("waiting", NS, "monitoring-missing", "node-a").spec,
        volumes: [{
          name: "listener",
          ephemeral: {
            volumeClaimTemplate: {
              metadata: { annotations: { "listeners.stackable.tech/listener-name": "orphan" } },
              spec: { storageClassName: "listeners.stackable.tech", accessModes: ["ReadWriteMany"], resources: { requests: { storage: "1" } } }
            }
          }
        }]
      }
    })
    const alert = await firing("ListenerNotReady", { namespace: OPERATOR_NAMESPACE })
    assert.equal(alert.labels["severity"], "warning")
    await kube.create(`${LISTENERS}/listenerclasses`, listenerClass("monitoring-missing", { serviceType: "ClusterIP" }))
    await resolved("ListenerNotReady")
    await eventually("the waiting Pod ready once the class exists", async () => isPodReady(await kube.get(`/api/v1/namespaces/${NS}/pods/waiting`)), WAIT)
  })

  test("every series docs/deploy.md documents is there", async () => {
    const series = documentedSeries()
    assert.ok(series.length >= 10, `sanity: the table lists the series (${series.join(", ")})`)
    for (const name of series) {
      const histogram = name.endsWith("_seconds")
      const samples = await eventually(`${name} scraped`, async () => {
        const found = await query(histogram ? `${name}_count` : name)
        return found.length > 0 ? found : undefined
      }, WAIT)
      assert.ok(samples.every((s) => s.metric["role"] === "controller" || s.metric["role"] === "node"), `${name} carries the role label`)
    }
    // The CSI series as the sidecars name them: full method, Go code names, the driver.
    const publishes = await query('csi_plugin_operations_seconds_count{method_name="/csi.v1.Node/NodePublishVolume", grpc_status_code="OK"}')
    assert.deepEqual([...new Set(publishes.map((s) => s.metric["node"]))].sort(), [...NODES])
    assert.ok(publishes.every((s) => s.metric["driver_name"] === "listeners.stackable.tech"))
    // A publish that must wait: a LoadBalancer Listener whose load balancer never answers
    // (its class asks MetalLB for a pool that does not exist) fails fast with its explaining
    // Event (a Listener the controller merely has not caught up with is waited for inside the
    // call, so it is not counted).
    await kube.create(`${LISTENERS}/listenerclasses`, listenerClass("monitoring-lb", {
      serviceType: "LoadBalancer", preferredAddressType: "IP", serviceAnnotations: { [METALLB_ANNOTATIONS.addressPool]: "no-such-pool" }
    }))
    await kube.create(`/api/v1/namespaces/${NS}/pods`, ephemeralPod("lb", NS, "monitoring-lb", "node-a"))
    const waits = await eventually("the waiting publish counted", async () => {
      const found = await query('listener_operator_volume_waits_total{action="PublishVolume"}')
      return found.length > 0 ? found : undefined
    }, WAIT)
    assert.ok(waits.every((s) => s.metric["role"] === "node" && s.metric["node"] === "node-a"), "counted by node-a's plugin")
    assert.ok(waits.some((s) => s.metric["reason"] === "AwaitingListenerAddress"), `the waiting Event's reason: ${JSON.stringify(waits.map((s) => s.metric))}`)
    await kube.delete(`/api/v1/namespaces/${NS}/pods/lb`)
  })

  test("a node plugin stopped on node-b fires ListenerNodePluginMissing for node-b; bringing it back resolves it", async () => {
    await eventually("node-b's published volumes reported", async () =>
      (await query('listener_operator_published_volumes{node="node-b"} > 0')).length > 0, WAIT)
    const keepOff = {
      spec: { template: { spec: { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: [{ key: "kubernetes.io/hostname", operator: "NotIn", values: ["node-b"] }] }]
      } } } } } }
    }
    await kube.patch(DAEMONSET, keepOff, "strategic")
    const alert = await firing("ListenerNodePluginMissing", { node: "node-b" })
    assert.equal(alert.labels["severity"], "critical")
    // The template change rolls node-a's plugin too (a new revision); once that is back, the
    // alert stays for node-b alone.
    await operator.nodePluginPod("node-a")
    await eventually("ListenerNodePluginMissing for node-b alone", async () => {
      const missing = (await alerts()).filter((a) => a.labels["alertname"] === "ListenerNodePluginMissing")
      return missing.length === 1 && missing[0]!.labels["node"] === "node-b" && missing[0]!.state === "firing"
    }, WAIT)
    await kube.patch(DAEMONSET, [{ op: "remove", path: "/spec/template/spec/affinity" }], "json")
    await operator.nodePluginPod("node-b")
    await resolved("ListenerNodePluginMissing")
  })

  test("every panel of the Grafana dashboard returns data from this Prometheus", async () => {
    for (const panel of dashboardPanels()) {
      for (const target of panel.targets) {
        const result = await eventually(`"${panel.title}" has data`, async () => {
          const found = await query(promql(target.expr, "2m"))
          return found.length > 0 ? found : undefined
        }, { timeoutMs: 60_000, intervalMs: 1000 })
        assert.ok(result.length > 0)
      }
    }
  })
})
