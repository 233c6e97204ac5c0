/**
 * What this node plugin has published: one record per target path, so that addresses
 * that change after a Pod started can be refreshed (addressRefresh.ts). The production
 * node role keeps the records as small JSON files beside the CSI socket, read once at start
 * (adapters/PublishedVolumesFiles.ts); the in-memory twin here serves tests and the demo.
 * A record is a Schema of its own, not the publish's input type: it is read back from disk,
 * written by another version of this plugin or by something else altogether, and is
 * decoded like every other input (`decodePublishedRecord`).
 *
 * `addresses` are what the volume holds; a refresh re-publishes only volumes whose
 * addresses would now be different.
 */
import { Context, Effect, Layer, Metric, Schedule, Schema } from "effect"
import type { Duration } from "effect"
import { decodeWith } from "../../domain/decode.ts"
import { ListenerIngress } from "../../domain/listener.ts"
import { ListenerScope } from "../../domain/podListeners.ts"
import { publishedVolumesGauge } from "../shared/volumeMetrics.ts"

const ObjectName = Schema.Struct({ namespace: Schema.String, name: Schema.String })

export const PublishedRecord = Schema.Struct({
  /** The NodePublishVolume request, as a re-publish repeats it. */
  request: Schema.Struct({
    volumeId: Schema.String,
    targetPath: Schema.String,
    pod: Schema.Struct({ namespace: Schema.String, name: Schema.String, uid: Schema.optional(Schema.String) }),
    listener: Schema.Union([
      Schema.Struct({ _tag: Schema.Literal("ListenerName"), listenerName: Schema.String }),
      Schema.Struct({ _tag: Schema.Literal("ListenerClass"), className: Schema.String })
    ]),
    volumeContext: Schema.Record(Schema.String, Schema.String)
  }),
  listener: ObjectName,
  addresses: Schema.Array(ListenerIngress),
  /**
   * The Pod volume's entry in its PodListeners, as our publish wrote it: a refresh then
   * rewrites only that entry and the tree (addressRefresh.ts). Absent in records of
   * volumes found on disk (takeover/adoptNodeVolumes.ts) and of earlier versions: those
   * take the whole publish once.
   */
  podVolume: Schema.optional(Schema.Struct({ name: Schema.String, scope: ListenerScope }))
})
export type PublishedRecord = typeof PublishedRecord.Type

/** A record file's text → the record, or a `DecodeError` naming what is wrong (not JSON, a field missing or mistyped). */
export const decodePublishedRecord = decodeWith("published-volume record", Schema.fromJsonString(PublishedRecord))

export class PublishedVolumes extends Context.Service<PublishedVolumes, {
  record(record: PublishedRecord): Effect.Effect<void>
  forget(targetPath: string): Effect.Effect<void>
  /** The record of one target, if it is still published (the refresh re-checks under the target's lock). */
  get(targetPath: string): Effect.Effect<PublishedRecord | undefined>
  all: Effect.Effect<ReadonlyArray<PublishedRecord>>
}>()("listener-operator/effects/PublishedVolumes") {
  /** In memory only (tests, the in-memory demo, tools). */
  static readonly layerMemory = Layer.sync(PublishedVolumes, () => {
    const records = new Map<string, PublishedRecord>()
    return PublishedVolumes.of({
      record: (record) => Effect.sync(() => void records.set(record.request.targetPath, record)),
      forget: (targetPath) => Effect.sync(() => void records.delete(targetPath)),
      get: (targetPath) => Effect.sync(() => records.get(targetPath)),
      all: Effect.sync(() => [...records.values()])
    })
  })
}

/** Keeps listener_operator_published_volumes at the registry's count, read every `every`. */
export const trackPublishedVolumes = (every: Duration.Input): Effect.Effect<never, never, PublishedVolumes> =>
  Effect.gen(function*() {
    const registry = yield* PublishedVolumes
    return yield* Effect.flatMap(registry.all, (records) => Metric.update(publishedVolumesGauge, records.length)).pipe(
      Effect.repeat(Schedule.spaced(every)),
      Effect.andThen(Effect.never)
    )
  })
