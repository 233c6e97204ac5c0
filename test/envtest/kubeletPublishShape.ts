// What the real kubelet (v1.36) sends in NodePublishVolume for a StatefulSet's listener
// volume (claim template of test/e2e/workloads.ts: ReadWriteMany, listener-class), as
// recorded from our node plugin's debug log on real nodes (test/e2e), with the kubelet
// root dir written `<root>`. The kubelet stand-in must send the same
// (test/integration/csiDriver.test.ts); the real kubelet is checked against it in
// test/e2e/listenerOperator.test.ts, so a drift on either side fails a test.
import type { PublishRequestShape } from "../../csi/publishRequestShape.ts";

export const REAL_KUBELET_PUBLISH_SHAPE: PublishRequestShape = {
  volumeContextKeys: [
    "csi.storage.k8s.io/ephemeral",
    "csi.storage.k8s.io/pod.name",
    "csi.storage.k8s.io/pod.namespace",
    "csi.storage.k8s.io/pod.uid",
    "csi.storage.k8s.io/serviceAccount.name",
    "listeners.stackable.tech/listener-class",
    "storage.kubernetes.io/csiProvisionerIdentity",
  ],
  targetPathPattern: "<root>/pods/<uid>/volumes/kubernetes.io~csi/<pv>/mount",
  capability: { kind: "mount", fsType: "", mountFlags: [], accessMode: "MULTI_NODE_MULTI_WRITER" },
  readonly: false,
  hasStagingTargetPath: false,
  publishContextKeys: [],
  secretKeys: [],
};
