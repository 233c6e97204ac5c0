// The controller's re-check of ListenerClass spec.allowedNamespaces (effects/controller/classNamespaceRule.ts):
// a Listener made before the rule loses its Service and reports the class and the rule.
import { test } from "node:test"
import assert from "node:assert/strict"
import { Effect } from "effect"
import { Kinds } from "../../../../domain/kinds.ts"
import { classAllowsNamespace, namespaceMatches } from "../../../../domain/classNamespaces.ts"
import { listenerClassObject, listenerObject, makeHarness, readyOf } from "./listenerHarness.ts"

const run = <A, E>(effect: Effect.Effect<A, E, import("effect").Scope.Scope>) => Effect.runPromise(Effect.scoped(effect))

test("namespace patterns: * matches any run of characters, nothing else is special", () => {
  assert.equal(namespaceMatches("kafka-*", "kafka-prod"), true)
  assert.equal(namespaceMatches("kafka-*", "kafka-"), true)
  assert.equal(namespaceMatches("kafka-*", "kafka"), false)
  assert.equal(namespaceMatches("kafka-*", "team-kafka-x"), false)
  assert.equal(namespaceMatches("*-prod", "a-prod"), true)
  assert.equal(namespaceMatches("a*b*c", "axxbyyc"), true)
  assert.equal(namespaceMatches("apps", "apps"), true)
  assert.equal(namespaceMatches("apps", "apps2"), false)
  assert.equal(classAllowsNamespace(undefined, "anything"), true, "unset: open")
  assert.equal(classAllowsNamespace([], "anything"), false, "empty: nobody")
  assert.equal(classAllowsNamespace(["x", "kafka-*"], "kafka-1"), true)
})

test("a Listener in a namespace the class does not allow: Service removed, Ready=False ClassNotAllowed naming class and rule, one Event", () =>
  run(Effect.gen(function*() {
    const h = yield* makeHarness({
      objects: [
        listenerClassObject("public", { serviceType: "LoadBalancer" }),
        listenerObject("web", { className: "public", ports: [{ name: "http", port: 80 }] }, "apps")
      ]
    })
    yield* h.reconcile("web")
    assert.ok(h.get(Kinds.Service, "web", "apps"), "served while the class is open")
    // The admin restricts the class afterwards: the old Listener is withdrawn.
    const cls = h.get(Kinds.ListenerClass, "public")!
    yield* h.cluster.api.update(Kinds.ListenerClass, { ...cls, spec: { ...(cls["spec"] as object), allowedNamespaces: ["kafka-*"] } })
    yield* h.reconcile("web")
    assert.equal(h.get(Kinds.Service, "web", "apps"), undefined, "the Service is deleted")
    const ready = readyOf(h.get(Kinds.Listener, "web", "apps"))
    assert.equal(ready?.["status"], "False")
    assert.equal(ready?.["reason"], "ClassNotAllowed")
    assert.match(String(ready?.["message"]), /ListenerClass public may not be used in namespace apps \(its spec\.allowedNamespaces \[kafka-\*\]\)/u)
    const events = h.cluster.objects(Kinds.Event, "apps").filter((e) => e["reason"] === "ClassNotAllowed")
    assert.equal(events.length, 1)
    assert.match(String(events[0]!["note"]), /ListenerClass public .*spec\.allowedNamespaces \[kafka-\*\]/u)
    // Nothing more to do until something changes.
    h.cluster.requests.reset()
    yield* h.reconcile("web")
    assert.deepEqual(h.cluster.requests.entries(), [])
    // Allowing the namespace serves it again.
    const restricted = h.get(Kinds.ListenerClass, "public")!
    yield* h.cluster.api.update(Kinds.ListenerClass, { ...restricted, spec: { ...(restricted["spec"] as object), allowedNamespaces: ["kafka-*", "apps"] } })
    yield* h.reconcile("web")
    assert.ok(h.get(Kinds.Service, "web", "apps"))
    assert.notEqual(readyOf(h.get(Kinds.Listener, "web", "apps"))?.["reason"], "ClassNotAllowed")
  })))

test("a Listener in an allowed namespace is served as before", () =>
  run(Effect.gen(function*() {
    const h = yield* makeHarness({
      objects: [
        listenerClassObject("public", { serviceType: "ClusterIP", allowedNamespaces: ["kafka-*"] }),
        listenerObject("broker", { className: "public", ports: [{ name: "k", port: 9092 }] }, "kafka-prod")
      ]
    })
    yield* h.reconcile("broker", "kafka-prod")
    assert.ok(h.get(Kinds.Service, "broker", "kafka-prod"))
    assert.equal(readyOf(h.get(Kinds.Listener, "broker", "kafka-prod"))?.["reason"], "Reconciled")
  })))
