/**
 * The node role's published-volume records (effects/node/PublishedVolumes.ts) as JSON files
 * in a state directory beside the CSI socket (a host path in the chart), so a restarted
 * plugin still knows the volumes published before it. The files are read once, at start;
 * then the records are served from memory — the plugin is the directory's only writer, and
 * re-reading every file per refresh pass cost 200 reads per Listener event (issue 21).
 * A file that is not a record (cut off, or another program's) is reported and removed; its
 * volume is recorded again from its target at start (effects/takeover/adoptNodeVolumes.ts).
 */
import { Effect, Layer } from "effect"
import { fingerprint } from "../domain/listenerPlan/json.ts"
import { decodePublishedRecord, PublishedVolumes } from "../effects/node/PublishedVolumes.ts"
import type { PublishedRecord } from "../effects/node/PublishedVolumes.ts"
import { VolumeFs } from "../effects/shared/VolumeFs.ts"
import type { VolumeFsError } from "../effects/shared/VolumeFs.ts"

export const PublishedVolumesFiles = {
/** Persisted as `<stateDir>/<fingerprint of the target path>.json`; read back at start. */
  layer: (stateDir: string): Layer.Layer<PublishedVolumes, never, VolumeFs> =>
    Layer.effect(PublishedVolumes, Effect.gen(function*() {
      const fs = yield* VolumeFs
      const fileOf = (targetPath: string) => `${stateDir}/${fingerprint(targetPath)}.json`
      const warn = (what: string) => (error: { readonly message: string }) => Effect.logWarning(`published-volume state: ${what}: ${error.message}`)
      /** One record file; undefined when it is gone, or not a record (after a warning, and removed). */
      const readRecord = (file: string): Effect.Effect<PublishedRecord | undefined, VolumeFsError> =>
        fs.readFile(file).pipe(
          Effect.flatMap((text) =>
            decodePublishedRecord(text).pipe(Effect.catchTag("DecodeError", (error) =>
              Effect.logWarning(`published-volume state: ${file} is not a published-volume record, removed (its volume is recorded again from its target): ${error.message}`).pipe(
                Effect.andThen(fs.removeTree(file).pipe(Effect.catch(warn(`remove ${file}`)))),
                Effect.as(undefined)
              )))
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
