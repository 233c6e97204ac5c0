/**
 * Watcher: turns the KubeApi port's list and watch into an endless stream of cache updates
 * for one kind (optionally scoped by namespace, label and field selector).
 *
 * It is written as an explicit state machine: `step(state, input) → { events, state }` is a
 * pure function of what the port answered, and `runWatcher` is the small driver that asks
 * the port what the state says to ask next. Tests drive `step` directly and the driver with
 * a fake port.
 *
 * Protocol (the one client-go's reflector and kube-rs's watcher follow):
 * - fill the cache with a watch-list (KEP-3157): one watch with `sendInitialEvents`, whose
 *   ADDED events are the current state, one object at a time, up to a BOOKMARK annotated
 *   `k8s.io/initial-events-end`; the same watch then goes on with the changes. Where the
 *   API server refuses it (400/422: no WatchList feature) or ends it before that bookmark
 *   (a server that ignores the parameter), list in pages of `listPageSize` instead
 *   (`limit`/`continue`) and watch from the list's resourceVersion, from then on;
 * - either way a relist reaches the store as `RelistStarted`, `Relisted(objects)` for each
 *   object or page as it arrives, and `Restarted(resourceVersion)` at its end, so the
 *   store decodes and strips objects as they come and the whole list is never held at
 *   once (a single answer of 10,000 Listeners was decoded whole before: issue 30);
 * - every event and bookmark moves the resume point; when the server ends the watch
 *   (timeout), watch again from the last seen resourceVersion;
 * - on 410 Gone the resume point is too old: relist, so the store can drop objects deleted
 *   while we were not watching;
 * - any other failure backs off exponentially with jitter (capped) and retries: the same
 *   watch, the same list page, or the watch-list from its start. A watch event resets the
 *   backoff. A Gone right after a working watch relists at once; repeated Gones without an
 *   event in between back off like other failures.
 * The watcher never fails: failures are logged and retried forever; it ends only by
 * interruption.
 */
import { Effect, Queue, Ref, Result, Stream } from "effect"
import type { ResourceKind } from "../../domain/kinds.ts"
import { INITIAL_EVENTS_END_ANNOTATION, KubeApi, withTypeMeta } from "../../effects/shared/KubeApi.ts"
import type { KubeApiError, KubeObject, ListResult, WatchEvent } from "../../effects/shared/KubeApi.ts"
import { type BackoffPolicy, nextBackoff, validateBackoffPolicy } from "./backoff.ts"

// ---------------------------------------------------------------------------------------
// Events

/** The object was created or changed (or is the newest version we know). */
export interface Applied {
  readonly _tag: "Applied"
  readonly object: KubeObject
}

/** The object was deleted; `object` is its last state. */
export interface Deleted {
  readonly _tag: "Deleted"
  readonly object: KubeObject
}

/** A (re)list begins: what follows up to `Restarted` is the complete set. */
export interface RelistStarted {
  readonly _tag: "RelistStarted"
}

/** Objects of the relist under way (one watch-list event, or one list page). */
export interface Relisted {
  readonly _tag: "Relisted"
  readonly objects: ReadonlyArray<KubeObject>
}

/** The relist is complete as of `resourceVersion`: what it did not bring is gone. */
export interface Restarted {
  readonly _tag: "Restarted"
  readonly resourceVersion: string
}

export type WatcherEvent = Applied | Deleted | RelistStarted | Relisted | Restarted

export const WatcherEvent = {
  applied: (object: KubeObject): WatcherEvent => ({ _tag: "Applied", object }),
  deleted: (object: KubeObject): WatcherEvent => ({ _tag: "Deleted", object }),
  relistStarted: { _tag: "RelistStarted" } as WatcherEvent,
  relisted: (objects: ReadonlyArray<KubeObject>): WatcherEvent => ({ _tag: "Relisted", objects }),
  restarted: (resourceVersion: string): WatcherEvent => ({ _tag: "Restarted", resourceVersion }),
  /** A whole relist in one go (tests, in-memory harnesses). */
  relist: (objects: ReadonlyArray<KubeObject>, resourceVersion: string): ReadonlyArray<WatcherEvent> => [
    WatcherEvent.relistStarted,
    ...(objects.length === 0 ? [] : [WatcherEvent.relisted(objects)]),
    WatcherEvent.restarted(resourceVersion)
  ]
} as const

// ---------------------------------------------------------------------------------------
// State machine

export interface WatcherState {
  /**
   * The request under way or to send next: a watch-list (until its initial-events-end
   * bookmark), a list page, or a watch from `resourceVersion`.
   */
  readonly next: "WatchList" | "List" | "Watch"
  /** Where the next watch resumes: the last resourceVersion seen (list, event or bookmark). */
  readonly resourceVersion: string | undefined
  /** The `continue` token of the next list page; undefined: the first page. */
  readonly continue: string | undefined
  /** A relist has begun (`RelistStarted` emitted) and not ended. */
  readonly relisting: boolean
  /** False once the API server refused (or ignored) a watch-list: relists list in pages. */
  readonly watchList: boolean
  /** Consecutive failures since the last watch event; sizes the backoff. */
  readonly failures: number
  /** Wait `backoff(failures)` before sending the next request. */
  readonly backoff: boolean
}

/** What the port answered to the request the state asked for. */
export type WatcherInput =
  | { readonly _tag: "ListSucceeded"; readonly result: ListResult }
  | { readonly _tag: "ListFailed"; readonly error: KubeApiError }
  | { readonly _tag: "WatchReceived"; readonly event: WatchEvent }
  | { readonly _tag: "WatchEnded" }
  | { readonly _tag: "WatchFailed"; readonly error: KubeApiError }

export const initialWatcherState: WatcherState = {
  next: "WatchList",
  resourceVersion: undefined,
  continue: undefined,
  relisting: false,
  watchList: true,
  failures: 0,
  backoff: false
}

/** A watcher that lists in pages from the start (an API server known not to serve watch-lists). */
export const pagedWatcherState: WatcherState = { ...initialWatcherState, next: "List", watchList: false }

export interface Step {
  readonly events: ReadonlyArray<WatcherEvent>
  readonly state: WatcherState
}

const none: ReadonlyArray<WatcherEvent> = []

const isInitialEventsEnd = (event: WatchEvent): boolean =>
  event.type === "BOOKMARK" && event.object.metadata?.annotations?.[INITIAL_EVENTS_END_ANNOTATION] === "true"

/** A relist from the start: a watch-list if the server serves them, else the first list page. */
const relistFrom = (state: WatcherState, failures: number, backoff: boolean): WatcherState => ({
  ...state,
  next: state.watchList ? "WatchList" : "List",
  resourceVersion: undefined,
  continue: undefined,
  // a new RelistStarted: what an abandoned attempt brought does not count as seen
  relisting: false,
  failures,
  backoff
})

/** The events that begin a relist, unless one is under way already. */
const begin = (state: WatcherState): ReadonlyArray<WatcherEvent> => (state.relisting ? none : [WatcherEvent.relistStarted])

/** An event of a watch-list's initial phase. */
const receivedInitial = (state: WatcherState, event: WatchEvent): Step => {
  if (isInitialEventsEnd(event)) {
    const resourceVersion = event.object.metadata.resourceVersion ?? ""
    return {
      events: [...begin(state), WatcherEvent.restarted(resourceVersion)],
      state: { ...state, next: "Watch", resourceVersion, relisting: false, failures: 0, backoff: false }
    }
  }
  switch (event.type) {
    case "ADDED":
    case "MODIFIED":
      return { events: [...begin(state), WatcherEvent.relisted([event.object])], state: { ...state, relisting: true } }
    case "DELETED":
      return { events: [...begin(state), WatcherEvent.deleted(event.object)], state: { ...state, relisting: true } }
    case "BOOKMARK":
      // a progress bookmark of the initial phase: no resume point yet (its events are not ordered)
      return { events: none, state }
  }
}

const received = (state: WatcherState, event: WatchEvent): Step => {
  if (state.next === "WatchList") return receivedInitial(state, event)
  const resourceVersion = event.object.metadata?.resourceVersion ?? state.resourceVersion
  const next: WatcherState = { ...state, next: "Watch", resourceVersion, failures: 0, backoff: false }
  switch (event.type) {
    case "ADDED":
    case "MODIFIED":
      return { events: [WatcherEvent.applied(event.object)], state: next }
    case "DELETED":
      return { events: [WatcherEvent.deleted(event.object)], state: next }
    case "BOOKMARK":
      return { events: none, state: next }
  }
}

/** The API server does not take the watch-list's parameters (WatchList feature off, or an older server). */
const refusesWatchList = (error: KubeApiError): boolean => error.reason === "Invalid" || error.reason === "BadRequest"

export const step = (state: WatcherState, input: WatcherInput): Step => {
  switch (input._tag) {
    case "ListSucceeded": {
      const { items, resourceVersion } = input.result
      const events = [...begin(state), ...(items.length === 0 ? [] : [WatcherEvent.relisted(items)])]
      if (input.result.continue !== undefined) {
        return { events, state: { ...state, next: "List", continue: input.result.continue, relisting: true, backoff: false } }
      }
      return {
        events: [...events, WatcherEvent.restarted(resourceVersion)],
        state: { ...state, next: "Watch", resourceVersion, continue: undefined, relisting: false, backoff: false }
      }
    }
    case "ListFailed": {
      const failures = state.failures + 1
      // an expired continue token: the list starts over (at once the first time)
      if (input.error.reason === "Gone") return { events: none, state: { ...relistFrom(state, failures, failures > 1), next: "List" } }
      return { events: none, state: { ...state, next: "List", failures, backoff: true } }
    }
    case "WatchReceived":
      return received(state, input.event)
    case "WatchEnded":
      // Ended before its initial-events-end bookmark: a server that ignored the watch-list's
      // parameters (it never sends that bookmark); list in pages from now on.
      if (state.next === "WatchList") return { events: none, state: { ...relistFrom({ ...state, watchList: false }, state.failures, false) } }
      return { events: none, state: { ...state, next: "Watch", backoff: false } }
    case "WatchFailed": {
      if (state.next === "WatchList") {
        if (refusesWatchList(input.error)) return { events: none, state: relistFrom({ ...state, watchList: false }, state.failures, false) }
        return { events: none, state: relistFrom(state, state.failures + 1, true) }
      }
      const failures = state.failures + 1
      if (input.error.reason === "Gone") return { events: none, state: relistFrom(state, failures, failures > 1) }
      return { events: none, state: { ...state, next: "Watch", failures, backoff: true } }
    }
  }
}

// ---------------------------------------------------------------------------------------
// Driver

export interface WatcherConfig {
  readonly namespace?: string | undefined
  readonly labelSelector?: string | undefined
  readonly fieldSelector?: string | undefined
  /** Backoff for list/watch failures (default 800ms doubling to 30s, jitter 0.2). */
  readonly backoff?: BackoffPolicy | undefined
  /** Ask the server to end each watch after this long, so a silently dead connection is renewed (default 300). */
  readonly watchTimeoutSeconds?: number | undefined
  /** Objects per page when the server does not serve watch-lists (default 500, client-go's pager's). */
  readonly listPageSize?: number | undefined
  /** False: list in pages and never ask for a watch-list (default true). */
  readonly watchList?: boolean | undefined
}

export const defaultWatcherBackoff: BackoffPolicy = { initial: "800 millis", max: "30 seconds", factor: 2, jitter: 0.2 }

/**
 * Runs the watcher forever, handing every batch of events to `emit` in order. The next
 * request (or the next event of a stream) is read only after `emit` returns, which gives
 * natural backpressure.
 */
export const runWatcher = <R>(
  kind: ResourceKind,
  config: WatcherConfig,
  emit: (events: ReadonlyArray<WatcherEvent>) => Effect.Effect<void, never, R>
): Effect.Effect<never, never, KubeApi | R> =>
  Effect.gen(function*() {
    const api = yield* KubeApi
    const policy = yield* validateBackoffPolicy(config.backoff ?? defaultWatcherBackoff, `watcher(${kind.kind})`)
    const selectors = { namespace: config.namespace, labelSelector: config.labelSelector, fieldSelector: config.fieldSelector }
    const timeoutSeconds = config.watchTimeoutSeconds ?? 300
    const limit = config.listPageSize ?? 500
    const state = yield* Ref.make(config.watchList === false ? pagedWatcherState : initialWatcherState)
    const logged = Effect.annotateLogs({ kind: kind.kind, namespace: config.namespace ?? "*" })

    const feed = (input: WatcherInput) =>
      Effect.flatMap(Ref.modify(state, (current) => {
        const next = step(current, input)
        return [next.events, next.state] as const
      }), (events) => (events.length === 0 ? Effect.void : emit(events)))

    const reportFailure = (verb: string, error: KubeApiError) =>
      error.reason === "Gone"
        ? Effect.logInfo(`${verb} resourceVersion expired; relisting`)
        : Effect.logWarning(`${verb} failed; backing off`).pipe(
          Effect.annotateLogs({ reason: error.reason, error: error.message })
        )

    const list = (cont: string | undefined) =>
      Effect.flatMap(Effect.result(api.list(kind, { ...selectors, limit, continue: cont })), (result) =>
        Result.isSuccess(result)
          ? feed({
            _tag: "ListSucceeded",
            result: { ...result.success, items: result.success.items.map((item) => withTypeMeta(kind, item)) }
          })
          : Effect.andThen(reportFailure("list", result.failure), feed({ _tag: "ListFailed", error: result.failure })))

    const watch = (resourceVersion: string, watchList: boolean) =>
      api.watch(kind, {
        ...selectors,
        resourceVersion,
        allowBookmarks: true,
        timeoutSeconds,
        ...(watchList ? { sendInitialEvents: true } : {})
      }).pipe(
        Stream.runForEach((event) => feed({ _tag: "WatchReceived", event })),
        Effect.matchEffect({
          onSuccess: () =>
            Effect.andThen(
              Effect.flatMap(Ref.get(state), (current) =>
                current.next === "WatchList"
                  ? Effect.logWarning("the watch-list ended before its initial-events-end bookmark; listing in pages from now on")
                  : Effect.void),
              feed({ _tag: "WatchEnded" })
            ),
          onFailure: (error) =>
            Effect.andThen(
              watchList && (error.reason === "Invalid" || error.reason === "BadRequest")
                ? Effect.logInfo("the API server refuses watch-lists; listing in pages from now on").pipe(
                  Effect.annotateLogs({ error: error.message })
                )
                : reportFailure(watchList ? "watch-list" : "watch", error),
              feed({ _tag: "WatchFailed", error })
            )
        })
      )

    const once = Effect.gen(function*() {
      const current = yield* Ref.get(state)
      if (current.backoff) yield* Effect.sleep(yield* nextBackoff(policy, current.failures))
      if (current.next === "WatchList") yield* watch("", true)
      else if (current.next === "List" || current.resourceVersion === undefined) yield* list(current.continue)
      else yield* watch(current.resourceVersion, false)
    })
    return yield* Effect.forever(once).pipe(logged)
  })

/** The watcher as a `Stream` (buffered, with backpressure on the list/watch requests). */
export const watcher = (kind: ResourceKind, config: WatcherConfig = {}): Stream.Stream<WatcherEvent, never, KubeApi> =>
  Stream.callback<WatcherEvent, never, KubeApi>((queue) => runWatcher(kind, config, (events) => Effect.asVoid(Queue.offerAll(queue, events))))
