/**
 * The Kubernetes Event port: report something that happened to an object (spec §7).
 *
 * Implementations aggregate: the same reason and note for the same object within a window
 * bump the count of one Event series instead of creating a new Event per retry.
 * Recording never fails — an Event is a courtesy to the user, and a failure to record one
 * must not fail the work that triggered it (implementations log it instead).
 * Implementations: `adapters/EventRecorderKube.ts` (events.k8s.io/v1), `layerNoop`, and
 * `layerMemory` (keeps what was recorded, for tests).
 */
import { Context, Effect, Layer, Ref } from "effect"

export interface EventRegarding {
  readonly apiVersion: string
  readonly kind: string
  readonly name: string
  readonly namespace?: string | undefined
  readonly uid?: string | undefined
}

export interface EventRecord {
  readonly regarding: EventRegarding
  readonly type: "Normal" | "Warning"
  /** CamelCase, machine-readable: why (e.g. ListenerClassNotFound). */
  readonly reason: string
  /** CamelCase: what the controller was doing (e.g. ApplyService). */
  readonly action: string
  /** Human-readable details (at most 1 kB is kept). */
  readonly note: string
}

export class EventRecorder extends Context.Service<EventRecorder, {
  record(event: EventRecord): Effect.Effect<void>
}>()("listener-operator/effects/EventRecorder") {
  static readonly layerNoop = Layer.succeed(EventRecorder, EventRecorder.of({ record: () => Effect.void }))
}

/** A recorder that keeps every recorded event (unaggregated), for tests. */
export const makeMemoryEventRecorder = Effect.gen(function*() {
  const recorded = yield* Ref.make<ReadonlyArray<EventRecord>>([])
  const recorder = EventRecorder.of({ record: (event) => Ref.update(recorded, (all) => [...all, event]) })
  return { recorder, recorded: Ref.get(recorded) } as const
})
