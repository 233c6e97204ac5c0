// listener_operator_listeners{ready}: counted from the Listener cache — Ready=True is ready;
// Ready=False, Unknown or no condition yet is not — and recounted as the cache changes.
import { test } from "node:test"
import assert from "node:assert/strict"
import { Effect, Fiber, Metric } from "effect"
import { TestClock } from "effect/testing"
import { PrometheusMetrics } from "effect/observability"
import type { KubeObject } from "../../../effects/shared/KubeApi.ts"
import { isReady, trackListenerReadiness } from "../../../k8s/listenerMetrics.ts"
import type { Store } from "../../../k8s/runtime/store.ts"

const listener = (name: string, ready?: "True" | "False" | "Unknown"): KubeObject => ({
  apiVersion: "listeners.stackable.tech/v1alpha1",
  kind: "Listener",
  metadata: { name, namespace: "apps" },
  ...(ready === undefined ? {} : { status: { conditions: [{ type: "Ready", status: ready }] } })
}) as KubeObject

const gauge = (text: string, ready: string) =>
  Number(text.split("\n").find((l) => l.startsWith("listener_operator_listeners{") && l.includes(`ready="${ready}"`))?.split(" ").at(-1))

test("Ready=True is ready; Ready=False, Unknown or no condition is not", () => {
  assert.deepEqual([listener("a", "True"), listener("b", "False"), listener("c", "Unknown"), listener("d")].map(isReady), [true, false, false, false])
})

test("the gauge counts the cache by readiness and follows it", async () => {
  let cached = [listener("a", "True"), listener("b", "False"), listener("c")]
  const store = { list: () => Effect.sync(() => cached) } as unknown as Store<string>
  const [first, second] = await Effect.runPromise(Effect.gen(function*() {
    const tracking = yield* Effect.forkChild(trackListenerReadiness(store, "5 seconds"))
    yield* Effect.yieldNow
    const first = yield* PrometheusMetrics.format()
    cached = [listener("a", "True"), listener("b", "True"), listener("c", "True")]
    yield* TestClock.adjust("5 seconds")
    const second = yield* PrometheusMetrics.format()
    yield* Fiber.interrupt(tracking)
    return [first, second]
  }).pipe(Effect.provide(TestClock.layer()), Effect.provideService(Metric.MetricRegistry, new Map())))
  assert.deepEqual([gauge(first!, "true"), gauge(first!, "false")], [1, 2])
  assert.deepEqual([gauge(second!, "true"), gauge(second!, "false")], [3, 0])
})
