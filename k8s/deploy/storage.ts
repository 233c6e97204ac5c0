/**
 * The cluster objects that make listener volumes provisionable (spec §4): the
 * `listeners.stackable.tech` StorageClass and CSIDriver, as plain data. Tests install
 * them into the real control plane; the Helm chart renders the same objects.
 */
import { CSI_DRIVER_NAME, STORAGE_CLASS_NAME } from "../../domain/constants.ts"

/**
 * WaitForFirstConsumer: the scheduler picks the node before the volume is provisioned, so
 * CreateVolume's first preferred topology is that node — what pinning relies on.
 */
export const listenerStorageClass = () => ({
  apiVersion: "storage.k8s.io/v1",
  kind: "StorageClass",
  metadata: { name: STORAGE_CLASS_NAME },
  provisioner: CSI_DRIVER_NAME,
  volumeBindingMode: "WaitForFirstConsumer",
  // The volume holds only addresses; its Listener goes with the PV (owner reference).
  reclaimPolicy: "Delete"
})

/**
 * attachRequired false: no ControllerPublish step (nothing to attach).
 * podInfoOnMount true: NodePublishVolume needs the Pod to find its ports, node and volumes.
 * fsGroupPolicy File: the kubelet applies the Pod's fsGroup to the written files.
 * Persistent + Ephemeral: generic ephemeral volumes are PVCs (Persistent mode); the
 * Ephemeral mode lets the kubelet hand an inline `volumes[].csi` volume to the driver,
 * which then refuses it with a clear error instead of the kubelet's generic one.
 */
export const listenerCsiDriver = () => ({
  apiVersion: "storage.k8s.io/v1",
  kind: "CSIDriver",
  metadata: { name: CSI_DRIVER_NAME },
  spec: {
    attachRequired: false,
    podInfoOnMount: true,
    fsGroupPolicy: "File",
    volumeLifecycleModes: ["Persistent", "Ephemeral"]
  }
})
