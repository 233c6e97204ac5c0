/**
 * The mount labels (`listener.stackable.tech/mnt.<Listener uid>: <Listener name>`) by which a
 * Listener's Service selects the Pods that mount it (listenerPlan/desiredService.ts). The
 * controller's volume binder sets them (effects/controller/bindPodVolumes.ts), never the node
 * plugin: a node could otherwise put one of its Pods behind any Listener of the namespace whose
 * uid it can read (docs/security.md). The binder derives each label from what the Pod itself
 * mounts — its claims, their PVs of our driver, the Listener each PV names — so a Pod carries
 * only the labels of Listeners it really mounts.
 *
 * Pure: which Listener a volume belongs to, and which labels a Pod still lacks.
 */
import { mountLabelKey, PVC_ANNOTATION_LISTENER_NAME } from "./constants.ts"
import { claimedVolumeAttributes } from "./volumeBinding.ts"

/** A Listener the Pod mounts, as the Service selects it. */
export interface MountedListener {
  readonly name: string
  readonly uid: string
}

/**
 * The shared Listener a volume of ours names (volume attribute `listeners.stackable.tech/listener-name`,
 * set at provisioning, not by a node), if `pv` is our driver's and bound to `claim`; undefined
 * for a per-volume (listener-class) volume, another driver's, or another claim's.
 */
export const sharedListenerNameOf = (
  pv: { readonly [key: string]: unknown },
  driver: string,
  claim: { readonly namespace: string; readonly name: string }
): string | undefined => {
  const name = claimedVolumeAttributes(pv, driver, claim)?.[PVC_ANNOTATION_LISTENER_NAME]
  return typeof name === "string" && name !== "" ? name : undefined
}

/**
 * The mount labels the Pod lacks (or carries with another value) for the Listeners it mounts;
 * undefined when it carries them all, so a reconcile of a labelled Pod (a restart) writes
 * nothing. Labels of other Listeners (upstream's, an older version's) are never removed.
 */
export const missingMountLabels = (
  podLabels: Readonly<Record<string, string>> | undefined,
  mounted: ReadonlyArray<MountedListener>
): Record<string, string> | undefined => {
  const missing: Record<string, string> = {}
  for (const listener of mounted) {
    const key = mountLabelKey(listener.uid)
    if (podLabels?.[key] !== listener.name) missing[key] = listener.name
  }
  return Object.keys(missing).length === 0 ? undefined : missing
}
