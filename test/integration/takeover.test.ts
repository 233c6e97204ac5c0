// Taking over from the upstream operator on the real API server: Services and statuses it
// wrote (its field managers), first under its CRDs (which lack status.conditions and
// status.observedGeneration — what `helm install` leaves, since Helm never replaces CRDs),
// then under ours. Writes are counted by the API server's audit log, per identity.
import { after, before, test } from "node:test"
import assert from "node:assert/strict"
import { Fiber } from "effect"
import { Kinds } from "../../domain/kinds.ts"
import { mountLabelKey } from "../../domain/listenerPlan/index.ts"
import type { KubeObject } from "../../effects/shared/KubeApi.ts"
import { crdManifests } from "../../k8s/crds.ts"
import { runListenerController } from "../../k8s/listenerController.ts"
import { startControlPlane } from "../envtest/controlPlane.ts"
import type { AuditEvent, ControlPlane } from "../envtest/controlPlane.ts"
import { clientOf, kubeApiRuntime } from "../envtest/kubeApiRuntime.ts"
import type { KubeApiRuntime } from "../envtest/kubeApiRuntime.ts"
import { createNamespace, eventually } from "../envtest/kubeClient.ts"

const NS = "takeover"
const LISTENER_API = "listeners.stackable.tech/v1alpha1"
const UPSTREAM_MANAGER = "listeners.stackable.tech/listener"
const CONTROLLER_USER = "listener-controller"
const COUNT = 12

let plane: ControlPlane | undefined
let admin: KubeApiRuntime | undefined
let ours: KubeApiRuntime | undefined
let controller: Fiber.Fiber<never, unknown> | undefined

const runtimeFor = (kubeconfig: string): KubeApiRuntime => kubeApiRuntime(kubeconfig, "takeover")
const { api, get, installCrds } = clientOf(() => admin!)

/** The upstream operator's CRDs as far as we use them: ours without the status fields we added. */
const upstreamCrds = () =>
  crdManifests().map((crd) => {
    if (crd.metadata.name !== "listeners.listeners.stackable.tech") return crd
    const copy = structuredClone(crd) as unknown as { spec: { versions: Array<{ schema: { openAPIV3Schema: { properties: { status: { properties: Record<string, unknown> } } } } }> } }
    for (const version of copy.spec.versions) {
      delete version.schema.openAPIV3Schema.properties.status.properties["conditions"]
      delete version.schema.openAPIV3Schema.properties.status.properties["observedGeneration"]
    }
    return copy as unknown as typeof crd
  })


/** What the upstream operator leaves for a ClusterIP Listener: its Service and its status, under its field manager. */
const upstreamState = async (name: string) => {
  const listener = await api((a) => a.create(Kinds.Listener, {
    apiVersion: LISTENER_API,
    kind: "Listener",
    metadata: { name, namespace: NS, labels: { team: "data" } },
    spec: { className: "internal", ports: [{ name: "kafka", port: 9092 }] }
  }))
  const uid = listener.metadata.uid!
  const service = await api((a) => a.apply(Kinds.Service, {
    apiVersion: "v1",
    kind: "Service",
    metadata: {
      name,
      namespace: NS,
      labels: { team: "data", "app.kubernetes.io/name": "listener", "app.kubernetes.io/instance": name, "app.kubernetes.io/managed-by": "listeners.stackable.tech_listener" },
      ownerReferences: [{ apiVersion: LISTENER_API, kind: "Listener", name, uid, controller: true, blockOwnerDeletion: true }]
    },
    spec: { type: "ClusterIP", ports: [{ name: "kafka", port: 9092, protocol: "TCP" }], selector: { [mountLabelKey(uid)]: name }, publishNotReadyAddresses: true }
  }, { fieldManager: UPSTREAM_MANAGER, force: true }))
  await api((a) => a.applyStatus(Kinds.Listener, {
    apiVersion: LISTENER_API,
    kind: "Listener",
    metadata: { name, namespace: NS },
    status: { serviceName: name, ingressAddresses: [{ address: `${name}.${NS}.svc.cluster.local`, addressType: "Hostname", ports: { kafka: 9092 } }] }
  }, { fieldManager: UPSTREAM_MANAGER, force: true }))
  return service
}

const byController = (events: ReadonlyArray<AuditEvent>) => events.filter((e) => e.user.username === CONTROLLER_USER)
const writesTo = (events: ReadonlyArray<AuditEvent>, resource: string, subresource?: string) =>
  events.filter((e) => e.objectRef?.resource === resource && (e.objectRef?.subresource ?? undefined) === subresource && e.verb !== "get" && e.verb !== "list" && e.verb !== "watch")

const startOurs = async () => {
  ours = runtimeFor(await plane!.clientKubeconfig(CONTROLLER_USER, ["system:masters"]))
  controller = ours.runFork(runListenerController({ concurrency: 4 }))
}
const stopOurs = async () => {
  if (controller !== undefined) await ours?.runPromise(Fiber.interrupt(controller))
  await ours?.dispose()
  controller = undefined
  ours = undefined
}

const originals = new Map<string, KubeObject>()

before(async () => {
  plane = await startControlPlane({ auditLog: true, controllerManager: true })
  admin = runtimeFor(plane.kubeconfigPath)
  await installCrds(upstreamCrds())
  await eventually("Listener resource served", async () => (await api((a) => a.list(Kinds.Listener, { namespace: "default" })), true))
  await createNamespace(plane.kube, NS)
  await api((a) => a.create(Kinds.ListenerClass, { apiVersion: LISTENER_API, kind: "ListenerClass", metadata: { name: "internal" }, spec: { serviceType: "ClusterIP" } }))
  for (let i = 0; i < COUNT; i++) originals.set(`broker-${i}`, await upstreamState(`broker-${i}`))
}, { timeout: 240_000 })

after(async () => {
  await stopOurs()
  await admin?.dispose()
  await plane?.stop()
})

test("under the upstream CRDs: every Service adopted with one write, statuses kept, the missing fields said once, no loop", async () => {
  const start = (await plane!.auditEvents()).length
  await startOurs()
  try {
    await eventually("every Service adopted", async () => {
      for (const name of originals.keys()) {
        const service = await get(Kinds.Service, name, NS)
        if (service?.metadata.annotations?.["listeners.stackable.tech/applied-fingerprint"] === undefined) return false
      }
      return true
    }, { timeoutMs: 60_000 })
    // Quiet for a while: whatever the controller would repeat shows up here.
    await new Promise((resolve) => setTimeout(resolve, 8_000))
    const events = byController((await plane!.auditEvents()).slice(start))

    const serviceWrites = writesTo(events, "services")
    assert.equal(serviceWrites.length, COUNT, `one write per Service: ${JSON.stringify(serviceWrites.map((e) => `${e.verb} ${e.objectRef?.name}`))}`)
    assert.ok(serviceWrites.every((e) => e.verb === "patch" && e.responseStatus?.code === 200))
    for (const [name, original] of originals) {
      const service = (await get(Kinds.Service, name, NS))!
      assert.equal(service.metadata.uid, original.metadata.uid, `${name}: the same Service`)
      assert.equal((service["spec"] as Record<string, unknown>)["clusterIP"], (original["spec"] as Record<string, unknown>)["clusterIP"], `${name}: its cluster IP`)
      assert.deepEqual((service.metadata.managedFields ?? []).filter((e) => e.manager === UPSTREAM_MANAGER), [], `${name}: nothing left to the upstream manager`)
    }

    // The status upstream wrote already says what ours would, within what its CRD holds: only
    // refused writes, each Listener at most once per undeclared field (the API server may name
    // one field per refusal), all in the first moments — then nothing: no loop.
    const statusWrites = writesTo(events, "listeners", "status")
    const described = JSON.stringify(statusWrites.map((e) => `${e.responseStatus?.code} ${e.objectRef?.name}`))
    assert.ok(statusWrites.length >= 1 && statusWrites.length <= 2 * COUNT, `status writes: ${described}`)
    assert.ok(statusWrites.every((e) => e.responseStatus?.code === 500), `only the refused ones: ${described}`)
    for (const name of originals.keys()) {
      assert.ok(statusWrites.filter((e) => e.objectRef?.name === name).length <= 2, `${name}: at most one refusal per undeclared field: ${described}`)
    }
    const quietFrom = (await plane!.auditEvents()).length
    await new Promise((resolve) => setTimeout(resolve, 5_000))
    assert.deepEqual(writesTo(byController((await plane!.auditEvents()).slice(quietFrom)), "listeners", "status"), [], "no status write once the fields are known")
    for (const name of originals.keys()) {
      const status = (await get(Kinds.Listener, name, NS))!["status"] as Record<string, unknown>
      assert.deepEqual(status["ingressAddresses"], [{ address: `${name}.${NS}.svc.cluster.local`, addressType: "Hostname", ports: { kafka: 9092 } }])
    }
    const crdEvents = writesTo(events, "events").filter((e) => e.verb === "create")
    assert.equal(crdEvents.length, 1, "one Event: the CRD notice")

    // A change still flows: a renamed port of an upstream Listener (the refused-as-duplicate case).
    const listener = (await get(Kinds.Listener, "broker-0", NS))!
    await api((a) => a.update(Kinds.Listener, { ...listener, spec: { className: "internal", ports: [{ name: "kafka-tls", port: 9093 }] } }))
    await eventually("broker-0's Service follows the port change", async () => {
      const service = await get(Kinds.Service, "broker-0", NS)
      const ports = ((service?.["spec"] as { ports?: Array<{ name: string; port: number }> } | undefined)?.ports ?? []).map((p) => `${p.name}:${p.port}`)
      return ports.length === 1 && ports[0] === "kafka-tls:9093"
    }, { timeoutMs: 30_000 })
    await eventually("broker-0's status follows", async () => {
      const status = (await get(Kinds.Listener, "broker-0", NS))?.["status"] as { ingressAddresses?: Array<{ ports: Record<string, number> }> } | undefined
      return JSON.stringify(status?.ingressAddresses?.[0]?.ports) === JSON.stringify({ "kafka-tls": 9093 })
    }, { timeoutMs: 30_000 })
  } finally {
    await stopOurs()
  }
})

test("under our CRDs: conditions are written and a renamed port leaves no stale entry", async () => {
  await installCrds(crdManifests())
  const start = (await plane!.auditEvents()).length
  await startOurs()
  try {
    await eventually("every Listener Ready with a condition", async () => {
      for (const name of originals.keys()) {
        const status = (await get(Kinds.Listener, name, NS))?.["status"] as { conditions?: Array<{ type: string; status: string }> } | undefined
        if (!status?.conditions?.some((c) => c.type === "Ready" && c.status === "True")) return false
      }
      return true
    }, { timeoutMs: 60_000 })
    await new Promise((resolve) => setTimeout(resolve, 5_000))
    const events = byController((await plane!.auditEvents()).slice(start))
    assert.equal(writesTo(events, "services").length, 0, "Services already ours: nothing to write")
    assert.equal(writesTo(events, "listeners", "status").length, COUNT, "one status write each (the conditions)")
  } finally {
    await stopOurs()
  }
})
