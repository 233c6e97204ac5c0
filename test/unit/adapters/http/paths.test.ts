import { test } from "node:test"
import assert from "node:assert/strict"
import { collectionPath, objectPath, queryString } from "../../../../adapters/http/paths.ts"
import { Kinds } from "../../../../domain/kinds.ts"

test("core namespaced kinds live under /api/v1/namespaces/{ns}", () => {
  assert.equal(collectionPath(Kinds.Service, "web"), "/api/v1/namespaces/web/services")
  assert.equal(objectPath(Kinds.Service, "web", "http"), "/api/v1/namespaces/web/services/http")
  assert.equal(objectPath(Kinds.Pod, "web", "p-0", "status"), "/api/v1/namespaces/web/pods/p-0/status")
})

test("a namespaced collection without a namespace spans all namespaces", () => {
  assert.equal(collectionPath(Kinds.Pod, undefined), "/api/v1/pods")
  assert.equal(collectionPath(Kinds.Listener, ""), "/apis/listeners.stackable.tech/v1alpha1/listeners")
})

test("cluster-scoped kinds ignore a namespace", () => {
  assert.equal(collectionPath(Kinds.Node, "web"), "/api/v1/nodes")
  assert.equal(objectPath(Kinds.Node, "web", "n1"), "/api/v1/nodes/n1")
})

test("group kinds live under /apis/{group}/{version}", () => {
  assert.equal(
    objectPath(Kinds.Listener, "ns", "l1", "status"),
    "/apis/listeners.stackable.tech/v1alpha1/namespaces/ns/listeners/l1/status"
  )
  assert.equal(objectPath(Kinds.ListenerClass, undefined, "c"), "/apis/listeners.stackable.tech/v1alpha1/listenerclasses/c")
  assert.equal(collectionPath(Kinds.EndpointSlice, "a"), "/apis/discovery.k8s.io/v1/namespaces/a/endpointslices")
})

test("path segments are escaped", () => {
  assert.equal(objectPath(Kinds.ConfigMap, "a/b", "x y"), "/api/v1/namespaces/a%2Fb/configmaps/x%20y")
})

test("query strings encode selectors and drop absent values", () => {
  assert.equal(queryString({}), "")
  assert.equal(queryString({ labelSelector: undefined, fieldSelector: "" }), "")
  const q = queryString({ labelSelector: "app in (a,b),!gone,tier!=db", fieldManager: "op", force: true, watch: 1 })
  assert.equal(q, "?labelSelector=app+in+%28a%2Cb%29%2C%21gone%2Ctier%21%3Ddb&fieldManager=op&force=true&watch=1")
  const decoded = new URLSearchParams(q.slice(1))
  assert.equal(decoded.get("labelSelector"), "app in (a,b),!gone,tier!=db")
  assert.equal(new URLSearchParams(queryString({ fieldSelector: "metadata.name=a&b" }).slice(1)).get("fieldSelector"), "metadata.name=a&b")
})
