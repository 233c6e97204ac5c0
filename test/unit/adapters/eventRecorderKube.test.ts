import { test } from "node:test"
import assert from "node:assert/strict"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { makeEventRecorderKube } from "../../../adapters/EventRecorderKube.ts"
import { KubeApiMemory } from "../../../adapters/KubeApiMemory.ts"
import { Kinds } from "../../../domain/kinds.ts"
import type { EventRecord } from "../../../effects/EventRecorder.ts"
import { KubeApi } from "../../../effects/KubeApi.ts"

const event = (note: string): EventRecord => ({
  regarding: { apiVersion: "listeners.stackable.tech/v1alpha1", kind: "Listener", name: "web", namespace: "default", uid: "u-1" },
  type: "Warning",
  reason: "ServiceConflict",
  action: "ApplyService",
  note
})

const run = <A, E>(effect: Effect.Effect<A, E, KubeApi | KubeApiMemory>) =>
  Effect.runPromise(effect.pipe(Effect.provide(Layer.merge(KubeApiMemory.layer(), TestClock.layer()))))

test("EventRecorderKube: repeats within the window bump one series; a new note or a late repeat starts a new Event", () =>
  run(Effect.gen(function*() {
    const cluster = yield* KubeApiMemory
    const { recorder } = yield* makeEventRecorderKube({
      reportingController: "test/ctl",
      reportingInstance: "ctl-0",
      seriesWindow: "10 minutes",
      seriesWriteInterval: 0
    })
    yield* recorder.record(event("taken"))
    yield* TestClock.adjust("1 minute")
    yield* recorder.record(event("taken"))
    yield* recorder.record(event("taken"))
    let events = cluster.objects(Kinds.Event, "default")
    assert.equal(events.length, 1)
    const first = events[0]!
    assert.equal(first["reason"], "ServiceConflict")
    assert.equal(first["action"], "ApplyService")
    assert.equal(first["type"], "Warning")
    assert.equal(first["reportingController"], "test/ctl")
    assert.match(String(first["eventTime"]), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)
    assert.deepEqual(first["regarding"], event("x").regarding)
    assert.equal((first["series"] as { count: number }).count, 3)

    yield* recorder.record(event("another note"))
    assert.equal(cluster.objects(Kinds.Event, "default").length, 2)

    yield* TestClock.adjust("11 minutes")
    yield* recorder.record(event("taken"))
    events = cluster.objects(Kinds.Event, "default")
    assert.equal(events.length, 3)
  })))

test("EventRecorderKube: a failed write is logged, never raised", () =>
  run(Effect.gen(function*() {
    const cluster = yield* KubeApiMemory
    const { recorder } = yield* makeEventRecorderKube({ reportingController: "c", reportingInstance: "i" })
    // Namespace "missing" does not exist: the create fails with NotFound.
    const outcome = yield* Effect.exit(recorder.record({ ...event("x"), regarding: { ...event("x").regarding, namespace: "missing" } }))
    assert.equal(outcome._tag, "Success")
    assert.equal(cluster.requests.count("create", Kinds.Event), 1)
    assert.equal(cluster.objects(Kinds.Event).length, 0)
  })))

test("EventRecorderKube: repeats inside the write interval only count in memory; the next write or flush carries the count", () =>
  run(Effect.gen(function*() {
    const cluster = yield* KubeApiMemory
    const { recorder, flush } = yield* makeEventRecorderKube({ reportingController: "c", reportingInstance: "i", seriesWriteInterval: "1 minute" })
    // A kubelet retrying every few seconds: 20 occurrences within 50 s.
    for (let i = 0; i < 20; i++) {
      yield* recorder.record(event("waiting"))
      yield* TestClock.adjust("2500 millis")
    }
    assert.equal(cluster.requests.count("create", Kinds.Event), 1)
    assert.equal(cluster.requests.count("patch", Kinds.Event), 0, "no series write inside the interval")
    yield* TestClock.adjust("15 seconds")
    yield* recorder.record(event("waiting"))
    assert.equal(cluster.requests.count("patch", Kinds.Event), 1)
    const [written] = cluster.objects(Kinds.Event, "default")
    assert.equal((written!["series"] as { count: number }).count, 21)

    yield* recorder.record(event("waiting"))
    yield* recorder.record(event("waiting"))
    yield* flush
    assert.equal(cluster.requests.count("patch", Kinds.Event), 2)
    assert.equal((cluster.objects(Kinds.Event, "default")[0]!["series"] as { count: number }).count, 23)
    yield* flush
    assert.equal(cluster.requests.count("patch", Kinds.Event), 2, "a flush with nothing new writes nothing")
  })))

test("EventRecorderKube: one object gets at most `objectBurst` new Events, then one per refill period", () =>
  run(Effect.gen(function*() {
    const cluster = yield* KubeApiMemory
    const { recorder } = yield* makeEventRecorderKube({ reportingController: "c", reportingInstance: "i", objectBurst: 3, objectRefill: "5 minutes" })
    for (let i = 0; i < 10; i++) yield* recorder.record(event(`note ${i}`))
    assert.equal(cluster.objects(Kinds.Event, "default").length, 3)
    // Another object has its own budget.
    yield* recorder.record({ ...event("other"), regarding: { ...event("x").regarding, name: "api", uid: "u-2" } })
    assert.equal(cluster.objects(Kinds.Event, "default").length, 4)
    yield* TestClock.adjust("5 minutes")
    yield* recorder.record(event("note 11"))
    yield* recorder.record(event("note 12"))
    assert.equal(cluster.objects(Kinds.Event, "default").length, 5)
  })))
