import { test } from "node:test"
import assert from "node:assert/strict"
import { isPublishedOnNodeLabel, publishedOnNodeLabel, withoutPublishedOnNodeLabels } from "../../../domain/publishedOnNode.ts"
import { planService } from "../../../domain/listenerPlan/desiredService.ts"

const LABEL_KEY = /^listeners\.stackable\.tech\/[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/

test("a node's label names it readably when it fits a label name", () => {
  assert.equal(publishedOnNodeLabel("worker-1"), "listeners.stackable.tech/on.worker-1")
  assert.equal(publishedOnNodeLabel("ip-10-0-1-2.eu-west-1.compute.internal"), "listeners.stackable.tech/on.ip-10-0-1-2.eu-west-1.compute.internal")
})

test("a node name too long for a label name becomes a fingerprint; every key is a valid label key", () => {
  const long = `${"a".repeat(60)}.example.com`
  const key = publishedOnNodeLabel(long)
  assert.match(key, LABEL_KEY)
  assert.notEqual(key, publishedOnNodeLabel(`${"b".repeat(60)}.example.com`))
  assert.equal(key, publishedOnNodeLabel(long), "stable")
  for (const name of ["n", "a.b", "x".repeat(60), "x".repeat(61), "x".repeat(253)]) assert.match(publishedOnNodeLabel(name), LABEL_KEY)
})

test("a Listener's Service does not inherit the nodes' published-on labels (a node joining a shared Listener re-applies nothing)", () => {
  const labels = { app: "kafka", [publishedOnNodeLabel("worker-1")]: "true", [publishedOnNodeLabel("x".repeat(80))]: "true" }
  const service = planService(
    { metadata: { name: "kafka", namespace: "ns", uid: "u-1", labels }, spec: { className: "c", ports: [{ name: "http", port: 80 }] } } as never,
    { metadata: { name: "c" }, spec: { serviceType: "NodePort" } } as never
  )
  assert.equal(service.metadata.labels["app"], "kafka")
  assert.deepEqual(Object.keys(service.metadata.labels).filter(isPublishedOnNodeLabel), [])
  const without = planService(
    { metadata: { name: "kafka", namespace: "ns", uid: "u-1", labels: { app: "kafka" } }, spec: { className: "c", ports: [{ name: "http", port: 80 }] } } as never,
    { metadata: { name: "c" }, spec: { serviceType: "NodePort" } } as never
  )
  assert.deepEqual(service, without, "the same Service, fingerprint included")
})

test("the Service inherits neither the published-on labels nor the node binding of its Listener", () => {
  const labels = { app: "kafka", "listeners.stackable.tech/on.node-a": "true", "listeners.stackable.tech/bound-node": "node-a" }
  assert.deepEqual(withoutPublishedOnNodeLabels(labels), { app: "kafka" })
})
