/**
 * The HTTP endpoint of a role: Prometheus metrics (`/metrics`), liveness (`/healthz`: the
 * process serves requests) and readiness (`/readyz`: every registered check passes — e.g.
 * the CSI socket is bound and the controller's caches have synced).
 */
import { NodeHttpServer } from "@effect/platform-node"
import { Context, Effect, Layer, Ref } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { PrometheusMetrics } from "effect/observability"
import { createServer } from "node:http"

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

const probeRoutes = HttpRouter.use((router) =>
  Effect.gen(function*() {
    const readiness = yield* Readiness
    yield* router.add("GET", "/healthz", HttpServerResponse.text("ok"))
    yield* router.add("GET", "/readyz", Effect.map(readiness.pending, (pending) =>
      pending.length === 0
        ? HttpServerResponse.text("ok")
        : HttpServerResponse.text(`not ready: ${pending.join(", ")}`, { status: 503 })))
  })
)

/** Serves /metrics, /healthz and /readyz on `port` (all interfaces: kubelet probes and Prometheus scrape it). */
export const probeServerLayer = (port: number): Layer.Layer<never, unknown, Readiness> =>
  HttpRouter.serve(Layer.mergeAll(PrometheusMetrics.layerHttp(), probeRoutes), { disableLogger: true }).pipe(
    Layer.provide(NodeHttpServer.layer(createServer, { port }))
  )
