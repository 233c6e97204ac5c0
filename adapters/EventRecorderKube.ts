/**
 * EventRecorder over the KubeApi port, writing events.k8s.io/v1 Events.
 *
 * Aggregation (what `kubectl get events` users expect instead of one Event per retry):
 * the first occurrence of (object uid or name, type, reason, note) creates an Event; a
 * repeat within `seriesWindow` of the last one merge-patches that Event's `series`
 * (count, lastObservedTime) instead. After the window a new Event starts. The series
 * bookkeeping is in memory, so a restart begins new series — harmless, Events expire.
 *
 * Never fails: a refused or failed write is logged as a warning (an Event is diagnostic).
 */
import { Clock, Duration, Effect, Layer, Ref } from "effect"
import { Kinds } from "../domain/kinds.ts"
import { EventRecorder } from "../effects/EventRecorder.ts"
import type { EventRecord } from "../effects/EventRecorder.ts"
import { KubeApi } from "../effects/KubeApi.ts"

export interface EventRecorderKubeOptions {
  /** `reportingController`, e.g. `listeners.stackable.tech/listener-operator`. */
  readonly reportingController: string
  /** `reportingInstance`: which replica reported, e.g. the Pod name. */
  readonly reportingInstance: string
  /** How long after the last occurrence a repeat still joins the series (default 10 minutes). */
  readonly seriesWindow?: Duration.Input | undefined
}

interface Series {
  readonly namespace: string
  readonly eventName: string
  readonly count: number
  readonly lastMillis: number
}

const MAX_NOTE = 1024
const MAX_SERIES = 4096

/** MicroTime: RFC 3339 with exactly six fractional digits. */
const microTime = (millis: number): string => new Date(millis).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z")

const truncateNote = (note: string): string => (note.length <= MAX_NOTE ? note : `${note.slice(0, MAX_NOTE - 1)}…`)

const seriesKey = (event: EventRecord): string =>
  [event.regarding.kind, event.regarding.namespace ?? "", event.regarding.uid ?? event.regarding.name, event.type, event.reason, event.note].join("\u0000")

export const makeEventRecorderKube = (options: EventRecorderKubeOptions) =>
  Effect.gen(function*() {
    const api = yield* KubeApi
    const windowMillis = Duration.toMillis(Duration.fromInputUnsafe(options.seriesWindow ?? "10 minutes"))
    const series = yield* Ref.make(new Map<string, Series>())
    let sequence = 0

    const create = (event: EventRecord, key: string, now: number) =>
      Effect.gen(function*() {
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
          const next = new Map([...all].filter(([, s]) => now - s.lastMillis <= windowMillis).slice(-(MAX_SERIES - 1)))
          return next.set(key, { namespace, eventName, count: 1, lastMillis: now })
        })
      })

    const bump = (key: string, current: Series, now: number) =>
      Effect.gen(function*() {
        const count = current.count + 1
        yield* api.patch(Kinds.Event, { namespace: current.namespace, name: current.eventName }, {
          series: { count, lastObservedTime: microTime(now) }
        }, { type: "merge" })
        yield* Ref.update(series, (all) => new Map(all).set(key, { ...current, count, lastMillis: now }))
      })

    const record = Effect.fn("EventRecorderKube.record")(function*(event: EventRecord) {
      const now = yield* Clock.currentTimeMillis
      const key = seriesKey(event)
      const current = (yield* Ref.get(series)).get(key)
      const write = current !== undefined && now - current.lastMillis <= windowMillis
        ? bump(key, current, now).pipe(
          // The Event expired or was deleted: start a new series.
          Effect.catchIf((error) => error.reason === "NotFound", () => create(event, key, now))
        )
        : create(event, key, now)
      yield* write.pipe(
        Effect.catch((error) => Effect.logWarning(`could not record Event ${event.reason} for ${event.regarding.kind} ${event.regarding.namespace ?? ""}/${event.regarding.name}: ${error.message}`))
      )
    })
    return EventRecorder.of({ record })
  })

export const EventRecorderKube = {
  layer: (options: EventRecorderKubeOptions) => Layer.effect(EventRecorder, makeEventRecorderKube(options))
} as const
