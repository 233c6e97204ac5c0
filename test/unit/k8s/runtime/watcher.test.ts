import { test } from "node:test"
import assert from "node:assert/strict"
import { Effect, Fiber, Queue, Random, References, Stream } from "effect"
import { TestClock } from "effect/testing"
import { Kinds } from "../../../../domain/kinds.ts"
import { KubeApi } from "../../../../effects/shared/KubeApi.ts"
import { initialWatcherState, runWatcher, step, watcher, type WatcherEvent, type WatcherState } from "../../../../k8s/runtime/watcher.ts"
import { apiError, makeFakeKubeApi, object } from "./fakeKubeApi.ts"

const kind = Kinds.ConfigMap
const watching = (resourceVersion: string, failures = 0): WatcherState =>
  ({ next: "Watch", resourceVersion, failures, backoff: false })

test("step: a list emits Restarted and resumes watching from the list's resourceVersion", () => {
  const a = object("a", "5")
  const result = step(initialWatcherState, { _tag: "ListSucceeded", result: { items: [a], resourceVersion: "7" } })
  assert.deepEqual(result.events, [{ _tag: "Restarted", objects: [a], resourceVersion: "7" }])
  assert.deepEqual(result.state, watching("7"))
})

test("step: events and bookmarks move the resume point; bookmarks emit nothing", () => {
  const a = object("a", "8")
  const added = step(watching("7"), { _tag: "WatchReceived", event: { type: "ADDED", object: a } })
  assert.deepEqual(added.events, [{ _tag: "Applied", object: a }])
  assert.equal(added.state.resourceVersion, "8")
  const deleted = step(added.state, { _tag: "WatchReceived", event: { type: "DELETED", object: object("a", "9") } })
  assert.equal(deleted.events[0]?._tag, "Deleted")
  const bookmark = step(deleted.state, { _tag: "WatchReceived", event: { type: "BOOKMARK", object: { metadata: { resourceVersion: "12" } } } })
  assert.deepEqual(bookmark.events, [])
  assert.deepEqual(bookmark.state, watching("12"))
})

test("step: a clean end re-watches from the last version without backoff", () => {
  const result = step(watching("12", 2), { _tag: "WatchEnded" })
  assert.deepEqual(result.events, [])
  assert.deepEqual(result.state, { next: "Watch", resourceVersion: "12", failures: 2, backoff: false })
})

test("step: Gone relists at once the first time, with backoff when it repeats without events", () => {
  const first = step(watching("12"), { _tag: "WatchFailed", error: apiError("Gone", "watch") })
  assert.deepEqual(first.state, { next: "List", resourceVersion: undefined, failures: 1, backoff: false })
  const listed = step(first.state, { _tag: "ListSucceeded", result: { items: [], resourceVersion: "20" } })
  const second = step(listed.state, { _tag: "WatchFailed", error: apiError("Gone", "watch") })
  assert.deepEqual(second.state, { next: "List", resourceVersion: undefined, failures: 2, backoff: true })
})

test("step: other failures keep the resume point and back off; a watch event resets the count", () => {
  const failed = step(watching("12"), { _tag: "WatchFailed", error: apiError("Unavailable", "watch") })
  assert.deepEqual(failed.state, { next: "Watch", resourceVersion: "12", failures: 1, backoff: true })
  const again = step(failed.state, { _tag: "WatchFailed", error: apiError("Internal", "watch") })
  assert.equal(again.state.failures, 2)
  const recovered = step(again.state, { _tag: "WatchReceived", event: { type: "MODIFIED", object: object("a", "13") } })
  assert.deepEqual(recovered.state, watching("13"))
  const listFailed = step(initialWatcherState, { _tag: "ListFailed", error: apiError("Forbidden", "list") })
  assert.deepEqual(listFailed.state, { next: "List", resourceVersion: undefined, failures: 1, backoff: true })
})

/** Runs the watcher over a fake port under TestClock with jitter pinned to its low bound. */
const withWatcher = <A>(
  body: (ctx: {
    fake: Effect.Success<ReturnType<typeof makeFakeKubeApi>>
    events: Queue.Queue<WatcherEvent>
  }) => Effect.Effect<A>
) =>
  Effect.runPromise(Effect.gen(function*() {
    const fake = yield* makeFakeKubeApi([kind])
    const events = yield* Queue.unbounded<WatcherEvent>()
    const fiber = yield* runWatcher(kind, { namespace: "default", labelSelector: "app=x" }, (batch) => Effect.asVoid(Queue.offerAll(events, batch)))
      .pipe(Effect.provide(fake.layer), Effect.forkChild)
    const result = yield* body({ fake, events })
    yield* Fiber.interrupt(fiber)
    return result
  }).pipe(
    Effect.provide(TestClock.layer()),
    Effect.provideService(Random.Random, { nextDoubleUnsafe: () => 0, nextIntUnsafe: () => 0 }),
    Effect.provideService(References.MinimumLogLevel, "None")
  ))

test("runWatcher lists, watches from the list's version with bookmarks, and re-watches from the last seen version", () =>
  withWatcher(({ fake, events }) => Effect.gen(function*() {
    const script = fake.kind(kind)
    yield* script.respondList([{ metadata: { name: "a", namespace: "default", resourceVersion: "3" } }], "10")
    const restarted = yield* Queue.take(events)
    assert.equal(restarted._tag, "Restarted")
    // list items arrive without type meta from a real server; the watcher fills it in
    assert.deepEqual(restarted._tag === "Restarted" ? restarted.objects[0] : undefined, {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "a", namespace: "default", resourceVersion: "3" }
    })
    assert.deepEqual((yield* script.listCalls)[0], { namespace: "default", labelSelector: "app=x", fieldSelector: undefined })

    const first = yield* script.nextWatch
    assert.equal(first.options.resourceVersion, "10")
    assert.equal(first.options.allowBookmarks, true)
    assert.equal(first.options.namespace, "default")
    assert.equal(first.options.labelSelector, "app=x")
    yield* first.emit("ADDED", object("b", "11"))
    assert.deepEqual(yield* Queue.take(events), { _tag: "Applied", object: object("b", "11") })
    yield* first.emit("BOOKMARK", { metadata: { resourceVersion: "15" } })
    yield* first.end

    const second = yield* script.nextWatch
    assert.equal(second.options.resourceVersion, "15")
    yield* second.emit("DELETED", object("b", "16"))
    assert.deepEqual(yield* Queue.take(events), { _tag: "Deleted", object: object("b", "16") })
    yield* second.end
    const third = yield* script.nextWatch
    assert.equal(third.options.resourceVersion, "16")
    assert.equal((yield* script.listCalls).length, 1)
  })))

test("runWatcher relists on 410 Gone and emits the full new state", () =>
  withWatcher(({ fake, events }) => Effect.gen(function*() {
    const script = fake.kind(kind)
    yield* script.respondList([object("a", "3"), object("b", "4")], "10")
    yield* Queue.take(events)
    const watch = yield* script.nextWatch
    yield* watch.fail("Gone")
    yield* script.respondList([object("a", "3")], "30")
    assert.deepEqual(yield* Queue.take(events), { _tag: "Restarted", objects: [object("a", "3")], resourceVersion: "30" })
    assert.equal((yield* script.listCalls).length, 2)
    assert.equal((yield* script.nextWatch).options.resourceVersion, "30")
  })))

test("runWatcher backs off exponentially (jitter pinned low) and resumes the same watch after an error", () =>
  withWatcher(({ fake, events }) => Effect.gen(function*() {
    const script = fake.kind(kind)
    yield* script.failList("Unavailable")
    // backoff 1: 800ms * (1 - 0.2) = 640ms
    yield* TestClock.adjust("639 millis")
    assert.equal((yield* script.listCalls).length, 1)
    yield* script.failList("Unavailable")
    yield* TestClock.adjust("1 millis")
    // backoff 2: 1600ms * 0.8 = 1280ms
    yield* TestClock.adjust("1279 millis")
    assert.equal((yield* script.listCalls).length, 2)
    yield* script.respondList([], "10")
    yield* TestClock.adjust("1 millis")
    assert.equal((yield* Queue.take(events))._tag, "Restarted")
    assert.equal((yield* script.listCalls).length, 3)

    // the list succeeded, so the watch starts at once; its failure backs off with the
    // failure count carried over (3rd failure: 3200ms * 0.8 = 2560ms) and resumes from 10
    const watch = yield* script.nextWatch
    yield* watch.fail("Internal")
    const pending = yield* Effect.forkChild(script.nextWatch)
    yield* TestClock.adjust("2559 millis")
    assert.equal(pending.pollUnsafe(), undefined)
    yield* TestClock.adjust("1 millis")
    const resumed = yield* Fiber.join(pending)
    assert.equal(resumed.options.resourceVersion, "10")
  })))

test("watcher is the same machine as a Stream", () =>
  Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const fake = yield* makeFakeKubeApi([kind])
    const first = yield* Effect.forkChild(
      Stream.runCollect(Stream.take(watcher(kind), 2)).pipe(Effect.provideService(KubeApi, fake.service))
    )
    yield* fake.kind(kind).respondList([object("a", "1")], "5")
    const watch = yield* fake.kind(kind).nextWatch
    yield* watch.emit("MODIFIED", object("a", "6"))
    const events = yield* Fiber.join(first)
    assert.deepEqual(Array.from(events).map((e) => e._tag), ["Restarted", "Applied"])
  }))))
