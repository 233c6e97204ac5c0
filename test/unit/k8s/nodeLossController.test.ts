/**
 * The node-loss controller's wiring over the in-memory API server: which volumes it acts
 * on (only ours, only pinned, only when the class opts in), the release order's outcome,
 * and the zero-request steady state while every Node is Ready.
 */
import { test } from "node:test"
import assert from "node:assert/strict"
import { Effect } from "effect"
import type { Scope } from "effect"
import { KubeApiMemory } from "../../../adapters/KubeApiMemory.ts"
import { CSI_DRIVER_NAME, LISTENER_API_VERSION } from "../../../domain/constants.ts"
import { Kinds } from "../../../domain/kinds.ts"
import { makeMemoryEventRecorder, EventRecorder } from "../../../effects/shared/EventRecorder.ts"
import { KubeApi } from "../../../effects/shared/KubeApi.ts"
import type { KubeObject } from "../../../effects/shared/KubeApi.ts"
import { makeNodeLossController } from "../../../k8s/nodeLossController.ts"
import { waitFor } from "./waitFor.ts"

const run = <A, E>(effect: Effect.Effect<A, E, Scope.Scope>) => Effect.runPromise(Effect.scoped(effect))


const node = (name: string): KubeObject => ({
  apiVersion: "v1",
  kind: "Node",
  metadata: { name },
  status: { conditions: [{ type: "Ready", status: "True", lastTransitionTime: "2026-01-01T00:00:00Z" }] }
})

const pinnedPv = (name: string, nodeName: string, claim: { name: string; uid: string }, driver = CSI_DRIVER_NAME, className = "recover"): KubeObject => ({
  apiVersion: "v1",
  kind: "PersistentVolume",
  metadata: { name },
  spec: {
    csi: { driver, volumeHandle: name, volumeAttributes: { "listeners.stackable.tech/listener-class": className } },
    claimRef: { namespace: "apps", name: claim.name, uid: claim.uid },
    nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: "listeners.stackable.tech/hostname", operator: "In", values: [nodeName] }] }] } }
  }
})

const listenerClass = (name: string, spec: Record<string, unknown>): KubeObject => ({
  apiVersion: LISTENER_API_VERSION,
  kind: "ListenerClass",
  metadata: { name },
  spec: { serviceType: "NodePort", pinnedNodePorts: true, ...spec }
})

const start = Effect.gen(function*() {
  const cluster = yield* KubeApiMemory.make()
  const events = yield* makeMemoryEventRecorder
  const nodeLoss = yield* makeNodeLossController.pipe(Effect.provideService(KubeApi, cluster.api))
  yield* nodeLoss.run.pipe(
    Effect.provideService(KubeApi, cluster.api),
    Effect.provideService(EventRecorder, events.recorder),
    Effect.forkScoped
  )
  const api = cluster.api
  yield* api.create(Kinds.Namespace, { apiVersion: "v1", kind: "Namespace", metadata: { name: "apps" } })
  yield* api.create(Kinds.ListenerClass, listenerClass("recover", { pinnedNodeLossRecovery: true }))
  yield* api.create(Kinds.ListenerClass, listenerClass("manual", {}))
  const claim = (name: string) =>
    api.create(Kinds.PersistentVolumeClaim, {
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: { name, namespace: "apps" },
      spec: { accessModes: ["ReadWriteMany"], resources: { requests: { storage: "1" } } }
    })
  const exists = (kind: typeof Kinds.PersistentVolume | typeof Kinds.PersistentVolumeClaim, name: string) =>
    cluster.objects(kind).some((o) => o.metadata.name === name)
  return { cluster, api, events, claim, exists, nodeLoss }
})

test("node loss: a deleted Node releases our pinned volumes where the class opts in, and nothing else", () =>
  run(Effect.gen(function*() {
    const { cluster, api, events, claim, exists } = yield* start
    for (const name of ["node-1", "node-2"]) yield* api.create(Kinds.Node, node(name))
    const ours = yield* claim("ours")
    const foreign = yield* claim("foreign")
    const manual = yield* claim("manual")
    const elsewhere = yield* claim("elsewhere")
    yield* api.create(Kinds.PersistentVolume, pinnedPv("pv-ours", "node-1", { name: "ours", uid: ours.metadata.uid! }))
    yield* api.create(Kinds.PersistentVolume, pinnedPv("pv-foreign", "node-1", { name: "foreign", uid: foreign.metadata.uid! }, "other.example.com"))
    yield* api.create(Kinds.PersistentVolume, pinnedPv("pv-manual", "node-1", { name: "manual", uid: manual.metadata.uid! }, CSI_DRIVER_NAME, "manual"))
    yield* api.create(Kinds.PersistentVolume, pinnedPv("pv-elsewhere", "node-2", { name: "elsewhere", uid: elsewhere.metadata.uid! }))

    // Steady state with every Node Ready: no request at all.
    yield* Effect.sleep("200 millis")
    cluster.requests.reset()
    yield* Effect.sleep("200 millis")
    assert.equal(cluster.requests.count("get") + cluster.requests.count("list") + cluster.requests.writes(), 0)

    yield* api.delete(Kinds.Node, { name: "node-1" })
    yield* waitFor("pv-ours released", () => !exists(Kinds.PersistentVolume, "pv-ours") && !exists(Kinds.PersistentVolumeClaim, "ours"))
    yield* waitFor("the manual volume reported", () => Effect.runSync(events.recorded).some((e) => e.regarding.name === "manual"))
    assert.ok(exists(Kinds.PersistentVolume, "pv-foreign") && exists(Kinds.PersistentVolumeClaim, "foreign"), "another driver's volume is never touched")
    assert.ok(exists(Kinds.PersistentVolume, "pv-manual") && exists(Kinds.PersistentVolumeClaim, "manual"), "recovery off: untouched")
    assert.ok(exists(Kinds.PersistentVolume, "pv-elsewhere") && exists(Kinds.PersistentVolumeClaim, "elsewhere"), "a Ready Node's volume stays")
    const recorded = yield* events.recorded
    const reasonsOn = (name: string) => recorded.filter((e) => e.regarding.name === name).map((e) => e.reason)
    assert.deepEqual(reasonsOn("ours"), ["PinnedNodeLost", "PinnedClaimDeleted", "PinnedVolumeDeleted"])
    assert.deepEqual(reasonsOn("manual"), ["PinnedNodeLost"])
    assert.deepEqual(reasonsOn("foreign"), [])
  })))

test("node loss: a NotReady Node with a grace period is waited for, then its volumes released", () =>
  run(Effect.gen(function*() {
    const { api, claim, exists } = yield* start
    yield* api.create(Kinds.ListenerClass, listenerClass("graceful", { pinnedNodeLossRecovery: true, pinnedNodeLossGracePeriod: "300ms" }))
    const created = yield* api.create(Kinds.Node, node("node-1"))
    const pvc = yield* claim("ours")
    yield* api.create(Kinds.PersistentVolume, pinnedPv("pv-ours", "node-1", { name: "ours", uid: pvc.metadata.uid! }, CSI_DRIVER_NAME, "graceful"))
    yield* Effect.sleep("100 millis")
    yield* api.updateStatus(Kinds.Node, {
      ...created,
      status: { conditions: [{ type: "Ready", status: "Unknown", lastTransitionTime: new Date().toISOString() }] }
    })
    yield* Effect.sleep("150 millis")
    assert.ok(exists(Kinds.PersistentVolume, "pv-ours"), "within the grace period")
    yield* waitFor("released after the grace period", () => !exists(Kinds.PersistentVolume, "pv-ours"))
    assert.equal(exists(Kinds.PersistentVolumeClaim, "ours"), false)
  })))

test("node loss: reported losses are forgotten when the volume goes, so node churn does not grow the controller's memory", () =>
  run(Effect.gen(function*() {
    const { api, events, claim, nodeLoss } = yield* start
    const lossReports = (claimName: string) =>
      Effect.runSync(events.recorded).filter((e) => e.regarding.name === claimName && e.reason === "PinnedNodeLost").length
    // Nodes come and go (an autoscaler); recovery is off, so each loss is reported and the
    // user deletes the volume by hand, as the report says.
    for (let round = 0; round < 20; round++) {
      const pvc = yield* claim(`manual-${round}`)
      yield* api.create(Kinds.Node, node(`node-${round}`))
      yield* api.create(Kinds.PersistentVolume, pinnedPv(`pv-${round}`, `node-${round}`, { name: `manual-${round}`, uid: pvc.metadata.uid! }, CSI_DRIVER_NAME, "manual"))
      yield* api.delete(Kinds.Node, { name: `node-${round}` })
      yield* waitFor(`the loss of node-${round} reported`, () => lossReports(`manual-${round}`) === 1)
      yield* api.delete(Kinds.PersistentVolume, { name: `pv-${round}` })
    }
    yield* waitFor("every reported loss forgotten with its volume", () => Effect.runSync(nodeLoss.reportedVolumes) === 0)
  })))

test("node loss: a Node that comes back ends the reported loss; losing it again is reported again", () =>
  run(Effect.gen(function*() {
    const { api, events, claim, nodeLoss } = yield* start
    const lossReports = () => Effect.runSync(events.recorded).filter((e) => e.regarding.name === "manual" && e.reason === "PinnedNodeLost").length
    const pvc = yield* claim("manual")
    yield* api.create(Kinds.Node, node("node-1"))
    yield* api.create(Kinds.PersistentVolume, pinnedPv("pv-manual", "node-1", { name: "manual", uid: pvc.metadata.uid! }, CSI_DRIVER_NAME, "manual"))
    yield* api.delete(Kinds.Node, { name: "node-1" })
    yield* waitFor("the first loss reported", () => lossReports() === 1)
    assert.equal(yield* nodeLoss.reportedVolumes, 1)
    const back = yield* api.create(Kinds.Node, node("node-1"))
    yield* api.updateStatus(Kinds.Node, { ...back, status: node("node-1")["status"] })
    yield* waitFor("the loss forgotten once the Node is back", () => Effect.runSync(nodeLoss.reportedVolumes) === 0)
    yield* api.delete(Kinds.Node, { name: "node-1" })
    yield* waitFor("the second loss reported", () => lossReports() === 2)
    yield* Effect.sleep("100 millis")
    assert.equal(lossReports(), 2, "one report per loss")
  })))
