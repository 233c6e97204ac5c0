/**
 * What OpenTelemetry export costs: CPU per unit of work, API requests, heap, and what
 * reaches the collector — with export off (the default), on to a healthy collector, and on
 * to a collector that accepts connections and never answers.
 *
 * One unit of work is what a Listener reconcile is to the API: a root span (as the runtime
 * opens per reconcile) around two API requests through the real HTTP transport
 * (adapters/http/request.ts, each request a child span) to a loopback server answering
 * JSON, plus one log line. Each mode runs in a fresh child process, so module state and
 * JIT warm-up are the same for each.
 *
 *   node --expose-gc --import tsx bench/telemetry.bench.ts [units] [rounds]
 */
import { spawnSync } from "node:child_process"
import { createServer } from "node:http"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, Layer, Logger, Metric, References } from "effect"
import { makeTransport } from "../adapters/http/request.ts"
import { Kinds } from "../domain/kinds.ts"

type Mode = "off" | "on" | "blackhole"
const MODES: ReadonlyArray<Mode> = ["off", "on", "blackhole"]

const units = Number(process.argv[2] ?? 5000)
const rounds = Number(process.argv[3] ?? 3)

const listen = (handler: (req: IncomingMessage, res: ServerResponse) => void) =>
  new Promise<{ port: number; close: () => void }>((resolve) => {
    const server = createServer(handler)
    server.keepAliveTimeout = 60_000
    server.listen(0, "127.0.0.1", () => resolve({ port: (server.address() as AddressInfo).port, close: () => server.close() }))
  })

const runMode = async (mode: Mode) => {
  let apiRequests = 0
  const api = await listen((req, res) => {
    apiRequests++
    req.resume()
    req.on("end", () => {
      res.setHeader("content-type", "application/json")
      res.end(JSON.stringify({ kind: "Service", apiVersion: "v1", metadata: { name: "s", namespace: "ns", resourceVersion: "1" } }))
    })
  })
  let collectorPosts = 0
  const collector = await listen((req, res) => {
    collectorPosts++
    req.resume()
    if (mode === "on") req.on("end", () => res.end("{}"))
    // blackhole: never answers
  })
  // Loaded only when exporting, as cli.ts does (and so that `off` also runs on a checkout
  // without telemetry, to compare with the code before it).
  const telemetry = mode === "off"
    ? undefined
    : {
      ...(await import("../k8s/operability/telemetry.ts")),
      ...(await import("../k8s/operability/telemetrySettings.ts")),
      ...(await import("../k8s/operability/otlpExport.ts"))
    }
  const env = { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collector.port}` }
  const resource = { role: "bench", version: "0" }
  const connection = { server: new URL(`http://127.0.0.1:${api.port}`), tls: {}, authHeaders: async () => ({}) }

  const program = Effect.gen(function*() {
    const transport = yield* makeTransport(connection as never, { userAgent: "bench", maxSockets: 4, requestTimeoutMillis: 10_000 })
    const target = { verb: "get", kind: Kinds.Service, namespace: "ns", name: "s" }
    const unit = Effect.gen(function*() {
      yield* transport.send({ target, method: "GET", path: "/api/v1/namespaces/ns/services/s", verb: "get", resource: "services" })
      yield* transport.send({ target: { ...target, verb: "patch" }, method: "PATCH", path: "/api/v1/namespaces/ns/services/s", body: {}, contentType: "application/merge-patch+json", verb: "patch", resource: "services" })
      yield* Effect.logInfo("reconciled")
    }).pipe(Effect.withSpan("reconcile bench", { root: true }))
    const results: Array<{ cpuMicrosPerUnit: number; wallMillis: number }> = []
    // warm-up
    for (let i = 0; i < Math.min(500, units); i++) yield* unit
    for (let r = 0; r < rounds; r++) {
      ;(globalThis as { gc?: () => void }).gc?.()
      const cpu = process.cpuUsage()
      const started = performance.now()
      for (let i = 0; i < units; i++) yield* unit
      const used = process.cpuUsage(cpu)
      results.push({ cpuMicrosPerUnit: (used.user + used.system) / units, wallMillis: performance.now() - started })
    }
    yield* Effect.sleep("1500 millis") // let the exporters flush
    ;(globalThis as { gc?: () => void }).gc?.()
    const signal = (metric: "dropped" | "exported", name: string) =>
      telemetry === undefined
        ? Effect.succeed(0)
        : Effect.map(
          Metric.value(Metric.withAttributes(metric === "dropped" ? telemetry.otlpDroppedTotal : telemetry.otlpExportedTotal, { signal: name })),
          (s) => Number(s.count)
        )
    return {
      mode,
      units,
      cpuMicrosPerUnit: results.map((r) => Math.round(r.cpuMicrosPerUnit)),
      apiRequestsPerUnit: apiRequests / (units * rounds + Math.min(500, units)),
      collectorPosts,
      spansExported: yield* signal("exported", "traces"),
      spansDropped: yield* signal("dropped", "traces"),
      logsExported: yield* signal("exported", "logs"),
      logsDropped: yield* signal("dropped", "logs"),
      heapMiB: Math.round(process.memoryUsage().heapUsed / 1024 / 1024 * 10) / 10
    }
  })
  // Logs go nowhere locally in every mode (a console would dominate the figures); with
  // export on, to the collector.
  // Off is as cli.ts runs a role with telemetry off: no-op spans ("main" runs this file
  // on the code before telemetry, where the tracer stays on).
  let layer: Layer.Layer<never> = Layer.merge(
    Logger.layer([]),
    process.env["TELEMETRY_BENCH_TRACER"] === "on" ? Layer.empty : Layer.succeed(References.TracerEnabled, false)
  )
  if (telemetry !== undefined) {
    const settings = telemetry.telemetrySettings(env, { traces: true, logs: true })
    const logger = Effect.map(telemetry.otlpLogger(settings, resource, "Info"), (l) => l ?? Logger.make(() => undefined))
    layer = Layer.merge(telemetry.otlpTracerLayer(settings, resource), Logger.layer([logger]))
  }
  const result = await Effect.runPromise(Effect.scoped(program).pipe(Effect.provide(layer)))
  api.close()
  collector.close()
  return result
}

const child = process.env["TELEMETRY_BENCH_MODE"] as Mode | undefined
if (child !== undefined) {
  const result = await runMode(child)
  process.stdout.write(`${JSON.stringify(result)}\n`)
  process.exit(0)
} else {
  for (const mode of MODES) {
    const run = spawnSync(process.execPath, [...process.execArgv, import.meta.filename, String(units), String(rounds)], {
      env: { ...process.env, TELEMETRY_BENCH_MODE: mode },
      encoding: "utf8"
    })
    if (run.status !== 0) throw new Error(`${mode}: ${run.stderr}`)
    console.log(run.stdout.trim())
  }
}
