/**
 * A VolumeFs wrapper for the concurrency tests. Every operation first gives the other
 * fibers a turn — and, from a seeded sequence, sometimes a millisecond — so concurrent
 * writers of one target interleave operation by operation, in an order a seed reproduces.
 * A pause point holds the first operation that matches, so a test can line up another
 * call at exactly that moment (e.g. an unpublish just before a refresh writes its tree).
 */
import { Deferred, Effect } from "effect"
import { VolumeFs } from "../../../../effects/shared/VolumeFs.ts"

type VolumeFsService = (typeof VolumeFs)["Service"]

export interface PausePoint {
  /** Completed when an operation matched; that operation waits for `release`. */
  readonly reached: Deferred.Deferred<void>
  readonly release: Deferred.Deferred<void>
}

export interface InterleavingVolumeFs {
  readonly fs: VolumeFsService
  /** Hold the next operation `op` on exactly `path` (the first one only). */
  readonly pauseAt: (op: keyof VolumeFsService, path: string) => Effect.Effect<PausePoint>
}

/** mulberry32: a small seeded generator, so a failing interleaving can be replayed. */
const seeded = (seed: number) => {
  let state = seed >>> 0
  return (): number => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export const interleavingVolumeFs = (inner: VolumeFsService, seed: number): InterleavingVolumeFs => {
  const random = seeded(seed)
  let pause: { readonly op: string; readonly path: string; readonly point: PausePoint } | undefined
  const turn = (op: keyof VolumeFsService, path: string): Effect.Effect<void> =>
    Effect.gen(function*() {
      const armed = pause
      if (armed !== undefined && armed.op === op && armed.path === path) {
        pause = undefined
        yield* Deferred.succeed(armed.point.reached, undefined)
        yield* Deferred.await(armed.point.release)
      }
      yield* random() < 0.2 ? Effect.sleep("1 millis") : Effect.yieldNow
    })
  const fs = VolumeFs.of({
    mkdir: (path, options) => Effect.andThen(turn("mkdir", path), inner.mkdir(path, options)),
    writeFile: (path, contents) => Effect.andThen(turn("writeFile", path), inner.writeFile(path, contents)),
    readFile: (path) => Effect.andThen(turn("readFile", path), inner.readFile(path)),
    symlink: (target, path) => Effect.andThen(turn("symlink", path), inner.symlink(target, path)),
    readLink: (path) => Effect.andThen(turn("readLink", path), inner.readLink(path)),
    rename: (from, to) => Effect.andThen(turn("rename", from), inner.rename(from, to)),
    removeTree: (path) => Effect.andThen(turn("removeTree", path), inner.removeTree(path)),
    entryType: (path) => Effect.andThen(turn("entryType", path), inner.entryType(path)),
    readDir: (path) => Effect.andThen(turn("readDir", path), inner.readDir(path))
  })
  const pauseAt = (op: keyof VolumeFsService, path: string) =>
    Effect.gen(function*() {
      const point = { reached: yield* Deferred.make<void>(), release: yield* Deferred.make<void>() }
      pause = { op, path, point }
      return point
    })
  return { fs, pauseAt }
}
