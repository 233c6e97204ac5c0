// The node plugin's own metrics (effects/shared/volumeMetrics.ts): a waiting publish is counted by
// its Event's reason (a failure that is not waiting is not), each refresh pass adds its
// outcomes, and the published-volumes gauge follows the registry.
import { test } from "node:test"
import assert from "node:assert/strict"
import { Effect, Fiber, Metric } from "effect"
import { PrometheusMetrics } from "effect/observability"
import { EventRecorder } from "../../../../effects/shared/EventRecorder.ts"
import { PublishedVolumes } from "../../../../effects/node/PublishedVolumes.ts"
import { VolumeFsError } from "../../../../effects/shared/VolumeFs.ts"
import { ListenerAddressesNotReady, VolumeTreeWriteFailed } from "../../../../effects/shared/volumeErrors.ts"
import { recordRefresh } from "../../../../effects/shared/volumeMetrics.ts"
import { trackPublishedVolumes } from "../../../../effects/node/PublishedVolumes.ts"
import { reportVolumeWaiting } from "../../../../effects/shared/volumeWaiting.ts"

const valueOf = (text: string, name: string, labels: Record<string, string> = {}): number | undefined => {
  const line = text.split("\n").find((l) =>
    (l.startsWith(`${name}{`) || l.startsWith(`${name} `)) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)))
  return line === undefined ? undefined : Number(line.split(" ").at(-1))
}

const withRegistry = <A, E>(effect: Effect.Effect<A, E>) => Effect.provideService(effect, Metric.MetricRegistry, new Map())

test("waiting publishes are counted by action and reason; other failures are not", async () => {
  const text = await Effect.runPromise(withRegistry(Effect.gen(function*() {
    const report = reportVolumeWaiting("PublishVolume", [])
    const waiting = new ListenerAddressesNotReady({ namespace: "apps", listener: "web", awaiting: "ListenerAddresses", problem: "no addresses yet" })
    yield* report(waiting)
    yield* report(waiting)
    yield* report(new VolumeTreeWriteFailed({ targetPath: "/x", step: "swap in tree", cause: new VolumeFsError({ reason: "Other", op: "rename", path: "/x", message: "disk full" }) }))
    return yield* PrometheusMetrics.format()
  }).pipe(Effect.provide(EventRecorder.layerNoop))))
  assert.equal(valueOf(text, "listener_operator_volume_waits_total", { action: "PublishVolume", reason: "AwaitingListenerAddress" }), 2)
  assert.equal(text.split("\n").filter((l) => l.startsWith("listener_operator_volume_waits_total{")).length, 1, text)
})

test("each refresh pass adds its outcomes; the gauge follows the published volumes", async () => {
  const text = await Effect.runPromise(withRegistry(Effect.scoped(Effect.gen(function*() {
    yield* recordRefresh({ checked: 5, republished: 2, forgotten: 1 })
    yield* recordRefresh({ checked: 4, republished: 0, forgotten: 0 })
    const tracking = yield* Effect.forkScoped(trackPublishedVolumes("1 hour"))
    yield* Effect.yieldNow
    const text = yield* PrometheusMetrics.format()
    yield* Fiber.interrupt(tracking)
    return text
  })).pipe(Effect.provide(PublishedVolumes.layerMemory))))
  assert.equal(valueOf(text, "listener_operator_volume_refresh_passes_total"), 2)
  assert.equal(valueOf(text, "listener_operator_volume_refresh_total", { outcome: "unchanged" }), 6)
  assert.equal(valueOf(text, "listener_operator_volume_refresh_total", { outcome: "republished" }), 2)
  assert.equal(valueOf(text, "listener_operator_volume_refresh_total", { outcome: "forgotten" }), 1)
  assert.equal(valueOf(text, "listener_operator_published_volumes"), 0)
})

test("a pass that found nothing still shows every outcome, at 0 (dashboards and rates see the series from the first pass)", async () => {
  const text = await Effect.runPromise(withRegistry(Effect.andThen(recordRefresh({ checked: 0, republished: 0, forgotten: 0 }), PrometheusMetrics.format())))
  for (const outcome of ["unchanged", "republished", "forgotten"]) {
    assert.equal(valueOf(text, "listener_operator_volume_refresh_total", { outcome }), 0, `${outcome}:\n${text}`)
  }
  assert.equal(valueOf(text, "listener_operator_volume_refresh_passes_total"), 1)
})
