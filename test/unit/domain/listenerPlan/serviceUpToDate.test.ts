import { test } from "node:test"
import assert from "node:assert/strict"
import { APPLIED_FINGERPRINT_ANNOTATION, isContainedIn, planService, serviceUpToDate } from "../../../../domain/listenerPlan/index.ts"
import { listener, listenerClass } from "./fixtures.ts"

/** What the API server returns for an applied Service: our fields plus defaults and other managers' fields. */
const asServed = (desired: ReturnType<typeof planService>) => {
  const copy = JSON.parse(JSON.stringify(desired))
  copy.metadata.uid = "svc-uid"
  copy.metadata.resourceVersion = "12"
  copy.metadata.creationTimestamp = "2026-01-01T00:00:00Z"
  copy.metadata.labels["added-by-someone"] = "x"
  copy.spec.clusterIP = "10.0.0.5"
  copy.spec.clusterIPs = ["10.0.0.5"]
  copy.spec.sessionAffinity = "None"
  copy.spec.internalTrafficPolicy = "Cluster"
  copy.spec.ipFamilies = ["IPv4"]
  copy.spec.ports = copy.spec.ports.map((p: Record<string, unknown>) => ({ ...p, targetPort: p["port"], nodePort: 30000 })).reverse()
  copy.status = { loadBalancer: {} }
  return copy
}

test("a served Service with defaults and other managers' fields is up to date", () => {
  const desired = planService(listener({ ports: [{ name: "a", port: 1 }, { name: "b", port: 2 }] }), listenerClass("NodePort"))
  assert.equal(serviceUpToDate(desired, asServed(desired)), true)
})

test("a field we own changed by someone else → not up to date", () => {
  const desired = planService(listener(), listenerClass("ClusterIP"))
  const live = asServed(desired)
  live.spec.publishNotReadyAddresses = false
  assert.equal(serviceUpToDate(desired, live), false)
})

test("a field we no longer apply (removed override) → not up to date through the fingerprint", () => {
  const before = planService(listener(), listenerClass("ClusterIP", { serviceAnnotations: { a: "1" } }))
  const after = planService(listener(), listenerClass("ClusterIP"))
  const { [APPLIED_FINGERPRINT_ANNOTATION]: _fingerprint, ...annotations } = after.metadata.annotations
  const afterWithoutFingerprint = { ...after, metadata: { ...after.metadata, annotations } }
  assert.equal(isContainedIn(afterWithoutFingerprint, asServed(before)), true, "containment alone cannot see the removal")
  assert.equal(serviceUpToDate(after, asServed(before)), false)
})

test("no live Service, or a changed type → not up to date", () => {
  const desired = planService(listener(), listenerClass("LoadBalancer"))
  assert.equal(serviceUpToDate(desired, undefined), false)
  assert.equal(serviceUpToDate(planService(listener(), listenerClass("ClusterIP")), asServed(desired)), false)
})
