import { test } from "node:test"
import assert from "node:assert/strict"
import { planFailedStatus, planStatus, statusUpToDate } from "../../../../domain/listenerPlan/index.ts"

const T0 = "2026-01-01T00:00:00Z"
const T1 = "2026-01-01T01:00:00Z"
const ADDRESS = { address: "web.apps.svc.cluster.local", addressType: "Hostname" as const, ports: { http: 8080 } }

test("Ready=True/Reconciled when the Service has an address; observedGeneration on status and condition", () => {
  const status = planStatus({ serviceName: "web", addresses: [ADDRESS], nodePorts: undefined, generation: 4, liveStatus: undefined, now: T0 })
  assert.deepEqual(status, {
    serviceName: "web",
    ingressAddresses: [ADDRESS],
    conditions: [{ type: "Ready", status: "True", reason: "Reconciled", message: "Service web is reachable on 1 address(es)", observedGeneration: 4, lastTransitionTime: T0 }],
    observedGeneration: 4
  })
})

test("Ready=False/AwaitingAddresses without addresses; nodePorts only when given (NodePort)", () => {
  const status = planStatus({ serviceName: "web", addresses: [], nodePorts: { http: 30080 }, generation: 1, liveStatus: undefined, now: T0 })
  assert.equal(status.conditions[0]!.status, "False")
  assert.equal(status.conditions[0]!.reason, "AwaitingAddresses")
  assert.deepEqual(status.nodePorts, { http: 30080 })
  assert.deepEqual(status.ingressAddresses, [])
})

test("lastTransitionTime is kept while the status does not flip, and moves when it does", () => {
  const first = planStatus({ serviceName: "web", addresses: [], nodePorts: undefined, generation: 1, liveStatus: undefined, now: T0 })
  const stillWaiting = planStatus({ serviceName: "web", addresses: [], nodePorts: undefined, generation: 2, liveStatus: first, now: T1 })
  assert.equal(stillWaiting.conditions[0]!.lastTransitionTime, T0)
  const ready = planStatus({ serviceName: "web", addresses: [ADDRESS], nodePorts: undefined, generation: 2, liveStatus: first, now: T1 })
  assert.equal(ready.conditions[0]!.lastTransitionTime, T1)
})

test("failure statuses: each reason, Ready=False, earlier addresses kept", () => {
  const live = planStatus({ serviceName: "web", addresses: [ADDRESS], nodePorts: undefined, generation: 1, liveStatus: undefined, now: T0 })
  for (const reason of ["NoClassName", "ListenerClassNotFound", "ServiceConflict", "InvalidSpec"] as const) {
    const status = planFailedStatus({ reason, message: `because ${reason}`, generation: 2, liveStatus: live, now: T1 })
    assert.deepEqual(status.conditions, [
      { type: "Ready", status: "False", reason, message: `because ${reason}`, observedGeneration: 2, lastTransitionTime: T1 }
    ])
    assert.equal(status.serviceName, "web")
    assert.deepEqual(status.ingressAddresses, [ADDRESS])
    assert.equal(status.observedGeneration, 2)
  }
  assert.deepEqual(Object.keys(planFailedStatus({ reason: "NoClassName", message: "m", generation: undefined, liveStatus: undefined, now: T0 })), ["conditions"])
})

test("statusUpToDate: same status → true; any reported difference → false; foreign conditions ignored", () => {
  const desired = planStatus({ serviceName: "web", addresses: [ADDRESS], nodePorts: undefined, generation: 1, liveStatus: undefined, now: T0 })
  const live = JSON.parse(JSON.stringify(desired))
  assert.equal(statusUpToDate(desired, live), true)
  assert.equal(statusUpToDate(desired, { ...live, conditions: [...live.conditions, { type: "Other", status: "True" }] }), true)
  assert.equal(statusUpToDate(desired, { ...live, nodePorts: null }), true)
  assert.equal(statusUpToDate(desired, undefined), false)
  assert.equal(statusUpToDate(desired, { ...live, serviceName: "x" }), false)
  assert.equal(statusUpToDate(desired, { ...live, ingressAddresses: [] }), false)
  assert.equal(statusUpToDate(desired, { ...live, nodePorts: { http: 1 } }), false)
  assert.equal(statusUpToDate(desired, { ...live, observedGeneration: 0 }), false)
  assert.equal(statusUpToDate(desired, { ...live, conditions: [{ ...live.conditions[0], reason: "AwaitingAddresses" }] }), false)
  assert.equal(statusUpToDate(desired, { ...live, conditions: [] }), false)
})
