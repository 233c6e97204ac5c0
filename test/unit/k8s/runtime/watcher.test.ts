import { test } from "node:test"
import assert from "node:assert/strict"
import { Effect, Fiber, Queue, Random, References, Stream } from "effect"
import { TestClock } from "effect/testing"
import { Kinds } from "../../../../domain/kinds.ts"
import { KubeApi } from "../../../../effects/shared/KubeApi.ts"
import { initialWatcherState, pagedWatcherState, runWatcher, step, watcher, type WatcherEvent, type WatcherState } from "../../../../k8s/runtime/watcher.ts"
import { apiError, makeFakeKubeApi, object } from "./fakeKubeApi.ts"

const kind = Kinds.ConfigMap
const watching = (resourceVersion: string, failures = 0, watchList = true): WatcherState =>
  ({ next: "Watch", resourceVersion, continue: undefined, relisting: false, watchList, failures, backoff: false })
const paged = (state: Partial<WatcherState> = {}): WatcherState => ({ ...pagedWatcherState, ...state })
const initialEventsEnd = (resourceVersion: string) => ({
  type: "BOOKMARK" as const,
  object: { metadata: { resourceVersion, annotations: { "k8s.io/initial-events-end": "true" } } }
})
const tags = (events: ReadonlyArray<WatcherEvent>) => events.map((e) => e._tag)

test("step: a watch-list streams the state one object at a time and ends it at the initial-events-end bookmark", () => {
  const a = object("a", "5")
  const b = object("b", "3")
  const first = step(initialWatcherState, { _tag: "WatchReceived", event: { type: "ADDED", object: a } })
  assert.deepEqual(first.events, [{ _tag: "RelistStarted" }, { _tag: "Relisted", objects: [a] }])
  assert.equal(first.state.next, "WatchList")
  const second = step(first.state, { _tag: "WatchReceived", event: { type: "ADDED", object: b } })
  assert.deepEqual(second.events, [{ _tag: "Relisted", objects: [b] }])
  // a progress bookmark of the initial phase moves nothing: its events are not ordered
  const progress = step(second.state, { _tag: "WatchReceived", event: { type: "BOOKMARK", object: { metadata: { resourceVersion: "4" } } } })
  assert.deepEqual(progress, { events: [], state: second.state })
  const end = step(second.state, { _tag: "WatchReceived", event: initialEventsEnd("9") })
  assert.deepEqual(end.events, [{ _tag: "Restarted", resourceVersion: "9" }])
  assert.deepEqual(end.state, watching("9"))
  // the same stream goes on with changes
  const change = step(end.state, { _tag: "WatchReceived", event: { type: "MODIFIED", object: object("a", "10") } })
  assert.deepEqual(change.events, [{ _tag: "Applied", object: object("a", "10") }])
  assert.equal(change.state.resourceVersion, "10")
})

test("step: an empty watch-list is a relist of nothing", () => {
  const end = step(initialWatcherState, { _tag: "WatchReceived", event: initialEventsEnd("9") })
  assert.deepEqual(end.events, [{ _tag: "RelistStarted" }, { _tag: "Restarted", resourceVersion: "9" }])
})

test("step: a refused watch-list (422/400) lists in pages from then on, at once", () => {
  for (const reason of ["Invalid", "BadRequest"] as const) {
    const refused = step(initialWatcherState, { _tag: "WatchFailed", error: apiError(reason, "watch") })
    assert.deepEqual(refused, { events: [], state: paged() })
  }
})

test("step: a watch-list that ends before its bookmark (a server ignoring it) lists in pages, starting the relist over", () => {
  const partway = step(initialWatcherState, { _tag: "WatchReceived", event: { type: "ADDED", object: object("a", "5") } })
  const ended = step(partway.state, { _tag: "WatchEnded" })
  assert.deepEqual(ended, { events: [], state: paged() })
  // the first page begins a new relist: what the abandoned one brought is not counted as seen
  const page = step(ended.state, { _tag: "ListSucceeded", result: { items: [], resourceVersion: "7" } })
  assert.deepEqual(tags(page.events), ["RelistStarted", "Restarted"])
})

test("step: a watch-list failing otherwise backs off and starts over as a watch-list", () => {
  const partway = step(initialWatcherState, { _tag: "WatchReceived", event: { type: "ADDED", object: object("a", "5") } })
  const failed = step(partway.state, { _tag: "WatchFailed", error: apiError("Unavailable", "watch") })
  assert.deepEqual(failed, { events: [], state: { ...initialWatcherState, failures: 1, backoff: true } })
  const again = step(failed.state, { _tag: "WatchReceived", event: { type: "ADDED", object: object("a", "5") } })
  assert.deepEqual(tags(again.events), ["RelistStarted", "Relisted"])
})

test("step: list pages stream into one relist; the last page's resourceVersion is where the watch starts", () => {
  const a = object("a", "5")
  const b = object("b", "6")
  const first = step(paged(), { _tag: "ListSucceeded", result: { items: [a], resourceVersion: "7", continue: "t1" } })
  assert.deepEqual(first.events, [{ _tag: "RelistStarted" }, { _tag: "Relisted", objects: [a] }])
  assert.deepEqual(first.state, paged({ continue: "t1", relisting: true }))
  const last = step(first.state, { _tag: "ListSucceeded", result: { items: [b], resourceVersion: "7" } })
  assert.deepEqual(last.events, [{ _tag: "Relisted", objects: [b] }, { _tag: "Restarted", resourceVersion: "7" }])
  assert.deepEqual(last.state, watching("7", 0, false))
})

test("step: a failed page is asked for again with backoff; an expired continue token starts the list over", () => {
  const first = step(paged(), { _tag: "ListSucceeded", result: { items: [object("a", "5")], resourceVersion: "7", continue: "t1" } })
  const failed = step(first.state, { _tag: "ListFailed", error: apiError("Unavailable", "list") })
  assert.deepEqual(failed.state, paged({ continue: "t1", relisting: true, failures: 1, backoff: true }))
  const expired = step(first.state, { _tag: "ListFailed", error: apiError("Gone", "list") })
  assert.deepEqual(expired.state, paged({ failures: 1 }))
  const over = step(expired.state, { _tag: "ListSucceeded", result: { items: [], resourceVersion: "9" } })
  assert.deepEqual(tags(over.events), ["RelistStarted", "Restarted"])
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
  assert.deepEqual(result.state, watching("12", 2))
})

test("step: Gone relists (a watch-list, or pages once refused) at once the first time, with backoff when it repeats without events", () => {
  const first = step(watching("12"), { _tag: "WatchFailed", error: apiError("Gone", "watch") })
  assert.deepEqual(first.state, { ...initialWatcherState, failures: 1 })
  const listed = step(first.state, { _tag: "WatchReceived", event: initialEventsEnd("20") })
  const second = step(listed.state, { _tag: "WatchFailed", error: apiError("Gone", "watch") })
  // the bookmark counts as a watch event: the failure count started over
  assert.deepEqual(second.state, { ...initialWatcherState, failures: 1 })
  const pagedGone = step(watching("12", 1, false), { _tag: "WatchFailed", error: apiError("Gone", "watch") })
  assert.deepEqual(pagedGone.state, paged({ failures: 2, backoff: true }))
})

test("step: other failures keep the resume point and back off; a watch event resets the count", () => {
  const failed = step(watching("12"), { _tag: "WatchFailed", error: apiError("Unavailable", "watch") })
  assert.deepEqual(failed.state, { ...watching("12", 1), backoff: true })
  const again = step(failed.state, { _tag: "WatchFailed", error: apiError("Internal", "watch") })
  assert.equal(again.state.failures, 2)
  const recovered = step(again.state, { _tag: "WatchReceived", event: { type: "MODIFIED", object: object("a", "13") } })
  assert.deepEqual(recovered.state, watching("13"))
  const listFailed = step(paged(), { _tag: "ListFailed", error: apiError("Forbidden", "list") })
  assert.deepEqual(listFailed.state, paged({ failures: 1, backoff: true }))
})

/** Runs the watcher over a fake port under TestClock with jitter pinned to its low bound. */
const withWatcher = <A>(
  body: (ctx: {
    fake: Effect.Success<ReturnType<typeof makeFakeKubeApi>>
    events: Queue.Queue<WatcherEvent>
  }) => Effect.Effect<A>,
  options: { readonly watchList?: boolean; readonly paged?: boolean } = {}
) =>
  Effect.runPromise(Effect.gen(function*() {
    const fake = yield* makeFakeKubeApi([kind], options)
    const events = yield* Queue.unbounded<WatcherEvent>()
    const fiber = yield* runWatcher(kind, { namespace: "default", labelSelector: "app=x", ...(options.paged === true ? { watchList: false } : {}) }, (batch) => Effect.asVoid(Queue.offerAll(events, batch)))
      .pipe(Effect.provide(fake.layer), Effect.forkChild)
    const result = yield* body({ fake, events })
    yield* Fiber.interrupt(fiber)
    return result
  }).pipe(
    Effect.provide(TestClock.layer()),
    Effect.provideService(Random.Random, { nextDoubleUnsafe: () => 0, nextIntUnsafe: () => 0 }),
    Effect.provideService(References.MinimumLogLevel, "None")
  ))

/** The next `n` events the watcher emitted. */
const take = (events: Queue.Queue<WatcherEvent>, n: number) =>
  Effect.forEach(Array.from({ length: n }), () => Queue.take(events))

test("runWatcher fills the cache with a watch-list and goes on with the same stream", () =>
  withWatcher(({ fake, events }) => Effect.gen(function*() {
    const script = fake.kind(kind)
    const watchList = yield* script.nextWatch
    assert.equal(watchList.options.sendInitialEvents, true)
    assert.equal(watchList.options.allowBookmarks, true)
    assert.equal(watchList.options.resourceVersion, "")
    assert.equal(watchList.options.labelSelector, "app=x")
    yield* watchList.emit("ADDED", { metadata: { name: "a", namespace: "default", resourceVersion: "3" } })
    // each object reaches the store as it arrives
    assert.deepEqual(yield* take(events, 2), [
      { _tag: "RelistStarted" },
      { _tag: "Relisted", objects: [{ metadata: { name: "a", namespace: "default", resourceVersion: "3" } }] }
    ])
    yield* watchList.emit("BOOKMARK", { metadata: { resourceVersion: "10", annotations: { "k8s.io/initial-events-end": "true" } } })
    assert.deepEqual(yield* Queue.take(events), { _tag: "Restarted", resourceVersion: "10" })
    yield* watchList.emit("MODIFIED", object("a", "11"))
    assert.deepEqual(yield* Queue.take(events), { _tag: "Applied", object: object("a", "11") })
    yield* watchList.end
    const resumed = yield* script.nextWatch
    assert.equal(resumed.options.resourceVersion, "11")
    assert.equal(resumed.options.sendInitialEvents, undefined)
    // no list at all
    assert.equal((yield* script.listCalls).length, 0)
    assert.equal(yield* script.watchListCalls, 1)
  }), { watchList: true }))

test("runWatcher relists with a new watch-list on 410 Gone", () =>
  withWatcher(({ fake, events }) => Effect.gen(function*() {
    const script = fake.kind(kind)
    const first = yield* script.nextWatch
    yield* first.emit("BOOKMARK", { metadata: { resourceVersion: "10", annotations: { "k8s.io/initial-events-end": "true" } } })
    yield* take(events, 2)
    yield* first.fail("Gone")
    const second = yield* script.nextWatch
    assert.equal(second.options.sendInitialEvents, true)
    yield* second.emit("ADDED", object("a", "3"))
    yield* second.emit("BOOKMARK", { metadata: { resourceVersion: "30", annotations: { "k8s.io/initial-events-end": "true" } } })
    assert.deepEqual((yield* take(events, 3)).map((e) => e._tag), ["RelistStarted", "Relisted", "Restarted"])
    assert.equal(yield* script.watchListCalls, 2)
  }), { watchList: true }))

test("runWatcher falls back to paged lists where the server refuses watch-lists, and watches from the last page's version", () =>
  withWatcher(({ fake, events }) => Effect.gen(function*() {
    const script = fake.kind(kind)
    yield* script.respondList([{ metadata: { name: "a", namespace: "default", resourceVersion: "3" } }], "10", "next-page")
    assert.deepEqual(yield* take(events, 2), [
      { _tag: "RelistStarted" },
      { _tag: "Relisted", objects: [{ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a", namespace: "default", resourceVersion: "3" } }] }
    ])
    yield* script.respondList([object("b", "4")], "10")
    assert.deepEqual(yield* take(events, 2), [{ _tag: "Relisted", objects: [object("b", "4")] }, { _tag: "Restarted", resourceVersion: "10" }])
    assert.equal(yield* script.watchListCalls, 1)
    const calls = yield* script.listCalls
    assert.deepEqual(calls, [
      { namespace: "default", labelSelector: "app=x", fieldSelector: undefined, limit: 500, continue: undefined },
      { namespace: "default", labelSelector: "app=x", fieldSelector: undefined, limit: 500, continue: "next-page" }
    ])

    const first = yield* script.nextWatch
    assert.equal(first.options.resourceVersion, "10")
    assert.equal(first.options.allowBookmarks, true)
    assert.equal(first.options.sendInitialEvents, undefined)
    yield* first.emit("ADDED", object("c", "11"))
    assert.deepEqual(yield* Queue.take(events), { _tag: "Applied", object: object("c", "11") })
    yield* first.emit("BOOKMARK", { metadata: { resourceVersion: "15" } })
    yield* first.end

    const second = yield* script.nextWatch
    assert.equal(second.options.resourceVersion, "15")
    yield* second.emit("DELETED", object("c", "16"))
    assert.deepEqual(yield* Queue.take(events), { _tag: "Deleted", object: object("c", "16") })
    // Gone: the relist is paged again, the refused watch-list not asked for again
    yield* second.fail("Gone")
    yield* script.respondList([object("a", "3")], "30")
    assert.deepEqual((yield* take(events, 3)).map((e) => e._tag), ["RelistStarted", "Relisted", "Restarted"])
    assert.equal((yield* script.nextWatch).options.resourceVersion, "30")
    assert.equal(yield* script.watchListCalls, 1)
    assert.equal((yield* script.listCalls).length, 3)
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
    assert.deepEqual((yield* take(events, 2)).map((e) => e._tag), ["RelistStarted", "Restarted"])
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
    // configured not to ask for watch-lists
    assert.equal(yield* script.watchListCalls, 0)
  }), { paged: true }))

test("watcher is the same machine as a Stream", () =>
  Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const fake = yield* makeFakeKubeApi([kind])
    const first = yield* Effect.forkChild(
      Stream.runCollect(Stream.take(watcher(kind), 4)).pipe(Effect.provideService(KubeApi, fake.service))
    )
    yield* fake.kind(kind).respondList([object("a", "1")], "5")
    const watch = yield* fake.kind(kind).nextWatch
    yield* watch.emit("MODIFIED", object("a", "6"))
    const events = yield* Fiber.join(first)
    assert.deepEqual(Array.from(events).map((e) => e._tag), ["RelistStarted", "Relisted", "Restarted", "Applied"])
  }))))
