import { test } from "node:test"
import assert from "node:assert/strict"
import { DecodeResult } from "../../../domain/decode.ts"
import { assertIssue, expectFailure, expectSuccess } from "./support.ts"

// Objects shaped as the API server returns them, including fields we do not model.
const meta = (name: string, namespace?: string) => ({
  name,
  ...(namespace === undefined ? {} : { namespace }),
  uid: `uid-${name}`,
  resourceVersion: "42",
  creationTimestamp: "2024-05-01T10:00:00Z",
  managedFields: [{ manager: "kubectl", operation: "Apply", fieldsV1: { "f:spec": {} } }],
  labels: { app: name },
  ownerReferences: [{ apiVersion: "v1", kind: "Pod", name: "p", uid: "u", controller: true, blockOwnerDeletion: true }]
})

test("Service: spec and load-balancer status decode; unknown fields are dropped", () => {
  const service = expectSuccess(DecodeResult.Service({
    apiVersion: "v1",
    kind: "Service",
    metadata: meta("web", "default"),
    spec: {
      type: "LoadBalancer",
      ports: [{ name: "http", port: 80, protocol: "TCP", targetPort: 8080, nodePort: 31000 }, { port: 53, protocol: "UDP", targetPort: "dns" }],
      selector: { "listener.stackable.tech/mnt.abc": "web" },
      clusterIP: "10.96.0.10",
      clusterIPs: ["10.96.0.10", "fd00::10"],
      externalTrafficPolicy: "Local",
      loadBalancerClass: "x",
      allocateLoadBalancerNodePorts: false,
      publishNotReadyAddresses: true,
      sessionAffinity: "None",
      ipFamilies: ["IPv4", "IPv6"],
      internalTrafficPolicy: "Cluster"
    },
    status: { loadBalancer: { ingress: [{ ip: "1.2.3.4", ipMode: "VIP" }, { hostname: "lb.example.com" }] }, conditions: [] }
  }))
  assert.equal(service.spec?.type, "LoadBalancer")
  assert.deepEqual(service.spec?.ports, [
    { name: "http", port: 80, protocol: "TCP", targetPort: 8080, nodePort: 31000 },
    { port: 53, protocol: "UDP", targetPort: "dns" }
  ])
  assert.deepEqual(service.status?.loadBalancer?.ingress, [{ ip: "1.2.3.4" }, { hostname: "lb.example.com" }])
  assert.equal("sessionAffinity" in (service.spec ?? {}), false)
  assert.equal("managedFields" in service.metadata, false)
  assert.deepEqual(service.metadata.ownerReferences?.[0], { apiVersion: "v1", kind: "Pod", name: "p", uid: "u", controller: true, blockOwnerDeletion: true })
})

test("Service: a bad field names the kind, the object and the path", () => {
  const error = expectFailure(DecodeResult.Service({ metadata: meta("web", "default"), spec: { type: "Headless" } }))
  assert.equal(error.kind, "Service")
  assert.equal(error.message, 'Service default/web: spec.type: Expected "ClusterIP" | "NodePort" | "LoadBalancer" | "ExternalName", got "Headless"')
})

test("Node: addresses and conditions decode", () => {
  const node = expectSuccess(DecodeResult.Node({
    metadata: meta("worker-1"),
    spec: { podCIDR: "10.244.1.0/24", unschedulable: true },
    status: {
      addresses: [{ type: "InternalIP", address: "172.18.0.3" }, { type: "Hostname", address: "worker-1" }],
      conditions: [{ type: "Ready", status: "True", reason: "KubeletReady", lastHeartbeatTime: "2024-05-01T10:00:00Z" }],
      capacity: { cpu: "4" }
    }
  }))
  assert.deepEqual(node.status?.addresses, [{ type: "InternalIP", address: "172.18.0.3" }, { type: "Hostname", address: "worker-1" }])
  assert.deepEqual(node.status?.conditions, [{ type: "Ready", status: "True", reason: "KubeletReady" }])
  assert.equal(node.spec?.unschedulable, true)
  assertIssue(expectFailure(DecodeResult.Node({ metadata: meta("n"), status: { addresses: [{ type: "Public", address: "x" }] } })), "status.addresses[0].type", 'got "Public"')
})

test("Pod: node, container ports, volumes and status decode", () => {
  const pod = expectSuccess(DecodeResult.Pod({
    apiVersion: "v1",
    kind: "Pod",
    metadata: meta("kafka-0", "default"),
    spec: {
      nodeName: "worker-1",
      serviceAccountName: "kafka",
      initContainers: [{ name: "init", image: "busybox", ports: [{ containerPort: 1 }] }],
      containers: [{ name: "kafka", image: "kafka", ports: [{ name: "kafka", containerPort: 9092, protocol: "TCP" }, { containerPort: 9999 }], env: [] }],
      volumes: [
        { name: "listener", persistentVolumeClaim: { claimName: "listener-kafka-0" } },
        { name: "ephemeral-listener", ephemeral: { volumeClaimTemplate: { metadata: { annotations: { "listeners.stackable.tech/listener-class": "external-unstable" } }, spec: { storageClassName: "listeners.stackable.tech", accessModes: ["ReadWriteMany"], resources: { requests: { storage: "1" } } } } } },
        { name: "inline", csi: { driver: "listeners.stackable.tech", volumeAttributes: { a: "b" } } },
        { name: "config", configMap: { name: "kafka" } }
      ]
    },
    status: { phase: "Running", podIP: "10.244.1.5", conditions: [{ type: "Ready", status: "False" }], containerStatuses: [] }
  }))
  assert.equal(pod.spec?.nodeName, "worker-1")
  assert.deepEqual(pod.spec?.containers[0]?.ports, [{ name: "kafka", containerPort: 9092, protocol: "TCP" }, { containerPort: 9999 }])
  assert.deepEqual(pod.spec?.volumes?.map((v) => v.name), ["listener", "ephemeral-listener", "inline", "config"])
  assert.deepEqual(pod.spec?.volumes?.[0]?.persistentVolumeClaim, { claimName: "listener-kafka-0" })
  assert.equal(pod.spec?.volumes?.[1]?.ephemeral?.volumeClaimTemplate?.metadata?.annotations?.["listeners.stackable.tech/listener-class"], "external-unstable")
  assert.equal(pod.spec?.volumes?.[2]?.csi?.driver, "listeners.stackable.tech")
  assert.deepEqual(pod.spec?.volumes?.[3], { name: "config" })
  assert.equal(pod.status?.phase, "Running")
  assertIssue(expectFailure(DecodeResult.Pod({ metadata: meta("p", "d"), spec: { containers: [{ name: "c", ports: [{ containerPort: 0 }] }] } })), "spec.containers[0].ports[0].containerPort", "between 1 and 65535")
})

test("PersistentVolume: CSI source, claim and node affinity decode", () => {
  const pv = expectSuccess(DecodeResult.PersistentVolume({
    metadata: meta("pvc-123"),
    spec: {
      csi: { driver: "listeners.stackable.tech", volumeHandle: "pvc-123", volumeAttributes: { "listeners.stackable.tech/listener-class": "external-stable", "storage.kubernetes.io/csiProvisionerIdentity": "x" } },
      claimRef: { apiVersion: "v1", kind: "PersistentVolumeClaim", namespace: "default", name: "listener-kafka-0", uid: "c", resourceVersion: "1" },
      nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: "listeners.stackable.tech/hostname", operator: "In", values: ["worker-1"] }] }] } },
      accessModes: ["ReadWriteMany"],
      mountOptions: [],
      capacity: { storage: "1" },
      persistentVolumeReclaimPolicy: "Delete",
      storageClassName: "listeners.stackable.tech",
      volumeMode: "Filesystem"
    },
    status: { phase: "Bound" }
  }))
  assert.equal(pv.spec?.csi?.volumeHandle, "pvc-123")
  assert.equal(pv.spec?.claimRef?.name, "listener-kafka-0")
  assert.deepEqual(pv.spec?.nodeAffinity?.required?.nodeSelectorTerms[0]?.matchExpressions?.[0], { key: "listeners.stackable.tech/hostname", operator: "In", values: ["worker-1"] })
  assert.equal(pv.metadata.namespace, undefined)
  assertIssue(expectFailure(DecodeResult.PersistentVolume({ metadata: meta("pv"), spec: { csi: { driver: "d" } } })), "spec.csi.volumeHandle", "Missing key")
})

test("PersistentVolumeClaim: annotations, class and volume name decode", () => {
  const pvc = expectSuccess(DecodeResult.PersistentVolumeClaim({
    metadata: { ...meta("listener-kafka-0", "default"), annotations: { "listeners.stackable.tech/listener-class": "external-stable" } },
    spec: { storageClassName: "listeners.stackable.tech", volumeName: "pvc-123", accessModes: ["ReadWriteMany"], resources: { requests: { storage: "1" } } },
    status: { phase: "Bound", capacity: { storage: "1" } }
  }))
  assert.equal(pvc.metadata.annotations?.["listeners.stackable.tech/listener-class"], "external-stable")
  assert.equal(pvc.spec?.storageClassName, "listeners.stackable.tech")
  assert.equal(pvc.spec?.volumeName, "pvc-123")
})

test("EndpointSlice: endpoints (null when empty on the wire) decode", () => {
  const slice = expectSuccess(DecodeResult.EndpointSlice({
    apiVersion: "discovery.k8s.io/v1",
    kind: "EndpointSlice",
    metadata: { ...meta("web-abcde", "default"), labels: { "kubernetes.io/service-name": "web" } },
    addressType: "IPv4",
    endpoints: [
      { addresses: ["10.244.1.5"], conditions: { ready: true, serving: true, terminating: false }, nodeName: "worker-1", targetRef: { kind: "Pod", name: "web-0", namespace: "default", uid: "p" } },
      { addresses: ["10.244.2.5"], conditions: { ready: false }, nodeName: "worker-2" }
    ],
    ports: [{ name: "http", port: 8080, protocol: "TCP" }]
  }))
  assert.deepEqual(slice.endpoints.map((e) => [e.nodeName, e.conditions?.ready]), [["worker-1", true], ["worker-2", false]])
  const empty = expectSuccess(DecodeResult.EndpointSlice({ metadata: meta("web-x", "default"), addressType: "IPv4", endpoints: null, ports: null }))
  assert.deepEqual(empty.endpoints, [])
  assert.equal(empty.ports, undefined)
})

test("Event and Lease decode", () => {
  const event = expectSuccess(DecodeResult.Event({
    apiVersion: "events.k8s.io/v1",
    kind: "Event",
    metadata: meta("web.17c", "default"),
    eventTime: "2024-05-01T10:00:00.000000Z",
    reportingController: "listeners.stackable.tech/listener",
    reportingInstance: "controller-0",
    action: "Reconcile",
    reason: "ListenerClassNotFound",
    type: "Warning",
    note: "class x not found",
    regarding: { apiVersion: "listeners.stackable.tech/v1alpha1", kind: "Listener", name: "web", namespace: "default", uid: "l" },
    series: { count: 2, lastObservedTime: "2024-05-01T10:01:00.000000Z" }
  }))
  assert.equal(event.reason, "ListenerClassNotFound")
  assert.equal(event.regarding?.kind, "Listener")
  assert.equal(event.series?.count, 2)
  assertIssue(expectFailure(DecodeResult.Event({ metadata: meta("e", "d"), type: "Error" })), "type", 'Expected "Normal" | "Warning", got "Error"')

  const lease = expectSuccess(DecodeResult.Lease({
    apiVersion: "coordination.k8s.io/v1",
    kind: "Lease",
    metadata: meta("listener-operator", "stackable"),
    spec: { holderIdentity: "controller-0", leaseDurationSeconds: 15, acquireTime: "2024-05-01T10:00:00.000000Z", renewTime: "2024-05-01T10:00:10.000000Z", leaseTransitions: 0 }
  }))
  assert.equal(lease.spec?.holderIdentity, "controller-0")
  assert.equal(lease.spec?.leaseDurationSeconds, 15)
})

test("namespaced kinds require a namespace, cluster-scoped ones do not", () => {
  assertIssue(expectFailure(DecodeResult.Pod({ metadata: { name: "p", uid: "u" } })), "metadata.namespace", "Missing key")
  expectSuccess(DecodeResult.Node({ metadata: { name: "n", uid: "u" } }))
})
