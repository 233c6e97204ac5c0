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
 * - list, emit `Restarted(all objects)`, then watch from the list's resourceVersion with
 *   bookmarks;
 * - every event and bookmark moves the resume point; when the server ends the watch
 *   (timeout), watch again from the last seen resourceVersion;
 * - on 410 Gone the resume point is too old: list again and emit a new `Restarted`, so the
 *   store can replace its contents and drop objects deleted while we were not watching;
 * - any other failure backs off exponentially with jitter (capped) and retries the same
 *   request. A watch event resets the backoff. A Gone right after a working watch relists at
 *   once; repeated Gones without an event in between back off like other failures.
 * The watcher never fails: failures are logged and retried forever; it ends only by
 * interruption.
 */
import { Effect, Queue, Ref, Result, Stream } from "effect"
import type { ResourceKind } from "../../domain/kinds.ts"
import { KubeApi, withTypeMeta } from "../../effects/shared/KubeApi.ts"
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

/** A (re)list: `objects` is the complete set as of `resourceVersion`; anything else is gone. */
export interface Restarted {
  readonly _tag: "Restarted"
  readonly objects: ReadonlyArray<KubeObject>
  readonly resourceVersion: string
}

export type WatcherEvent = Applied | Deleted | Restarted

export const WatcherEvent = {
  applied: (object: KubeObject): WatcherEvent => ({ _tag: "Applied", object }),
  deleted: (object: KubeObject): WatcherEvent => ({ _tag: "Deleted", object }),
  restarted: (objects: ReadonlyArray<KubeObject>, resourceVersion: string): WatcherEvent =>
    ({ _tag: "Restarted", objects, resourceVersion })
} as const

// ---------------------------------------------------------------------------------------
// State machine

export interface WatcherState {
  /** The next request to send. */
  readonly next: "List" | "Watch"
  /** Where the next watch resumes: the last resourceVersion seen (list, event or bookmark). */
  readonly resourceVersion: string | undefined
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

export const initialWatcherState: WatcherState = { next: "List", resourceVersion: undefined, failures: 0, backoff: false }

export interface Step {
  readonly events: ReadonlyArray<WatcherEvent>
  readonly state: WatcherState
}

const none: ReadonlyArray<WatcherEvent> = []

const received = (state: WatcherState, event: WatchEvent): Step => {
  const resourceVersion = event.object.metadata?.resourceVersion ?? state.resourceVersion
  const next: WatcherState = { next: "Watch", resourceVersion, failures: 0, backoff: false }
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

export const step = (state: WatcherState, input: WatcherInput): Step => {
  switch (input._tag) {
    case "ListSucceeded":
      return {
        events: [WatcherEvent.restarted(input.result.items, input.result.resourceVersion)],
        state: { next: "Watch", resourceVersion: input.result.resourceVersion, failures: state.failures, backoff: false }
      }
    case "ListFailed":
      return { events: none, state: { ...state, next: "List", failures: state.failures + 1, backoff: true } }
    case "WatchReceived":
      return received(state, input.event)
    case "WatchEnded":
      return { events: none, state: { ...state, next: "Watch", backoff: false } }
    case "WatchFailed": {
      const failures = state.failures + 1
      if (input.error.reason === "Gone") {
        return { events: none, state: { next: "List", resourceVersion: undefined, failures, backoff: failures > 1 } }
      }
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
}

export const defaultWatcherBackoff: BackoffPolicy = { initial: "800 millis", max: "30 seconds", factor: 2, jitter: 0.2 }

/**
 * Runs the watcher forever, handing every batch of events to `emit` in order. The next
 * request is sent only after `emit` returns, which gives natural backpressure.
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
    const state = yield* Ref.make(initialWatcherState)
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

    const list = Effect.flatMap(Effect.result(api.list(kind, selectors)), (result) =>
      Result.isSuccess(result)
        ? feed({
          _tag: "ListSucceeded",
          result: { items: result.success.items.map((item) => withTypeMeta(kind, item)), resourceVersion: result.success.resourceVersion }
        })
        : Effect.andThen(reportFailure("list", result.failure), feed({ _tag: "ListFailed", error: result.failure })))

    const watch = (resourceVersion: string) =>
      api.watch(kind, { ...selectors, resourceVersion, allowBookmarks: true, timeoutSeconds }).pipe(
        Stream.runForEach((event) => feed({ _tag: "WatchReceived", event })),
        Effect.matchEffect({
          onSuccess: () => feed({ _tag: "WatchEnded" }),
          onFailure: (error) => Effect.andThen(reportFailure("watch", error), feed({ _tag: "WatchFailed", error }))
        })
      )

    const once = Effect.gen(function*() {
      const current = yield* Ref.get(state)
      if (current.backoff) yield* Effect.sleep(yield* nextBackoff(policy, current.failures))
      if (current.next === "List" || current.resourceVersion === undefined) yield* list
      else yield* watch(current.resourceVersion)
    })
    return yield* Effect.forever(once).pipe(logged)
  })

/** The watcher as a `Stream` (buffered, with backpressure on the list/watch requests). */
export const watcher = (kind: ResourceKind, config: WatcherConfig = {}): Stream.Stream<WatcherEvent, never, KubeApi> =>
  Stream.callback<WatcherEvent, never, KubeApi>((queue) => runWatcher(kind, config, (events) => Effect.asVoid(Queue.offerAll(queue, events))))
