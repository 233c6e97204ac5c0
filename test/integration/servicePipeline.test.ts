// Every Listener and ListenerClass field the Service plan reads, changed one at a time on
// the real API server: the Service must follow each change through the whole pipeline —
// watch, cache, decode, plan, fingerprint, apply — with exactly one Service write, and
// nothing else may be written (the audit log counts the controller's own writes).
import { after, before, test } from "node:test"
import assert from "node:assert/strict"
import { Fiber } from "effect"
import { Kinds } from "../../domain/kinds.ts"
import type { ResourceKind } from "../../domain/kinds.ts"
import type { KubeObject } from "../../effects/shared/KubeApi.ts"
import { crdManifests } from "../../k8s/crds.ts"
import { runListenerController } from "../../k8s/listenerController.ts"
import { startControlPlane } from "../envtest/controlPlane.ts"
import type { AuditEvent, ControlPlane } from "../envtest/controlPlane.ts"
import { clientOf, kubeApiRuntime } from "../envtest/kubeApiRuntime.ts"
import type { KubeApiRuntime } from "../envtest/kubeApiRuntime.ts"
import { eventually } from "../envtest/kubeClient.ts"

const NS = "default"
const LISTENER_API = "listeners.stackable.tech/v1alpha1"
const CONTROLLER_USER = "listener-controller"

let plane: ControlPlane | undefined
let admin: KubeApiRuntime | undefined
let ours: KubeApiRuntime | undefined
let controller: Fiber.Fiber<never, unknown> | undefined

const runtimeFor = (kubeconfig: string): KubeApiRuntime => kubeApiRuntime(kubeconfig, "pipeline")
const { api, get, installCrds } = clientOf(() => admin!)

const controllerWrites = (events: ReadonlyArray<AuditEvent>) =>
  events.filter((e) => e.user.username === CONTROLLER_USER && !["get", "list", "watch"].includes(e.verb))
const describe = (events: ReadonlyArray<AuditEvent>) =>
  JSON.stringify(events.map((e) => `${e.verb} ${e.objectRef?.resource}${e.objectRef?.subresource ? `/${e.objectRef.subresource}` : ""} ${e.objectRef?.name}`))

before(async () => {
  plane = await startControlPlane({ auditLog: true })
  admin = runtimeFor(plane.kubeconfigPath)
  await installCrds(crdManifests())
  await eventually("Listener resource served", async () => (await api((a) => a.list(Kinds.Listener, { namespace: NS })), true))
  ours = runtimeFor(await plane.clientKubeconfig(CONTROLLER_USER, ["system:masters"]))
  controller = ours.runFork(runListenerController({ concurrency: 2 }))
}, { timeout: 240_000 })

after(async () => {
  if (controller !== undefined) await ours?.runPromise(Fiber.interrupt(controller))
  await ours?.dispose()
  await admin?.dispose()
  await plane?.stop()
})

type Json = Record<string, unknown>
const specOf = (object: KubeObject | undefined) => (object?.["spec"] ?? {}) as Json
const metaOf = (service: KubeObject | undefined) => service?.metadata

/** Edit an object in place (read, change, update: optimistic concurrency, retried on a conflict). */
const edit = (kind: ResourceKind, name: string, namespace: string | undefined, change: (object: KubeObject) => KubeObject) =>
  eventually(`edit ${kind.kind} ${name}`, async () => {
    const current = await get(kind, name, namespace)
    if (current === undefined) return false
    try {
      await api((a) => a.update(kind, change(structuredClone(current))))
      return true
    } catch {
      return false
    }
  }, { timeoutMs: 20_000 })

const withSpec = (patch: (spec: Json) => Json) => (object: KubeObject): KubeObject => ({ ...object, spec: patch(specOf(object)) })
const withLabels = (patch: (labels: Record<string, string>) => Record<string, string>) => (object: KubeObject): KubeObject => ({
  ...object,
  metadata: { ...object.metadata, labels: patch({ ...object.metadata.labels }) }
})

interface Step {
  readonly what: string
  readonly change: () => Promise<unknown>
  readonly serviceShows: (service: KubeObject) => boolean
  /** Does the change also change the Listener's status (addresses, node ports, or observedGeneration: any spec edit)? */
  readonly statusChanges: boolean
}

const listener = (change: (object: KubeObject) => KubeObject) => () => edit(Kinds.Listener, "pipe", NS, change)
const listenerClass = (change: (object: KubeObject) => KubeObject) => () => edit(Kinds.ListenerClass, "pipe-class", undefined, change)
const without = (record: Json, key: string) => Object.fromEntries(Object.entries(record).filter(([k]) => k !== key))

const steps: ReadonlyArray<Step> = [
  {
    what: "a Listener label is added",
    change: listener(withLabels((l) => ({ ...l, foo: "bar" }))),
    serviceShows: (s) => metaOf(s)?.labels?.["foo"] === "bar",
    statusChanges: false
  },
  {
    what: "a Listener label changes",
    change: listener(withLabels((l) => ({ ...l, foo: "baz" }))),
    serviceShows: (s) => metaOf(s)?.labels?.["foo"] === "baz",
    statusChanges: false
  },
  {
    what: "a Listener label is removed",
    change: listener(withLabels((l) => without(l, "foo") as Record<string, string>)),
    serviceShows: (s) => metaOf(s)?.labels?.["foo"] === undefined,
    statusChanges: false
  },
  {
    what: "the class gains a Service annotation",
    change: listenerClass(withSpec((s) => ({ ...s, serviceAnnotations: { "example.com/team": "data" } }))),
    serviceShows: (s) => metaOf(s)?.annotations?.["example.com/team"] === "data",
    statusChanges: false
  },
  {
    what: "the class drops it",
    change: listenerClass(withSpec((s) => ({ ...s, serviceAnnotations: {} }))),
    serviceShows: (s) => metaOf(s)?.annotations?.["example.com/team"] === undefined,
    statusChanges: false
  },
  {
    what: "a port is added",
    change: listener(withSpec((s) => ({ ...s, ports: [{ name: "http", port: 8080 }, { name: "admin", port: 9090 }] }))),
    serviceShows: (s) => JSON.stringify((specOf(s)["ports"] as Json[]).map((p) => p["name"])) === JSON.stringify(["http", "admin"]),
    statusChanges: true
  },
  {
    what: "a port is renamed and renumbered",
    change: listener(withSpec((s) => ({ ...s, ports: [{ name: "web", port: 8443 }, { name: "admin", port: 9090 }] }))),
    serviceShows: (s) => JSON.stringify((specOf(s)["ports"] as Json[]).map((p) => `${p["name"]}:${p["port"]}`)) === JSON.stringify(["web:8443", "admin:9090"]),
    statusChanges: true
  },
  {
    what: "extraPodSelectorLabels are set",
    change: listener(withSpec((s) => ({ ...s, extraPodSelectorLabels: { role: "broker" } }))),
    serviceShows: (s) => (specOf(s)["selector"] as Json)["role"] === "broker",
    statusChanges: true
  },
  {
    what: "publishNotReadyAddresses is turned off",
    change: listener(withSpec((s) => ({ ...s, publishNotReadyAddresses: false }))),
    // The API server omits a false bool of a core type: absent on the wire.
    serviceShows: (s) => specOf(s)["publishNotReadyAddresses"] !== true,
    statusChanges: true
  },
  {
    what: "an objectOverride names the Service",
    change: listener(withSpec((s) => ({ ...s, objectOverrides: [{ apiVersion: "v1", kind: "Service", metadata: { name: "pipe", annotations: { "example.com/override": "yes" } } }] }))),
    serviceShows: (s) => metaOf(s)?.annotations?.["example.com/override"] === "yes",
    statusChanges: true
  },
  {
    what: "the class's serviceOverrides set sessionAffinity",
    change: listenerClass(withSpec((s) => ({ ...s, serviceOverrides: { spec: { sessionAffinity: "ClientIP" } } }))),
    serviceShows: (s) => specOf(s)["sessionAffinity"] === "ClientIP",
    statusChanges: false
  },
  {
    what: "the class becomes NodePort with externalTrafficPolicy Local",
    change: listenerClass(withSpec((s) => ({ ...s, serviceType: "NodePort", serviceExternalTrafficPolicy: "Local" }))),
    serviceShows: (s) => specOf(s)["type"] === "NodePort" && specOf(s)["externalTrafficPolicy"] === "Local",
    statusChanges: true
  },
  {
    what: "the class becomes LoadBalancer with a loadBalancerClass and no node ports",
    change: listenerClass(withSpec((s) => ({ ...s, serviceType: "LoadBalancer", loadBalancerClass: "example.com/lb", loadBalancerAllocateNodePorts: false }))),
    serviceShows: (s) => specOf(s)["type"] === "LoadBalancer" && specOf(s)["loadBalancerClass"] === "example.com/lb" && specOf(s)["allocateLoadBalancerNodePorts"] === false,
    statusChanges: true
  }
]

test("the Service follows every field its plan reads, one change at a time, with one write each", async () => {
  await api((a) => a.create(Kinds.ListenerClass, { apiVersion: LISTENER_API, kind: "ListenerClass", metadata: { name: "pipe-class" }, spec: { serviceType: "ClusterIP" } }))
  await api((a) => a.create(Kinds.Listener, {
    apiVersion: LISTENER_API,
    kind: "Listener",
    metadata: { name: "pipe", namespace: NS, labels: { team: "data" } },
    spec: { className: "pipe-class", ports: [{ name: "http", port: 8080 }] }
  }))
  const first = await eventually("the Service, with the Listener's labels", async () => {
    const service = await get(Kinds.Service, "pipe", NS)
    return service?.metadata.labels?.["team"] === "data" ? service : undefined
  }, { timeoutMs: 30_000 })
  await eventually("the first status", async () => ((await get(Kinds.Listener, "pipe", NS))?.["status"] as Json | undefined)?.["serviceName"] === "pipe", { timeoutMs: 30_000 })
  await new Promise((resolve) => setTimeout(resolve, 1_500))

  for (const step of steps) {
    const start = (await plane!.auditEvents()).length
    await step.change()
    const service = await eventually(`Service after: ${step.what}`, async () => {
      const current = await get(Kinds.Service, "pipe", NS)
      return current !== undefined && step.serviceShows(current) ? current : undefined
    }, { timeoutMs: 30_000 })
    assert.equal(service.metadata.uid, first.metadata.uid, `${step.what}: the same Service`)
    // Let the status and anything else the change sets off land before counting.
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    const writes = controllerWrites((await plane!.auditEvents()).slice(start))
    const serviceWrites = writes.filter((e) => e.objectRef?.resource === "services")
    const statusWrites = writes.filter((e) => e.objectRef?.resource === "listeners" && e.objectRef.subresource === "status")
    const others = writes.filter((e) => !serviceWrites.includes(e) && !statusWrites.includes(e))
    assert.equal(serviceWrites.length, 1, `${step.what}: one Service write, got ${describe(writes)}`)
    assert.equal(statusWrites.length, step.statusChanges ? 1 : 0, `${step.what}: status writes, got ${describe(writes)}`)
    assert.deepEqual(others, [], `${step.what}: nothing else written, got ${describe(others)}`)
  }
})
