/**
 * Requests this process sent to the Kubernetes API, as a Prometheus counter: the same
 * count as RequestCounter (stats.ts), by `verb` (get, list, watch, apply, patch, ...) and
 * `resource` (`services`, `listeners.listeners.stackable.tech/status`, ...). Each role
 * reports its own, so "API requests by role" is a sum by the scrape's role label.
 */
import { Metric } from "effect"
import type { Effect } from "effect"

export const kubeApiRequestsTotal = Metric.counter("listener_operator_kube_api_requests_total", {
  description: "Requests sent to the Kubernetes API, by verb and resource",
  incremental: true
})

export const countKubeApiRequest = (request: { readonly verb: string; readonly resource: string }): Effect.Effect<void> =>
  Metric.update(Metric.withAttributes(kubeApiRequestsTotal, { verb: request.verb, resource: request.resource }), 1)
