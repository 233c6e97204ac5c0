/**
 * The CSI node program NodeUnpublishVolume (spec §4): remove the target path. The Pod's
 * mount label, its PodListeners and the PV labels go with the Pod and the PV through
 * garbage collection, so nothing in the API is touched here. Already gone is success.
 */
import type { Effect } from "effect"
import type { VolumeFs } from "../shared/VolumeFs.ts"
import type { VolumeTreeWriteFailed } from "../shared/volumeErrors.ts"
import { removeVolumeTree } from "./writeVolumeTree.ts"

export interface UnpublishVolumeRequest {
  readonly volumeId: string
  readonly targetPath: string
}

export const unpublishVolume = (request: UnpublishVolumeRequest): Effect.Effect<void, VolumeTreeWriteFailed, VolumeFs> =>
  removeVolumeTree(request.targetPath)
