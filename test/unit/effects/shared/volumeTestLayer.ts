/**
 * The layers the volume program tests run on: the in-memory Kubernetes API, the
 * in-memory volume filesystem, an Event recorder writing to that API and the controller's
 * volume binder (which the node plugin's publish waits for), fresh for every test; plus a reader that turns a volume
 * tree into a flat record for whole-tree assertions.
 */
import { Effect, Layer } from "effect"
import { EventRecorderKube } from "../../../../adapters/EventRecorderKube.ts"
import { KubeApiMemory } from "../../../../adapters/KubeApiMemory.ts"
import type { EventRecorder } from "../../../../effects/shared/EventRecorder.ts"
import { VolumeFsMemory } from "../../../../adapters/VolumeFsMemory.ts"
import type { KubeApi } from "../../../../effects/shared/KubeApi.ts"
import { VolumeFs } from "../../../../effects/shared/VolumeFs.ts"
import type { VolumeFsError } from "../../../../effects/shared/VolumeFs.ts"
import { VolumeBinderRunning } from "./volumeBinderLayer.ts"

/** Events go to the in-memory API server, one write per occurrence (no throttling), so tests can read them. */
const events = EventRecorderKube.layer({ reportingController: "test/csi-node", reportingInstance: "node-1", seriesWriteInterval: 0 })

export const runInCluster = <A, E>(effect: Effect.Effect<A, E, KubeApi | KubeApiMemory | VolumeFs | EventRecorder>): Promise<void> =>
  Effect.runPromise(effect.pipe(
    Effect.asVoid,
    Effect.provide(Layer.provideMerge(Layer.merge(events, VolumeBinderRunning), Layer.merge(KubeApiMemory.layer(), VolumeFsMemory.layer)))
  ))

/** Every entry under `root`, links not followed: `{ "a/": "dir", "a/x": "contents", "l": "-> target" }`. */
const rawTree = (root: string): Effect.Effect<Record<string, string>, VolumeFsError, VolumeFs> =>
  Effect.gen(function*() {
    const fs = yield* VolumeFs
    const out: Record<string, string> = {}
    const walk = (relative: string): Effect.Effect<void, VolumeFsError> =>
      Effect.gen(function*() {
        for (const name of yield* fs.readDir(relative === "" ? root : `${root}/${relative}`)) {
          const path = relative === "" ? name : `${relative}/${name}`
          const type = yield* fs.entryType(`${root}/${path}`)
          if (type === "directory") {
            out[`${path}/`] = "dir"
            yield* walk(path)
          } else if (type === "symlink") out[path] = `-> ${yield* fs.readLink(`${root}/${path}`)}`
          else out[path] = yield* fs.readFile(`${root}/${path}`)
        }
      })
    yield* walk("")
    return out
  })

/**
 * What a reader of the volume sees: `{ "addresses/": "dir", "addresses/x/address": "x",
 * "default-address": "-> addresses/x" }`, read from the live version behind `..data`.
 * A top-level entry that is not a link through `..data` shows up as its own key so that
 * the assertions comparing whole trees fail.
 */
export const snapshotTree = (root: string): Effect.Effect<Record<string, string>, VolumeFsError, VolumeFs> =>
  Effect.gen(function*() {
    const fs = yield* VolumeFs
    if ((yield* fs.entryType(`${root}/..data`)) !== "symlink") return yield* rawTree(root)
    const live = yield* fs.readLink(`${root}/..data`)
    const out: Record<string, string> = { ...(yield* rawTree(`${root}/${live}`)) }
    for (const name of yield* fs.readDir(root)) {
      // The live version, and the one it replaced (kept until the next swap for readers mid-walk).
      if (name === "..data" || /^\.\.v[0-9]+$/u.test(name)) continue
      const link = (yield* fs.entryType(`${root}/${name}`)) === "symlink" ? yield* fs.readLink(`${root}/${name}`) : undefined
      if (link !== `..data/${name}`) out[`(top level) ${name}`] = link === undefined ? "not a link" : `-> ${link}`
    }
    return out
  })
