import { test } from "node:test"
import assert from "node:assert/strict"
import { Effect, Layer, Metric } from "effect"
import { probeServerLayer, Readiness } from "../../../k8s/operability/probes.ts"
import { freePort } from "../../envtest/ports.ts"

test("the probe endpoint: /healthz, /readyz naming what is pending, /metrics of the role's context, 404 and 405", async () => {
  const port = await freePort()
  const get = (path: string, method = "GET") => fetch(`http://127.0.0.1:${port}${path}`, { method }).then(async (r) => ({ status: r.status, body: await r.text(), type: r.headers.get("content-type") }))
  const calls = Metric.counter("probe_test_calls_total", { description: "calls in the probe test" })
  await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    yield* Layer.build(probeServerLayer(port))
    const readiness = yield* Readiness
    yield* readiness.register("csi-socket")
    yield* readiness.register("caches")
    yield* Metric.update(calls, 3)

    assert.deepEqual(yield* Effect.promise(() => get("/healthz")), { status: 200, body: "ok", type: "text/plain; charset=utf-8" })
    const pending = yield* Effect.promise(() => get("/readyz"))
    assert.equal(pending.status, 503)
    assert.equal(pending.body, "not ready: csi-socket, caches")
    yield* readiness.markReady("csi-socket")
    yield* readiness.markReady("caches")
    assert.equal((yield* Effect.promise(() => get("/readyz"))).status, 200)

    const metrics = yield* Effect.promise(() => get("/metrics"))
    assert.equal(metrics.status, 200)
    assert.match(metrics.type ?? "", /^text\/plain; version=0\.0\.4/u)
    assert.match(metrics.body, /^probe_test_calls_total(\{[^}]*\})? 3$/mu)

    assert.equal((yield* Effect.promise(() => get("/nope"))).status, 404)
    assert.equal((yield* Effect.promise(() => get("/healthz", "POST"))).status, 405)
  }).pipe(Effect.provide(Readiness.layer))))
  await assert.rejects(fetch(`http://127.0.0.1:${port}/healthz`), "the port is closed with the scope")
})
