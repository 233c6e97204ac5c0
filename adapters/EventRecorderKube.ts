/**
 * EventRecorder over the KubeApi port, writing events.k8s.io/v1 Events.
 *
 * Aggregation (what `kubectl get events` users expect instead of one Event per retry):
 * the first occurrence of (object uid or name, type, reason, note) creates an Event; a
 * repeat within `seriesWindow` of the last one joins that Event's `series` (count,
 * lastObservedTime) instead. After the window a new Event starts. The series bookkeeping
 * is in memory, so a restart begins new series — harmless, Events expire.
 *
 * Rate limits, so a retrying kubelet or a broken object cannot flood the API server
 * (the same two limits client-go's recorder applies):
 * - a series is patched at most once per `seriesWriteInterval`; occurrences in between
 *   only count in memory and are written by the next patch (or by `flush`, which the
 *   layer runs every interval);
 * - new Events per object draw on a token bucket (`objectBurst`, one token back every
 *   `objectRefill`); an Event with no token left is dropped and logged at debug level.
 *   At most `maxTrackedObjects` buckets are kept, without forgetting a spent budget
 *   (events/objectBudgets.ts says how).
 *
 * Records of one series are serialised (effects/shared/keyedLock.ts): reading the bookkeeping and
 * the write it decides on are one step, so concurrent records of one Event — a Pod and its
 * retries on several gRPC streams — create one Event and count the rest in its series.
 *
 * Never fails: a refused or failed write is logged as a warning (an Event is diagnostic).
 */
import { Clock, Duration, Effect, Layer, Ref, Schedule } from "effect"
import { Kinds } from "../domain/kinds.ts"
import { EventRecorder } from "../effects/shared/EventRecorder.ts"
import type { EventRecord } from "../effects/shared/EventRecorder.ts"
import { KubeApi } from "../effects/shared/KubeApi.ts"
import { makeKeyedLock } from "../effects/shared/keyedLock.ts"
import { makeObjectBudgets } from "./events/objectBudgets.ts"

export interface EventRecorderKubeOptions {
  /** `reportingController`, e.g. `listeners.stackable.tech/listener-operator`. */
  readonly reportingController: string
  /** `reportingInstance`: which replica reported, e.g. the Pod name. */
  readonly reportingInstance: string
  /** How long after the last occurrence a repeat still joins the series (default 10 minutes). */
  readonly seriesWindow?: Duration.Input | undefined
  /** At most one series patch per Event this often (default 1 minute; 0 writes every repeat). */
  readonly seriesWriteInterval?: Duration.Input | undefined
  /** New Events one object may get at once (default 25, as client-go). */
  readonly objectBurst?: number | undefined
  /** How often an object regains one new-Event token (default 5 minutes, as client-go). */
  readonly objectRefill?: Duration.Input | undefined
  /** Objects whose new-Event budget is tracked at most (default 4,096; see events/objectBudgets.ts). */
  readonly maxTrackedObjects?: number | undefined
}

interface Series {
  readonly namespace: string
  readonly eventName: string
  readonly count: number
  /** The count the API server has. */
  readonly writtenCount: number
  readonly lastMillis: number
  readonly lastWriteMillis: number
}

const MAX_NOTE = 1024
const MAX_SERIES = 4096

/** MicroTime: RFC 3339 with exactly six fractional digits. */
const microTime = (millis: number): string => new Date(millis).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z")

const truncateNote = (note: string): string => (note.length <= MAX_NOTE ? note : `${note.slice(0, MAX_NOTE - 1)}…`)

const objectKey = (event: EventRecord): string =>
  [event.regarding.kind, event.regarding.namespace ?? "", event.regarding.uid ?? event.regarding.name].join("\u0000")

const seriesKey = (event: EventRecord): string => [objectKey(event), event.type, event.reason, event.note].join("\u0000")

/** Keeps the newest `max` entries of a Map (insertion order = age). */
const bounded = <V>(map: Map<string, V>, max: number): Map<string, V> =>
  map.size < max ? map : new Map([...map].slice(-(max - 1)))

export const makeEventRecorderKube = (options: EventRecorderKubeOptions) =>
  Effect.gen(function*() {
    const api = yield* KubeApi
    const windowMillis = Duration.toMillis(Duration.fromInputUnsafe(options.seriesWindow ?? "10 minutes"))
    const writeIntervalMillis = Duration.toMillis(Duration.fromInputUnsafe(options.seriesWriteInterval ?? "1 minute"))
    const budgets = makeObjectBudgets({
      burst: options.objectBurst ?? 25,
      refillMillis: Duration.toMillis(Duration.fromInputUnsafe(options.objectRefill ?? "5 minutes")),
      maxObjects: options.maxTrackedObjects ?? MAX_SERIES
    })
    const series = yield* Ref.make(new Map<string, Series>())
    const seriesLock = makeKeyedLock()
    let sequence = 0

    const warnOf = (event: EventRecord) => (error: { readonly message: string }) =>
      Effect.logWarning(`could not record Event ${event.reason} for ${event.regarding.kind} ${event.regarding.namespace ?? ""}/${event.regarding.name}: ${error.message}`)

    /** Takes a new-Event token for the object; false when its budget is spent. */
    const takeToken = (event: EventRecord, now: number) => Effect.sync(() => budgets.take(objectKey(event), now))

    const create = (event: EventRecord, key: string, now: number) =>
      Effect.gen(function*() {
        if (!(yield* takeToken(event, now))) {
          return yield* Effect.logDebug(`dropping Event ${event.reason} for ${event.regarding.kind} ${event.regarding.name}: too many Events for this object`)
        }
        const namespace = event.regarding.namespace ?? "default"
        // client-go names Events `<object>.<hex timestamp>`; the sequence keeps two in one millisecond apart.
        const eventName = `${event.regarding.name}.${(BigInt(now) * 1_000_000n + BigInt(sequence++ % 1_000_000)).toString(16)}`
        yield* api.create(Kinds.Event, {
          apiVersion: "events.k8s.io/v1",
          kind: "Event",
          metadata: { name: eventName, namespace },
          eventTime: microTime(now),
          reportingController: options.reportingController,
          reportingInstance: options.reportingInstance,
          action: event.action,
          reason: event.reason,
          type: event.type,
          note: truncateNote(event.note),
          regarding: {
            apiVersion: event.regarding.apiVersion,
            kind: event.regarding.kind,
            name: event.regarding.name,
            ...(event.regarding.namespace !== undefined ? { namespace: event.regarding.namespace } : {}),
            ...(event.regarding.uid !== undefined ? { uid: event.regarding.uid } : {})
          }
        })
        yield* Ref.update(series, (all) => {
          const live = new Map([...all].filter(([, s]) => now - s.lastMillis <= windowMillis))
          return bounded(live, MAX_SERIES).set(key, { namespace, eventName, count: 1, writtenCount: 1, lastMillis: now, lastWriteMillis: now })
        })
      })

    const writeSeries = (key: string, current: Series, now: number) =>
      Effect.gen(function*() {
        yield* api.patch(Kinds.Event, { namespace: current.namespace, name: current.eventName }, {
          series: { count: current.count, lastObservedTime: microTime(current.lastMillis) }
        }, { type: "merge" })
        yield* Ref.update(series, (all) => {
          const latest = all.get(key)
          return latest === undefined ? all : new Map(all).set(key, { ...latest, writtenCount: Math.max(latest.writtenCount, current.count), lastWriteMillis: now })
        })
      })

    /** Under the series' lock: the bookkeeping read below and the write it decides on are one step. */
    const recordLocked = (event: EventRecord, key: string) => Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const previous = (yield* Ref.get(series)).get(key)
      if (previous === undefined || now - previous.lastMillis > windowMillis) {
        return yield* create(event, key, now).pipe(Effect.catch(warnOf(event)))
      }
      const current = { ...previous, count: previous.count + 1, lastMillis: now }
      yield* Ref.update(series, (all) => new Map(all).set(key, current))
      if (now - current.lastWriteMillis < writeIntervalMillis) return
      yield* writeSeries(key, current, now).pipe(
        // The Event expired or was deleted: start a new series.
        Effect.catchIf((error) => error.reason === "NotFound", () => create(event, key, now)),
        Effect.catch(warnOf(event))
      )
    })

    const record = Effect.fn("EventRecorderKube.record")(function*(event: EventRecord) {
      const key = seriesKey(event)
      yield* seriesLock.withLock(key)(recordLocked(event, key))
    })

    /** Writes a series if it counted occurrences since its last write (read under its lock, so no record interleaves). */
    const flushSeries = (key: string) =>
      seriesLock.withLock(key)(Effect.gen(function*() {
        const current = (yield* Ref.get(series)).get(key)
        if (current === undefined || current.count <= current.writtenCount) return
        yield* writeSeries(key, current, yield* Clock.currentTimeMillis).pipe(
          Effect.catch((error) => Effect.logDebug(`could not write the series of Event ${current.eventName}: ${error.message}`))
        )
      }))

    /** Writes every series that counted occurrences since its last write. */
    const flush = Effect.gen(function*() {
      const dirty = [...(yield* Ref.get(series))].filter(([, s]) => s.count > s.writtenCount).map(([key]) => key)
      yield* Effect.forEach(dirty, flushSeries, { discard: true })
    })

    return { recorder: EventRecorder.of({ record }), flush, writeInterval: Duration.millis(Math.max(writeIntervalMillis, 1000)) } as const
  })

export const EventRecorderKube = {
  /** The recorder, with a background flush of throttled series every `seriesWriteInterval` (at least 1 s). */
  layer: (options: EventRecorderKubeOptions) =>
    Layer.effect(EventRecorder, Effect.gen(function*() {
      const made = yield* makeEventRecorderKube(options)
      yield* Effect.forkScoped(Effect.repeat(made.flush, Schedule.spaced(made.writeInterval)))
      return made.recorder
    }))
} as const
