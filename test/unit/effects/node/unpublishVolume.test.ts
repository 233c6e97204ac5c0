import { test } from "node:test"
import assert from "node:assert/strict"
import { Effect } from "effect"
import { unpublishVolume } from "../../../../effects/node/unpublishVolume.ts"
import { VolumeFs } from "../../../../effects/shared/VolumeFs.ts"
import { runInCluster } from "../shared/volumeTestLayer.ts"

const PARENT = "/var/lib/kubelet/pods/p1/volumes/kubernetes.io~csi/pvc-1"
const TARGET = `${PARENT}/mount`

test("unpublish removes the whole tree at the target path, and leftovers of an interrupted publish", () =>
  runInCluster(Effect.gen(function*() {
    const fs = yield* VolumeFs
    yield* fs.mkdir(`${TARGET}/addresses/10.0.0.1/ports`, { recursive: true })
    yield* fs.writeFile(`${TARGET}/addresses/10.0.0.1/ports/http`, "30080")
    yield* fs.symlink("addresses/10.0.0.1", `${TARGET}/default-address`)
    yield* fs.mkdir(`${PARENT}/.mount.publishing`)
    yield* fs.writeFile(`${PARENT}/vol_data.json`, "{}")
    yield* unpublishVolume({ volumeId: "pvc-1", targetPath: TARGET })
    assert.equal(yield* fs.entryType(TARGET), undefined)
    // The kubelet's own file next to the target is left alone.
    assert.deepEqual([...(yield* fs.readDir(PARENT))], ["vol_data.json"])
  })))

test("unpublish of a path that is already gone (or never existed) succeeds", () =>
  runInCluster(Effect.gen(function*() {
    const fs = yield* VolumeFs
    yield* unpublishVolume({ volumeId: "pvc-1", targetPath: TARGET })
    yield* fs.mkdir(TARGET, { recursive: true })
    yield* unpublishVolume({ volumeId: "pvc-1", targetPath: TARGET })
    yield* unpublishVolume({ volumeId: "pvc-1", targetPath: TARGET })
    assert.equal(yield* fs.entryType(TARGET), undefined)
    assert.equal(yield* fs.entryType(PARENT), "directory")
  })))

test("unpublish never follows a symlink out of the volume", () =>
  runInCluster(Effect.gen(function*() {
    const fs = yield* VolumeFs
    yield* fs.mkdir("/outside", { recursive: true })
    yield* fs.writeFile("/outside/precious", "keep")
    yield* fs.mkdir(TARGET, { recursive: true })
    yield* fs.symlink("/outside", `${TARGET}/escape`)
    yield* unpublishVolume({ volumeId: "pvc-1", targetPath: TARGET })
    assert.equal(yield* fs.readFile("/outside/precious"), "keep")
  })))
