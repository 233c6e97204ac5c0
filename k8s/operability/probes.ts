/**
 * The HTTP endpoint of a role: Prometheus metrics (`/metrics`), liveness (`/healthz`: the
 * process serves requests) and readiness (`/readyz`: every registered check passes — e.g.
 * the CSI socket is bound and the controller's caches have synced).
 */
import { Context, Effect, Layer, Ref } from "effect"
// Module by module, not the barrel: the barrel would load the OTLP exporters with the probes.
import * as PrometheusMetrics from "effect/observability/PrometheusMetrics"
import type * as Http from "node:http"

/** Named readiness flags; `/readyz` answers 200 only when all of them are set. */
export class Readiness extends Context.Service<Readiness, {
  register(check: string): Effect.Effect<void>
  markReady(check: string): Effect.Effect<void>
  markNotReady(check: string): Effect.Effect<void>
  pending: Effect.Effect<ReadonlyArray<string>>
}>()("listener-operator/k8s/Readiness") {
  static readonly layer = Layer.effect(Readiness, Effect.gen(function*() {
    const checks = yield* Ref.make(new Map<string, boolean>())
    const set = (check: string, ready: boolean) => Ref.update(checks, (m) => new Map(m).set(check, ready))
    return Readiness.of({
      register: (check) => Ref.update(checks, (m) => (m.has(check) ? m : new Map(m).set(check, false))),
      markReady: (check) => set(check, true),
      markNotReady: (check) => set(check, false),
      pending: Effect.map(Ref.get(checks), (m) => [...m].filter(([, ready]) => !ready).map(([check]) => check))
    })
  }))
}

interface ProbeAnswer {
  readonly status: number
  readonly body: string
  readonly contentType?: string
}

const text = (status: number, body: string): ProbeAnswer => ({ status, body })

/** What each path answers; the metrics are those of the context the server runs in. */
const answerOf = (path: string, readiness: Readiness["Service"], context: Context.Context<never>): Effect.Effect<ProbeAnswer> => {
  switch (path) {
    case "/healthz":
      return Effect.succeed(text(200, "ok"))
    case "/readyz":
      return Effect.map(readiness.pending, (pending) => pending.length === 0 ? text(200, "ok") : text(503, `not ready: ${pending.join(", ")}`))
    case "/metrics":
      return Effect.sync(() => ({ status: 200, body: PrometheusMetrics.formatUnsafe(context), contentType: "text/plain; version=0.0.4; charset=utf-8" }))
    default:
      return Effect.succeed(text(404, "not found"))
  }
}

/**
 * Serves /metrics, /healthz and /readyz on `port` (all interfaces: kubelet probes and
 * Prometheus scrape it). Plain node:http, taken with getBuiltinModule: the ES-module form
 * of `node:http` loads Node's fetch/WebSocket stack (~13 MB) for nothing.
 */
export const probeServerLayer = (port: number): Layer.Layer<never, unknown, Readiness> =>
  Layer.effectDiscard(Effect.gen(function*() {
    const readiness = yield* Readiness
    const context = yield* Effect.context<never>()
    const run = Effect.runPromiseWith(context)
    const http = process.getBuiltinModule("node:http") as typeof Http
    const server = http.createServer((request, response) => {
      const path = (request.url ?? "/").split("?")[0]!
      const answer = request.method === "GET" || request.method === "HEAD" ? answerOf(path, readiness, context) : Effect.succeed(text(405, "method not allowed"))
      void run(answer).then(({ status, body, contentType }) => {
        response.writeHead(status, { "content-type": contentType ?? "text/plain; charset=utf-8", "content-length": Buffer.byteLength(body) })
        response.end(request.method === "HEAD" ? undefined : body)
      })
    })
    yield* Effect.acquireRelease(
      Effect.callback<void, Error>((resume) => {
        server.once("error", (error) => resume(Effect.fail(error)))
        server.listen(port, () => resume(Effect.void))
      }),
      () => Effect.callback<void>((resume) => {
        server.close(() => resume(Effect.void))
        server.closeAllConnections()
      })
    )
    yield* Effect.logDebug("probe endpoint listening").pipe(Effect.annotateLogs({ port }))
  }))
