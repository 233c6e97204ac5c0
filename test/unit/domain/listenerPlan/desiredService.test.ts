import { test } from "node:test"
import assert from "node:assert/strict"
import { APPLIED_FINGERPRINT_ANNOTATION, planService, serviceUpToDate } from "../../../../domain/listenerPlan/index.ts"
import { listener, listenerClass, MOUNT_LABEL, UID } from "./fixtures.ts"

const withoutFingerprint = (annotations: Record<string, string>) => {
  const { [APPLIED_FINGERPRINT_ANNOTATION]: fp, ...rest } = annotations
  assert.match(fp ?? "", /^[0-9a-f]{16}$/)
  return rest
}

test("Service: name, namespace, controller owner reference with blockOwnerDeletion", () => {
  const svc = planService(listener(), listenerClass("ClusterIP"))
  assert.equal(svc.apiVersion, "v1")
  assert.equal(svc.kind, "Service")
  assert.equal(svc.metadata.name, "web")
  assert.equal(svc.metadata.namespace, "apps")
  assert.deepEqual(svc.metadata.ownerReferences, [
    { apiVersion: "listeners.stackable.tech/v1alpha1", kind: "Listener", name: "web", uid: UID, controller: true, blockOwnerDeletion: true }
  ])
})

test("Service labels: Listener labels plus the three operator labels (operator labels win)", () => {
  const svc = planService(
    listener({}, { team: "a", "app.kubernetes.io/name": "kafka", "app.kubernetes.io/instance": "x" }),
    listenerClass("ClusterIP")
  )
  assert.deepEqual(svc.metadata.labels, {
    team: "a",
    "app.kubernetes.io/name": "listener",
    "app.kubernetes.io/instance": "web",
    "app.kubernetes.io/managed-by": "listeners.stackable.tech_listener"
  })
})

test("Service type follows the class", () => {
  for (const type of ["ClusterIP", "NodePort", "LoadBalancer"] as const) {
    assert.equal(planService(listener(), listenerClass(type)).spec["type"], type)
  }
})

test("ports: deduplicated by protocol+name, protocol defaults to TCP, no targetPort or nodePort", () => {
  const svc = planService(
    listener({
      ports: [
        { name: "http", port: 8080 },
        { name: "http", port: 9999, protocol: "TCP" },
        { name: "dns", port: 53, protocol: "UDP" },
        { name: "dns", port: 53, protocol: "TCP" },
        { name: "dns", port: 54, protocol: "UDP" }
      ]
    }),
    listenerClass("NodePort")
  )
  assert.deepEqual(svc.spec["ports"], [
    { name: "http", port: 8080, protocol: "TCP" },
    { name: "dns", port: 53, protocol: "UDP" },
    { name: "dns", port: 53, protocol: "TCP" }
  ])
})

test("no ports: an empty port list", () => {
  assert.deepEqual(planService(listener({ ports: undefined }), listenerClass("ClusterIP")).spec["ports"], [])
})

test("selector = extraPodSelectorLabels + mount label (mount label wins a clash)", () => {
  const svc = planService(listener({ extraPodSelectorLabels: { role: "broker", [MOUNT_LABEL]: "other" } }), listenerClass("ClusterIP"))
  assert.deepEqual(svc.spec["selector"], { role: "broker", [MOUNT_LABEL]: "web" })
  assert.deepEqual(planService(listener(), listenerClass("ClusterIP")).spec["selector"], { [MOUNT_LABEL]: "web" })
})

test("publishNotReadyAddresses: from the Listener, default true", () => {
  assert.equal(planService(listener(), listenerClass("ClusterIP")).spec["publishNotReadyAddresses"], true)
  assert.equal(planService(listener({ publishNotReadyAddresses: false }), listenerClass("ClusterIP")).spec["publishNotReadyAddresses"], false)
  assert.equal(planService(listener({ publishNotReadyAddresses: null }), listenerClass("ClusterIP")).spec["publishNotReadyAddresses"], true)
})

const lbFields = { serviceExternalTrafficPolicy: "Local", loadBalancerClass: "metallb", loadBalancerAllocateNodePorts: false } as const

test("ClusterIP: no externalTrafficPolicy, loadBalancerClass or allocateLoadBalancerNodePorts", () => {
  const spec = planService(listener(), listenerClass("ClusterIP", lbFields)).spec
  assert.equal("externalTrafficPolicy" in spec, false)
  assert.equal("loadBalancerClass" in spec, false)
  assert.equal("allocateLoadBalancerNodePorts" in spec, false)
})

test("NodePort: externalTrafficPolicy only", () => {
  const spec = planService(listener(), listenerClass("NodePort", lbFields)).spec
  assert.equal(spec["externalTrafficPolicy"], "Local")
  assert.equal("loadBalancerClass" in spec, false)
  assert.equal("allocateLoadBalancerNodePorts" in spec, false)
})

test("LoadBalancer: externalTrafficPolicy, loadBalancerClass, allocateLoadBalancerNodePorts", () => {
  const spec = planService(listener(), listenerClass("LoadBalancer", lbFields)).spec
  assert.equal(spec["externalTrafficPolicy"], "Local")
  assert.equal(spec["loadBalancerClass"], "metallb")
  assert.equal(spec["allocateLoadBalancerNodePorts"], false)
})

test("LoadBalancer defaults: allocateLoadBalancerNodePorts true, no class, no traffic policy", () => {
  const spec = planService(listener(), listenerClass("LoadBalancer")).spec
  assert.equal(spec["allocateLoadBalancerNodePorts"], true)
  assert.equal("loadBalancerClass" in spec, false)
  assert.equal("externalTrafficPolicy" in spec, false)
})

test("class serviceAnnotations are copied", () => {
  const svc = planService(listener(), listenerClass("ClusterIP", { serviceAnnotations: { "a.io/x": "1" } }))
  assert.deepEqual(withoutFingerprint(svc.metadata.annotations), { "a.io/x": "1" })
})

test("the templated hostname goes under the class's hostnameAnnotation: after serviceAnnotations, before serviceOverrides", () => {
  const cls = listenerClass("LoadBalancer", {
    serviceAnnotations: { "external-dns.alpha.kubernetes.io/hostname": "from-class.example.com", other: "kept" },
    hostnameAnnotation: "external-dns.alpha.kubernetes.io/hostname"
  })
  assert.deepEqual(withoutFingerprint(planService(listener(), cls, "web.apps.example.com").metadata.annotations), {
    "external-dns.alpha.kubernetes.io/hostname": "web.apps.example.com",
    other: "kept"
  })
  // Without a rendered name (no template) or without the annotation key, nothing is added.
  assert.deepEqual(withoutFingerprint(planService(listener(), cls).metadata.annotations)["external-dns.alpha.kubernetes.io/hostname"], "from-class.example.com")
  assert.deepEqual(withoutFingerprint(planService(listener(), listenerClass("LoadBalancer"), "web.apps.example.com").metadata.annotations), {})
  const overridden = planService(listener(), { spec: { ...cls.spec, serviceOverrides: { metadata: { annotations: { "external-dns.alpha.kubernetes.io/hostname": "override.example.com" } } } } }, "web.apps.example.com")
  assert.equal(overridden.metadata.annotations["external-dns.alpha.kubernetes.io/hostname"], "override.example.com")
})

test("override precedence: annotations < serviceOverrides < objectOverrides", () => {
  const svc = planService(
    listener({
      objectOverrides: [
        { apiVersion: "v1", kind: "Service", metadata: { name: "web", namespace: "apps", annotations: { level: "object" } } },
        { apiVersion: "v1", kind: "Service", metadata: { name: "other", annotations: { level: "wrong-name" } } },
        { apiVersion: "v1", kind: "Service", metadata: { name: "web", namespace: "elsewhere", annotations: { level: "wrong-ns" } } },
        { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "web", annotations: { level: "wrong-kind" } } },
        { apiVersion: "v2", kind: "Service", metadata: { name: "web", annotations: { level: "wrong-version" } } }
      ]
    }),
    listenerClass("ClusterIP", {
      serviceAnnotations: { level: "class", fromClass: "yes", gone: "x" },
      serviceOverrides: { metadata: { annotations: { level: "serviceOverrides", fromOverride: "yes", gone: null } } }
    })
  )
  assert.deepEqual(withoutFingerprint(svc.metadata.annotations), { level: "object", fromClass: "yes", fromOverride: "yes" })
})

test("objectOverrides without a namespace apply to the Listener's namespace; applied in list order", () => {
  const svc = planService(
    listener({
      objectOverrides: [
        { apiVersion: "v1", kind: "Service", metadata: { name: "web" }, spec: { sessionAffinity: "ClientIP" } },
        { apiVersion: "v1", kind: "Service", metadata: { name: "web" }, spec: { sessionAffinity: "None" } }
      ]
    }),
    listenerClass("ClusterIP")
  )
  assert.equal(svc.spec["sessionAffinity"], "None")
})

test("serviceOverrides merge ports by name and can set fields the generator leaves alone", () => {
  const svc = planService(
    listener({ ports: [{ name: "http", port: 80 }, { name: "https", port: 443 }] }),
    listenerClass("NodePort", { serviceOverrides: { spec: { ports: [{ name: "https", nodePort: 30443 }], externalIPs: ["1.2.3.4"] } } })
  )
  assert.deepEqual(svc.spec["ports"], [
    { name: "http", port: 80, protocol: "TCP" },
    { name: "https", port: 443, protocol: "TCP", nodePort: 30443 }
  ])
  assert.deepEqual(svc.spec["externalIPs"], ["1.2.3.4"])
})

test("overrides cannot remove or change the operator labels", () => {
  const svc = planService(
    listener({ objectOverrides: [{ apiVersion: "v1", kind: "Service", metadata: { name: "web", labels: { "app.kubernetes.io/managed-by": null, extra: "y" } } }] }),
    listenerClass("ClusterIP", { serviceOverrides: { metadata: { labels: { "app.kubernetes.io/instance": "other" } } } })
  )
  assert.equal(svc.metadata.labels["app.kubernetes.io/managed-by"], "listeners.stackable.tech_listener")
  assert.equal(svc.metadata.labels["app.kubernetes.io/instance"], "web")
  assert.equal(svc.metadata.labels["extra"], "y")
})

test("overrides cannot change identity: name, namespace, kind, controller owner reference", () => {
  const svc = planService(
    listener({
      objectOverrides: [{
        apiVersion: "v1", kind: "Service",
        metadata: { name: "web", ownerReferences: [{ apiVersion: "v1", kind: "Pod", name: "p", uid: "u" }] }
      }]
    }),
    listenerClass("ClusterIP", { serviceOverrides: { kind: "ConfigMap", metadata: { name: "hijack", namespace: "kube-system" } } })
  )
  assert.equal(svc.kind, "Service")
  assert.equal(svc.metadata.name, "web")
  assert.equal(svc.metadata.namespace, "apps")
  assert.equal(svc.metadata.ownerReferences[0]!.uid, UID)
  assert.equal(svc.metadata.ownerReferences.length, 1)
})

test("the fingerprint changes with the desired object and only with it", () => {
  const fp = (l = listener(), c = listenerClass("ClusterIP")) => planService(l, c).metadata.annotations[APPLIED_FINGERPRINT_ANNOTATION]
  assert.equal(fp(), fp())
  assert.notEqual(fp(), fp(listener({ ports: [{ name: "http", port: 8081 }] })))
  assert.notEqual(fp(), fp(undefined, listenerClass("ClusterIP", { serviceAnnotations: { a: "b" } })))
  assert.notEqual(fp(), fp(undefined, listenerClass("NodePort")))
})

test("a Service with publishNotReadyAddresses false is up to date although the API server omits the false value", () => {
  const desired = planService(listener({ publishNotReadyAddresses: false }), listenerClass("ClusterIP"))
  const { publishNotReadyAddresses: _omitted, ...liveSpec } = desired.spec
  assert.equal(serviceUpToDate(desired, { ...desired, spec: liveSpec }), true)
  assert.equal(serviceUpToDate(desired, { ...desired, spec: { ...liveSpec, publishNotReadyAddresses: true } }), false)
})
