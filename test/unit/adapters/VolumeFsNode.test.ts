/**
 * The node:fs volume filesystem against the shared VolumeFs cases, in temporary
 * directories, plus its errno mapping.
 */
import assert from "node:assert/strict"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { test } from "node:test"
import { reasonOf, VolumeFsNode } from "../../../adapters/VolumeFsNode.ts"
import { volumeFsCases } from "./volumeFsCases.ts"

volumeFsCases("node:fs", async () => {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "volumefs-"))
  return { fs: VolumeFsNode.service, root, cleanup: () => fs.rm(root, { recursive: true, force: true }) }
})

test("errno codes map to the port's reasons", () => {
  assert.deepEqual(
    ["ENOENT", "EEXIST", "ENOTDIR", "EISDIR", "ENOTEMPTY", "EACCES", "EPERM", "EINVAL", undefined].map(reasonOf),
    ["NotFound", "AlreadyExists", "NotADirectory", "IsADirectory", "DirectoryNotEmpty", "PermissionDenied", "PermissionDenied", "Other", "Other"]
  )
})
