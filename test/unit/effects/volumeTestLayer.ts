/**
 * The layers the volume program tests run on: the in-memory Kubernetes API and the
 * in-memory volume filesystem, fresh for every test; plus a reader that turns a volume
 * tree into a flat record for whole-tree assertions.
 */
import { Effect, Layer } from "effect"
import { KubeApiMemory } from "../../../adapters/KubeApiMemory.ts"
import { VolumeFsMemory } from "../../../adapters/VolumeFsMemory.ts"
import type { KubeApi } from "../../../effects/KubeApi.ts"
import { VolumeFs } from "../../../effects/VolumeFs.ts"
import type { VolumeFsError } from "../../../effects/VolumeFs.ts"

export const runInCluster = <A, E>(effect: Effect.Effect<A, E, KubeApi | KubeApiMemory | VolumeFs>): Promise<void> =>
  Effect.runPromise(effect.pipe(Effect.asVoid, Effect.provide(Layer.merge(KubeApiMemory.layer(), VolumeFsMemory.layer))))

/** `{ "addresses/": "dir", "addresses/x/address": "x", "default-address": "-> addresses/x" }`. */
export const snapshotTree = (root: string): Effect.Effect<Record<string, string>, VolumeFsError, VolumeFs> =>
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
