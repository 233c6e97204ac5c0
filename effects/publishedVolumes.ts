/**
 * What this node plugin has published: one record per target path, so that addresses
 * that change after a Pod started can be refreshed (refreshVolumes.ts). Records are kept
 * as small JSON files in a state directory beside the CSI socket (a host path in the
 * chart), so a restarted plugin still knows the volumes published before it; a record goes
 * when its volume is unpublished.
 *
 * `addresses` are what the volume holds; a refresh re-publishes only volumes whose
 * addresses would now be different.
 */
import { Context, Effect, Layer } from "effect"
import { fingerprint } from "../domain/listenerPlan/json.ts"
import type { ListenerIngress } from "../domain/listenerPlan/inputs.ts"
import type { PublishVolumeRequest } from "./publishVolume.ts"
import { VolumeFs } from "./VolumeFs.ts"

export interface PublishedRecord {
  readonly request: PublishVolumeRequest
  readonly listener: { readonly namespace: string; readonly name: string }
  readonly addresses: ReadonlyArray<ListenerIngress>
}

export class PublishedVolumes extends Context.Service<PublishedVolumes, {
  record(record: PublishedRecord): Effect.Effect<void>
  forget(targetPath: string): Effect.Effect<void>
  all: Effect.Effect<ReadonlyArray<PublishedRecord>>
}>()("listener-operator/effects/PublishedVolumes") {
  /** In memory only (tests, tools). */
  static readonly layerMemory = Layer.sync(PublishedVolumes, () => {
    const records = new Map<string, PublishedRecord>()
    return PublishedVolumes.of({
      record: (record) => Effect.sync(() => void records.set(record.request.targetPath, record)),
      forget: (targetPath) => Effect.sync(() => void records.delete(targetPath)),
      all: Effect.sync(() => [...records.values()])
    })
  })

  /** Persisted as `<stateDir>/<fingerprint of the target path>.json`; read back at start. */
  static readonly layerFiles = (stateDir: string): Layer.Layer<PublishedVolumes, never, VolumeFs> =>
    Layer.effect(PublishedVolumes, Effect.gen(function*() {
      const fs = yield* VolumeFs
      const fileOf = (targetPath: string) => `${stateDir}/${fingerprint(targetPath)}.json`
      const warn = (what: string) => (error: { readonly message: string }) => Effect.logWarning(`published-volume state: ${what}: ${error.message}`)
      yield* fs.mkdir(stateDir, { recursive: true }).pipe(Effect.catch(warn(`create ${stateDir}`)))
      return PublishedVolumes.of({
        record: (record) =>
          Effect.gen(function*() {
            const file = fileOf(record.request.targetPath)
            yield* fs.writeFile(`${file}.tmp`, JSON.stringify(record))
            yield* fs.rename(`${file}.tmp`, file)
          }).pipe(Effect.catch(warn(`record ${record.request.targetPath}`))),
        forget: (targetPath) =>
          fs.removeTree(fileOf(targetPath)).pipe(Effect.catch(warn(`forget ${targetPath}`))),
        all: Effect.gen(function*() {
          const names = yield* fs.readDir(stateDir)
          const records: Array<PublishedRecord> = []
          for (const name of names.filter((n) => n.endsWith(".json"))) {
            const text = yield* fs.readFile(`${stateDir}/${name}`)
            try {
              records.push(JSON.parse(text) as PublishedRecord)
            } catch {
              yield* Effect.logWarning(`published-volume state: ignoring unreadable ${name}`)
            }
          }
          return records
        }).pipe(Effect.catch((error) => Effect.as(warn("read")(error), [])))
      })
    }))
}
