/**
 * Controller runtime metrics, as `effect` Metrics (exported by whatever exporter the
 * composition root installs, e.g. PrometheusMetrics). Names follow controller-runtime's so
 * existing dashboards read naturally; every series carries a `controller` attribute.
 */
import { Metric } from "effect"

export type ReconcileResult = "success" | "error" | "defect"

/** Reconciles finished, by `controller` and `result` (success | error | defect). */
export const reconcileTotal = Metric.counter("controller_runtime_reconcile_total", {
  description: "Reconciles finished, by controller and result",
  incremental: true
})

/** Reconcile wall time in seconds, by `controller`. */
export const reconcileDurationSeconds = Metric.histogram("controller_runtime_reconcile_time_seconds", {
  description: "Reconcile duration in seconds",
  boundaries: Metric.exponentialBoundaries({ start: 0.001, factor: 2, count: 16 })
})

/** Keys waiting for a worker, by `controller`. */
export const workQueueDepth = Metric.gauge("workqueue_depth", { description: "Keys waiting for a worker" })

/** Watch events applied to a cache, by `kind`. */
export const cacheEventsTotal = Metric.counter("controller_runtime_cache_events_total", {
  description: "Watcher events applied to the cache, by kind and type",
  incremental: true
})

/** 1 while this process holds the lease, by `lease`. */
export const leaderElectionMaster = Metric.gauge("leader_election_master_status", {
  description: "1 while this process leads, 0 otherwise"
})
