// The spans the runtime opens (each reconcile, each leader-election attempt) and their
// attributes, recorded by a tracer of the test's own over the in-memory API server. (CSI
// calls and API requests: test/e2e/telemetry.test.ts, on a real collector.)
import { test } from "node:test"
import assert from "node:assert/strict"
import { Effect, Fiber, Random, References, Tracer } from "effect"
import { KubeApiMemory } from "../../../../adapters/KubeApiMemory.ts"
import { Kinds } from "../../../../domain/kinds.ts"
import { KubeApi } from "../../../../effects/shared/KubeApi.ts"
import type { KubeObject } from "../../../../effects/shared/KubeApi.ts"
import { Action } from "../../../../effects/shared/action.ts"
import { makeController } from "../../../../k8s/runtime/controller.ts"
import { runWhileLeading } from "../../../../k8s/runtime/leaderElection.ts"

interface Ended { readonly name: string; readonly parent: boolean; readonly attributes: ReadonlyMap<string, unknown>; readonly traceId: string }

/** Effect's own tracer, remembering every span that ends. */
const recording = () => {
  const ended: Array<Ended> = []
  const tracer = Tracer.make({
    span(options) {
      const span = Tracer.nativeTracer.span(options)
      const end = span.end.bind(span)
      span.end = (endTime, exit) => {
        end(endTime, exit)
        ended.push({ name: span.name, parent: span.parent._tag === "Some", attributes: span.attributes, traceId: span.traceId })
      }
      return span
    }
  })
  return { tracer, ended }
}

const settle = Effect.gen(function*() {
  for (let i = 0; i < 200; i++) yield* Effect.yieldNow
})

test("each reconcile is a trace of its own, named for its controller, with the object's key; work inside it is its child", () => {
  const { tracer, ended } = recording()
  return Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const listener: KubeObject = { apiVersion: "listeners.stackable.tech/v1alpha1", kind: "Listener", metadata: { name: "l", namespace: "ns" }, spec: {} }
    const cluster = yield* KubeApiMemory.make({ objects: [{ kind: Kinds.Listener, object: listener }] })
    yield* Effect.gen(function*() {
      const controller = yield* makeController({ name: "listener", primary: { kind: Kinds.Listener } })
      const fiber = yield* Effect.forkChild(controller.run({
        reconcile: () => Effect.as(Effect.void.pipe(Effect.withSpan("inside")), Action.awaitChange)
      }))
      yield* Effect.sleep("200 millis")
      yield* settle
      yield* Fiber.interrupt(fiber)
    }).pipe(Effect.provideService(KubeApi, cluster.api))
  })).pipe(Effect.withTracer(tracer), Effect.provideService(References.MinimumLogLevel, "None"))).then(() => {
    const reconcile = ended.find((s) => s.name === "reconcile listener")
    assert.ok(reconcile, ended.map((s) => s.name).join(", "))
    assert.equal(reconcile.parent, false, "a root span")
    assert.equal(reconcile.attributes.get("controller"), "listener")
    assert.equal(reconcile.attributes.get("key"), "ns/l")
    const inside = ended.find((s) => s.name === "inside")
    assert.equal(inside?.traceId, reconcile.traceId)
  })
})

test("each leader-election attempt is a trace of its own with the lease and its result", () => {
  const { tracer, ended } = recording()
  return Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const cluster = yield* KubeApiMemory.make()
    yield* runWhileLeading({ lease: { namespace: "default", name: "lo" }, identity: "me" }, Effect.void).pipe(
      Effect.provideService(KubeApi, cluster.api)
    )
  })).pipe(
    Effect.withTracer(tracer),
    Effect.provideService(Random.Random, { nextDoubleUnsafe: () => 0, nextIntUnsafe: () => 0 }),
    Effect.provideService(References.MinimumLogLevel, "None")
  )).then(() => {
    const attempt = ended.find((s) => s.name === "leader election")
    assert.ok(attempt, ended.map((s) => s.name).join(", "))
    assert.equal(attempt.parent, false)
    assert.equal(attempt.attributes.get("lease"), "default/lo")
    assert.equal(attempt.attributes.get("identity"), "me")
    assert.equal(attempt.attributes.get("leader_election.result"), "Leading")
  })
})
