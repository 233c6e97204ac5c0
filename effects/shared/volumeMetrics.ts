/**
 * Metrics of the node plugin's own work, beside the per-call csi_plugin_operations_seconds
 * (csi/metrics.ts): why publishes wait, what the live address refresh did, and how many
 * volumes this node has published (the NodePluginMissing alert remembers a node by it).
 */
import { Effect, Metric } from "effect"

/** What one pass of the live address refresh did (node/addressRefresh.ts). */
export interface RefreshOutcome {
  readonly checked: number
  readonly republished: number
  readonly forgotten: number
}

/** Volume calls that had to wait, by `action` (PublishVolume | CreateVolume) and `reason` (the waiting Event's reason). */
export const volumeWaitsTotal = Metric.counter("listener_operator_volume_waits_total", {
  description: "Volume calls answered 'not yet' (the kubelet or provisioner retries), by action and the waiting Event's reason",
  incremental: true
})

/** Published volumes the live refresh looked at, by `outcome`: unchanged | republished | forgotten. */
export const volumeRefreshTotal = Metric.counter("listener_operator_volume_refresh_total", {
  description: "Published volumes checked by the live address refresh, by outcome (unchanged, republished, forgotten)",
  incremental: true
})

/** Passes of the live address refresh. */
export const volumeRefreshPassesTotal = Metric.counter("listener_operator_volume_refresh_passes_total", {
  description: "Passes of the live address refresh",
  incremental: true
})

/** Volumes this node plugin has published and not yet unpublished. */
export const publishedVolumesGauge = Metric.gauge("listener_operator_published_volumes", {
  description: "Listener volumes published on this node and not unpublished yet"
})

export const recordVolumeWait = (action: "PublishVolume" | "CreateVolume", reason: string): Effect.Effect<void> =>
  Metric.update(Metric.withAttributes(volumeWaitsTotal, { action, reason }), 1)

export const recordRefresh = (outcome: RefreshOutcome): Effect.Effect<void> =>
  Effect.all([
    Metric.update(volumeRefreshPassesTotal, 1),
    Metric.update(Metric.withAttributes(volumeRefreshTotal, { outcome: "unchanged" }), outcome.checked - outcome.republished - outcome.forgotten),
    Metric.update(Metric.withAttributes(volumeRefreshTotal, { outcome: "republished" }), outcome.republished),
    Metric.update(Metric.withAttributes(volumeRefreshTotal, { outcome: "forgotten" }), outcome.forgotten)
  ], { discard: true })
