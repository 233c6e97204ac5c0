/**
 * What a NodePublishVolume request looks like, without its values that differ per call
 * (ids, names, secrets). The node role logs it at debug level so the requests the real
 * kubelet sends can be recorded, and the end-to-end suite compares them with what the
 * kubelet stand-in of test/envtest sends (issue 13: the stand-in must not drift from
 * the real thing).
 */
import type { NodePublishVolumeRequest } from "./proto.ts"

export interface PublishRequestShape {
  /** Sorted keys of `volume_context` (the values are per-Pod). */
  readonly volumeContextKeys: ReadonlyArray<string>
  /** `target_path` with the Pod uid and the PV name replaced by `<uid>` / `<pv>`. */
  readonly targetPathPattern: string
  /** The capability as sent, with proto3 defaults made explicit. */
  readonly capability: {
    readonly kind: "mount" | "block" | "none"
    readonly fsType: string
    readonly mountFlags: ReadonlyArray<string>
    readonly accessMode: string
  }
  readonly readonly: boolean
  readonly hasStagingTargetPath: boolean
  readonly publishContextKeys: ReadonlyArray<string>
  readonly secretKeys: ReadonlyArray<string>
}

const POD_UID_KEY = "csi.storage.k8s.io/pod.uid"

const sortedKeys = (map: Readonly<Record<string, string>> | undefined): ReadonlyArray<string> => Object.keys(map ?? {}).sort()

/** The kubelet's target is `<root>/pods/<pod uid>/volumes/kubernetes.io~csi/<pv>/mount`. */
const targetPathPattern = (targetPath: string, podUid: string | undefined, volumeId: string | undefined): string => {
  let pattern = targetPath
  if (podUid !== undefined && podUid !== "") pattern = pattern.split(podUid).join("<uid>")
  if (volumeId !== undefined && volumeId !== "") pattern = pattern.split(volumeId).join("<pv>")
  return pattern
}

export const publishRequestShape = (request: NodePublishVolumeRequest): PublishRequestShape => {
  const capability = request.volume_capability
  const mount = capability?.mount
  return {
    volumeContextKeys: sortedKeys(request.volume_context),
    targetPathPattern: targetPathPattern(request.target_path ?? "", request.volume_context?.[POD_UID_KEY], request.volume_id),
    capability: {
      kind: mount != null ? "mount" : capability?.block != null ? "block" : "none",
      fsType: mount?.fs_type ?? "",
      mountFlags: [...(mount?.mount_flags ?? [])],
      accessMode: String(capability?.access_mode?.mode ?? "UNKNOWN")
    },
    readonly: request.readonly === true,
    hasStagingTargetPath: (request.staging_target_path ?? "") !== "",
    publishContextKeys: sortedKeys(request.publish_context),
    secretKeys: sortedKeys(request.secrets)
  }
}
