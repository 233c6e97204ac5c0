/**
 * What this node plugin has published: one record per target path, so that addresses
 * that change after a Pod started can be refreshed (refreshVolumes.ts). Records are kept
 * as small JSON files in a state directory beside the CSI socket (a host path in the
 * chart), so a restarted plugin still knows the volumes published before it; a record goes
 * when its volume is unpublished. The files are read once, when the plugin starts; after
 * that the records are served from memory — the plugin is the directory's only writer, and
 * a refresh pass, one per watch event, lists them all (re-reading every file on each pass
 * cost a node with 200 volumes 200 file reads per Listener event, issue 21).
 *
 * `addresses` are what the volume holds; a refresh re-publishes only volumes whose
 * addresses would now be different.
 */
import { Context, Effect, Layer } from "effect"
import { fingerprint } from "../../domain/listenerPlan/json.ts"
import type { ListenerIngress } from "../../domain/listenerPlan/inputs.ts"
import type { ListenerScope } from "../../domain/podListeners.ts"
import type { PublishVolumeRequest } from "./publishSteps.ts"
import { VolumeFs } from "../shared/VolumeFs.ts"
import type { VolumeFsError } from "../shared/VolumeFs.ts"

export interface PublishedRecord {
  readonly request: PublishVolumeRequest
  readonly listener: { readonly namespace: string; readonly name: string }
  readonly addresses: ReadonlyArray<ListenerIngress>
  /**
   * The Pod volume's entry in its PodListeners, as our publish wrote it: a refresh then
   * rewrites only that entry and the tree (republishVolume.ts). Absent in records of
   * volumes found on disk (adoptPublishedTargets.ts) and of earlier versions: those take
   * the whole publish once.
   */
  readonly podVolume?: { readonly name: string; readonly scope: ListenerScope } | undefined
}

export class PublishedVolumes extends Context.Service<PublishedVolumes, {
  record(record: PublishedRecord): Effect.Effect<void>
  forget(targetPath: string): Effect.Effect<void>
  /** The record of one target, if it is still published (the refresh re-checks under the target's lock). */
  get(targetPath: string): Effect.Effect<PublishedRecord | undefined>
  all: Effect.Effect<ReadonlyArray<PublishedRecord>>
}>()("listener-operator/effects/PublishedVolumes") {
  /** In memory only (tests, tools). */
  static readonly layerMemory = Layer.sync(PublishedVolumes, () => {
    const records = new Map<string, PublishedRecord>()
    return PublishedVolumes.of({
      record: (record) => Effect.sync(() => void records.set(record.request.targetPath, record)),
      forget: (targetPath) => Effect.sync(() => void records.delete(targetPath)),
      get: (targetPath) => Effect.sync(() => records.get(targetPath)),
      all: Effect.sync(() => [...records.values()])
    })
  })

  /** Persisted as `<stateDir>/<fingerprint of the target path>.json`; read back at start. */
  static readonly layerFiles = (stateDir: string): Layer.Layer<PublishedVolumes, never, VolumeFs> =>
    Layer.effect(PublishedVolumes, Effect.gen(function*() {
      const fs = yield* VolumeFs
      const fileOf = (targetPath: string) => `${stateDir}/${fingerprint(targetPath)}.json`
      const warn = (what: string) => (error: { readonly message: string }) => Effect.logWarning(`published-volume state: ${what}: ${error.message}`)
      /** One record file; undefined when it is gone or unreadable (after a warning). */
      const readRecord = (file: string): Effect.Effect<PublishedRecord | undefined, VolumeFsError> =>
        fs.readFile(file).pipe(
          Effect.flatMap((text) =>
            Effect.suspend(() => {
              try {
                return Effect.succeed(JSON.parse(text) as PublishedRecord)
              } catch {
                return Effect.as(Effect.logWarning(`published-volume state: ignoring unreadable ${file}`), undefined)
              }
            })
          ),
          Effect.catch((error) => error.reason === "NotFound" ? Effect.succeed(undefined) : Effect.fail(error))
        )
      yield* fs.mkdir(stateDir, { recursive: true }).pipe(Effect.catch(warn(`create ${stateDir}`)))
      // What a previous process of this plugin recorded, read once. Keyed by the record's own
      // target path, so a record is found again whatever its file is called.
      const records = new Map<string, PublishedRecord>()
      yield* Effect.gen(function*() {
        const names = yield* fs.readDir(stateDir)
        for (const name of names.filter((n) => n.endsWith(".json"))) {
          const record = yield* readRecord(`${stateDir}/${name}`)
          if (record !== undefined) records.set(record.request.targetPath, record)
        }
      }).pipe(Effect.catch(warn("read")))
      return PublishedVolumes.of({
        // Memory is the truth while the plugin runs; a file that cannot be written (after a
        // warning) costs only the record's survival of a restart.
        record: (record) =>
          Effect.gen(function*() {
            const file = fileOf(record.request.targetPath)
            yield* fs.writeFile(`${file}.tmp`, JSON.stringify(record))
            yield* fs.rename(`${file}.tmp`, file)
          }).pipe(
            Effect.catch(warn(`record ${record.request.targetPath}`)),
            Effect.andThen(Effect.sync(() => void records.set(record.request.targetPath, record)))
          ),
        forget: (targetPath) =>
          fs.removeTree(fileOf(targetPath)).pipe(
            Effect.catch(warn(`forget ${targetPath}`)),
            Effect.andThen(Effect.sync(() => void records.delete(targetPath)))
          ),
        get: (targetPath) => Effect.sync(() => records.get(targetPath)),
        all: Effect.sync(() => [...records.values()])
      })
    }))
}
