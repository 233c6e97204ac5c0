import { test } from "node:test"
import assert from "node:assert/strict"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { makeEventRecorderKube } from "../../../adapters/EventRecorderKube.ts"
import { KubeApiMemory } from "../../../adapters/KubeApiMemory.ts"
import { Kinds } from "../../../domain/kinds.ts"
import type { EventRecord } from "../../../effects/shared/EventRecorder.ts"
import { KubeApi } from "../../../effects/shared/KubeApi.ts"
import type { KubeApiError, KubeObject, WriteOptions } from "../../../effects/shared/KubeApi.ts"
import type { ResourceKind } from "../../../domain/kinds.ts"

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

/** The in-memory API with creates that take a while, as on a real API server: racing records overlap. */
const slowCreates = (api: KubeApi["Service"]): KubeApi["Service"] =>
  KubeApi.overriding(api, {
    create: (kind: ResourceKind, object: KubeObject, options?: WriteOptions): Effect.Effect<KubeObject, KubeApiError> =>
      Effect.andThen(Effect.sleep("20 millis"), api.create(kind, object, options))
  })

test("EventRecorderKube: concurrent records of one Event create one Event object; the others count in its series", () =>
  Effect.runPromise(Effect.gen(function*() {
    const cluster = yield* KubeApiMemory
    const { recorder } = yield* makeEventRecorderKube({ reportingController: "c", reportingInstance: "i", seriesWriteInterval: 0 }).pipe(
      Effect.provideService(KubeApi, slowCreates(cluster.api))
    )
    // A kubelet retrying on several streams at once: 10 records of the same Event race.
    yield* Effect.forEach(Array.from({ length: 10 }), () => recorder.record(event("waiting")), { concurrency: "unbounded", discard: true })
    assert.equal(cluster.requests.count("create", Kinds.Event), 1, "one create for one Event")
    const events = cluster.objects(Kinds.Event, "default")
    assert.equal(events.length, 1)
    assert.equal((events[0]!["series"] as { count: number }).count, 10)

    // Different Events do not wait for each other's lock: both are created.
    yield* Effect.forEach(["a", "b"], (note) => recorder.record(event(note)), { concurrency: "unbounded", discard: true })
    assert.equal(cluster.objects(Kinds.Event, "default").length, 3)
  }).pipe(Effect.provide(KubeApiMemory.layer()))))

test("EventRecorderKube: concurrent records racing a flush lose no occurrence", () =>
  run(Effect.gen(function*() {
    const cluster = yield* KubeApiMemory
    const { recorder, flush } = yield* makeEventRecorderKube({ reportingController: "c", reportingInstance: "i", seriesWriteInterval: "1 minute" })
    yield* recorder.record(event("waiting"))
    yield* Effect.all([
      Effect.forEach(Array.from({ length: 5 }), () => recorder.record(event("waiting")), { concurrency: "unbounded", discard: true }),
      flush
    ], { concurrency: "unbounded", discard: true })
    yield* flush
    const [written] = cluster.objects(Kinds.Event, "default")
    assert.equal((written!["series"] as { count: number }).count, 6)
  })))

test("EventRecorderKube: at the bound of tracked objects, a spent budget is not forgotten (full ones go first)", () =>
  run(Effect.gen(function*() {
    const cluster = yield* KubeApiMemory
    const { recorder } = yield* makeEventRecorderKube({
      reportingController: "c",
      reportingInstance: "i",
      objectBurst: 2,
      objectRefill: "1 hour",
      maxTrackedObjects: 3
    })
    const on = (name: string, note: string): EventRecord => ({ ...event(note), regarding: { ...event(note).regarding, name, uid: `uid-${name}` } })
    const eventsOn = (name: string) => cluster.objects(Kinds.Event, "default").filter((e) => (e["regarding"] as { name: string }).name === name).length
    // "noisy" spends its budget; "quiet" takes one token.
    yield* recorder.record(on("noisy", "1"))
    yield* recorder.record(on("noisy", "2"))
    yield* recorder.record(on("quiet", "1"))
    // An hour later: noisy has one token back, quiet is full again.
    yield* TestClock.adjust("61 minutes")
    yield* recorder.record(on("third", "1"))
    // The bound is reached: quiet's full bucket is dropped, not noisy's (the least recently used).
    yield* recorder.record(on("fourth", "1"))
    for (const note of ["3", "4", "5"]) yield* recorder.record(on("noisy", note))
    assert.equal(eventsOn("noisy"), 3, "noisy gets the one token it regained, not a fresh budget")
    assert.equal(eventsOn("fourth"), 1)
  })))
