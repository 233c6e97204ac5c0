/**
 * Listeners by readiness, counted from the controller's cache (every replica keeps it warm,
 * so every replica reports the same counts: aggregate with max, not sum):
 *
 *   listener_operator_listeners{ready="true"|"false"}
 *
 * A Listener is ready when its Ready condition is True; one without that condition yet (not
 * reconciled) counts as not ready. The ListenerNotReady alert and the dashboard read it.
 */
import { Effect, Metric, Schedule } from "effect"
import type { Duration } from "effect"
import type { KubeObject } from "../effects/shared/KubeApi.ts"
import type { Store } from "./runtime/store.ts"

export const listenersByReadiness = Metric.gauge("listener_operator_listeners", {
  description: "Listeners in the controller's cache, by whether their Ready condition is True"
})

export const isReady = (listener: KubeObject): boolean => {
  const conditions = (listener as { readonly status?: { readonly conditions?: ReadonlyArray<{ readonly type?: unknown; readonly status?: unknown }> } })
    .status?.conditions
  return Array.isArray(conditions) && conditions.some((c) => c.type === "Ready" && c.status === "True")
}

/** Sets the gauge from `listeners` now and every `every`. */
export const trackListenerReadiness = (listeners: Store<string>, every: Duration.Input): Effect.Effect<never> =>
  Effect.flatMap(listeners.list(), (all) => {
    const ready = all.filter(isReady).length
    return Effect.all([
      Metric.update(Metric.withAttributes(listenersByReadiness, { ready: "true" }), ready),
      Metric.update(Metric.withAttributes(listenersByReadiness, { ready: "false" }), all.length - ready)
    ], { discard: true })
  }).pipe(Effect.repeat(Schedule.spaced(every)), Effect.andThen(Effect.never))
