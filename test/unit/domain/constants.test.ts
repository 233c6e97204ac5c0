import { test } from "node:test"
import assert from "node:assert/strict"
import {
  CSI_DRIVER_NAME,
  CsiContextKeys,
  DEFAULT_CLUSTER_DOMAIN,
  DEFAULT_LISTENER_CLASS_PRESET,
  FieldManagers,
  LISTENER_API_VERSION,
  LISTENER_CLASS_PRESETS,
  mountLabelKey,
  operatorLabels,
  podListenersName,
  PV_LABEL_LISTENER_NAME,
  PV_LABEL_LISTENER_NAMESPACE,
  PVC_ANNOTATION_LISTENER_CLASS,
  PVC_ANNOTATION_LISTENER_NAME,
  STORAGE_CLASS_NAME,
  TOPOLOGY_KEY_HOSTNAME
} from "../../../domain/constants.ts"

// The keys are a wire contract with workloads and product operators: pin them exactly.
test("wire keys are exactly the seeds' keys", () => {
  assert.equal(LISTENER_API_VERSION, "listeners.stackable.tech/v1alpha1")
  assert.equal(CSI_DRIVER_NAME, "listeners.stackable.tech")
  assert.equal(STORAGE_CLASS_NAME, "listeners.stackable.tech")
  assert.equal(PVC_ANNOTATION_LISTENER_NAME, "listeners.stackable.tech/listener-name")
  assert.equal(PVC_ANNOTATION_LISTENER_CLASS, "listeners.stackable.tech/listener-class")
  assert.equal(PV_LABEL_LISTENER_NAMESPACE, "listeners.stackable.tech/listener-namespace")
  assert.equal(PV_LABEL_LISTENER_NAME, "listeners.stackable.tech/listener-name")
  assert.equal(TOPOLOGY_KEY_HOSTNAME, "listeners.stackable.tech/hostname")
  assert.equal(DEFAULT_CLUSTER_DOMAIN, "cluster.local")
  assert.deepEqual(FieldManagers, {
    controller: "listeners.stackable.tech_listener",
    csiNode: "listeners.stackable.tech_csi-node",
    presets: "listeners.stackable.tech_presets",
    crds: "listeners.stackable.tech_crds"
  })
  assert.deepEqual(CsiContextKeys, {
    podName: "csi.storage.k8s.io/pod.name",
    podNamespace: "csi.storage.k8s.io/pod.namespace",
    podUid: "csi.storage.k8s.io/pod.uid",
    serviceAccountName: "csi.storage.k8s.io/serviceAccount.name",
    ephemeral: "csi.storage.k8s.io/ephemeral",
    pvcName: "csi.storage.k8s.io/pvc/name",
    pvcNamespace: "csi.storage.k8s.io/pvc/namespace",
    pvName: "csi.storage.k8s.io/pv/name"
  })
  assert.deepEqual(LISTENER_CLASS_PRESETS, ["ephemeral-nodes", "stable-nodes", "none"])
  assert.equal(DEFAULT_LISTENER_CLASS_PRESET, "ephemeral-nodes")
})

test("mountLabelKey drops the uid's dashes and fits the label-name limit", () => {
  const key = mountLabelKey("0c1f8c9e-1b2a-4c3d-9e8f-7a6b5c4d3e2f")
  assert.equal(key, "listener.stackable.tech/mnt.0c1f8c9e1b2a4c3d9e8f7a6b5c4d3e2f")
  const [prefix, name] = key.split("/")
  assert.equal(prefix, "listener.stackable.tech")
  assert.ok(name!.length <= 63, `${name} is ${name!.length} characters`)
  assert.match(name!, /^[a-z0-9]([-a-z0-9_.]*[a-z0-9])?$/u)
})

test("operatorLabels names the listener instance", () => {
  assert.deepEqual(operatorLabels("web"), {
    "app.kubernetes.io/name": "listener",
    "app.kubernetes.io/instance": "web",
    "app.kubernetes.io/managed-by": "listeners.stackable.tech_listener"
  })
})

test("podListenersName is pod-<pod uid>", () => {
  assert.equal(podListenersName("abc-123"), "pod-abc-123")
})
