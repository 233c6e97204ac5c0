// Taking over from the upstream listener-operator (issue 22, docs/migration.md), on real
// kubelets. CI cannot build the upstream operator, so the state it leaves is replayed from
// the recording in fixtures/upstream/ (test/upstream/record.ts made it from the real
// upstream binary): its CRDs, ListenerClasses, Listeners with status, Services with its
// field managers' ownership, volumes, claims, PodListeners, and running Pods whose
// listener volumes hold the plain-directory trees upstream wrote — published by a stand-in
// node plugin (test/upstream/standInNodePlugin.ts) that writes the recorded trees and is
// registered with each kubelet by test/upstream/registrar.ts. Then the stand-in goes, the
// upstream chart's CSIDriver and StorageClass go (what `helm uninstall` of upstream
// removes), and our chart is installed as a user would: `--skip-crds` (Helm 4 would
// server-side apply crds/ over upstream's CRDs and fail on the conflict with upstream's CRD
// manager), first with `crds.manage=false` (upstream's CRDs stay: the operator must say
// once what to do), then `helm upgrade --set crds.manage=true`, the default, so the
// controller makes its CRDs the live ones.
import assert from "node:assert/strict"
import { after, before, describe, test } from "node:test"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { CSI_DRIVER_NAME, LISTENER_API_VERSION } from "../../domain/constants.ts"
import type { AuditEvent } from "../envtest/controlPlane.ts"
import { createNamespace, eventually } from "../envtest/kubeClient.ts"
import type { KubeClient, KubeObject } from "../envtest/kubeClient.ts"
import { isPodReady } from "../envtest/localCluster.ts"
import type { TrackedProcess } from "../envtest/processes.ts"
import { CHART_DIR, OPERATOR_NAMESPACE, RELEASE, startOperatorCluster } from "../realnodes/operatorCluster.ts"
import type { OperatorCluster } from "../realnodes/operatorCluster.ts"
import type { RealCluster } from "../realnodes/realCluster.ts"
import { loadFixtures } from "../upstream/fixtures.ts"
import { ownership } from "../upstream/managedFields.ts"
import type { ManagedFieldsEntry } from "../upstream/managedFields.ts"
import { registrarCommand } from "../upstream/registrar.ts"
import { ingressOf, replayClusterObjects, replayNamespace } from "../upstream/replay.ts"
import { applyL2Pool } from "../clusteraddons/metallb.ts"
import type { ReplayedState } from "../upstream/replay.ts"
import { standInCommand } from "../upstream/standInNodePlugin.ts"
import type { TreeEntry } from "../upstream/volumeTree.ts"
import { ephemeralPod, printedAddress } from "./workloads.ts"

const log = process.env["E2E_LOG"] !== undefined ? (line: string) => console.error(line) : undefined
/** What the figures in docs/migration.md are read from (E2E_REPORT=1 prints them). */
const report = (line: string) => {
  if (process.env["E2E_REPORT"] !== undefined || log !== undefined) console.error(`[takeover report] ${line}`)
}
const fixtures = loadFixtures()
const NS = fixtures.recording.namespace
const NODES = fixtures.recording.nodes.map((n) => n.name)
const WAIT = { timeoutMs: 240_000, intervalMs: 1000 }
const LISTENERS = `/apis/${LISTENER_API_VERSION}`
const NODE_CSI_SOCKET = `/var/lib/kubelet/plugins/${CSI_DRIVER_NAME}/csi.sock`
/**
 * MetalLB's pool holds the recorded load-balancer address (the documentation range
 * 203.0.113.0/24, announced only inside the nodes' namespaces), so the replayed Service gets
 * it back from the load balancer; the address change later is a change of that pool.
 * Neither address is dialled.
 */
const RECORDED_LB_ADDRESS = fixtures.recording.loadBalancerAddress
const NEW_LB_ADDRESS = "203.0.113.20"
/** MetalLB's controller's field manager (its binary's name). */
const METALLB_MANAGER = "controller"
/** Our operator's identities, as the API server's audit log names them. */
const OUR_CONTROLLER = `system:serviceaccount:${OPERATOR_NAMESPACE}:listener-operator-controller`
const OUR_USERS = new Set([OUR_CONTROLLER, `system:serviceaccount:${OPERATOR_NAMESPACE}:listener-operator-node`])
const WRITES = new Set(["create", "update", "patch", "delete"])
/**
 * Upstream's field managers: its client's (`listeners.stackable.tech`, and `…/<scope>` for
 * applies) and its CRD maintainer's. Ours are `listeners.stackable.tech_<role>`.
 */
const isUpstreamManager = (manager: string): boolean =>
  manager === "listeners.stackable.tech" || manager.startsWith("listeners.stackable.tech/") || manager === "listener-operator"

/** The Services' addresses: what must not change. */
const addressFacts = (service: KubeObject) => ({
  uid: service.metadata.uid,
  clusterIP: service.spec?.["clusterIP"],
  nodePorts: ((service.spec?.["ports"] ?? []) as Array<{ name?: string; nodePort?: number }>).map((p) => `${p.name}:${p.nodePort}`),
  ingress: (service.status?.["loadBalancer"] as { ingress?: unknown[] } | undefined)?.ingress ?? []
})

/**
 * What a reader of the volume sees, layout aside: `<path>=<content>` for every address and
 * port file, through `addresses/` and through `default-address`.
 */
const readerView = (tree: ReadonlyArray<TreeEntry>): string[] => {
  const files = tree.filter((e): e is Extract<TreeEntry, { type: "file" }> => e.type === "file" && e.path.startsWith("addresses/"))
  const link = tree.find((e): e is Extract<TreeEntry, { type: "symlink" }> => e.type === "symlink" && e.path === "default-address")
  const lines = files.map((f) => `${f.path}=${f.content}`)
  if (link !== undefined) {
    for (const f of files.filter((f) => f.path.startsWith(`${link.target}/`))) lines.push(`default-address${f.path.slice(link.target.length)}=${f.content}`)
  }
  return lines.sort()
}
const READER_SCRIPT = "cd /listener && for f in addresses/*/address addresses/*/ports/* default-address/address default-address/ports/*; do echo \"$f=$(cat $f)\"; done"

describe("taking over from the upstream operator, with its workloads running", { timeout: 1_800_000 }, () => {
  let operator: OperatorCluster
  let kube: KubeClient
  let replayed: ReplayedState
  let installedAt = ""
  const standIns: TrackedProcess[] = []
  /** Upstream's field managers of Services and Listeners, as recorded. */
  const upstreamManagers = new Set<string>()
  const replayedOwnership = new Map<string, ReturnType<typeof ownership>>()
  const before_ = new Map<string, ReturnType<typeof addressFacts>>()
  const podUids = new Map<string, string>()

  const kubectl = (args: ReadonlyArray<string>) => operator.cluster.plane.kubectl([...args])
  const exec = async (pod: string, command: ReadonlyArray<string>): Promise<string> => {
    const run = await kubectl(["exec", "-n", NS, pod, "--", ...command])
    assert.equal(run.code, 0, `kubectl exec ${pod} ${command.join(" ")}: ${run.stderr}`)
    return run.stdout
  }
  const viewOf = async (pod: string): Promise<string[]> =>
    (await exec(pod, ["sh", "-c", READER_SCRIPT])).trim().split("\n").filter((l) => !l.includes("*")).sort()
  const ourWrites = async (filter: (e: AuditEvent) => boolean): Promise<AuditEvent[]> =>
    (await operator.cluster.plane.auditEvents()).filter((e) =>
      OUR_USERS.has(e.user.username) && WRITES.has(e.verb) && e.stageTimestamp >= installedAt && filter(e))
  const recordedPods = fixtures.pods.map((p) => String(p.metadata.name))
  const treesOf = (pod: string) => fixtures.trees.filter((t) => t.pod === pod)

  /** The state upstream leaves, up to the moment its operator is uninstalled. */
  const bringUpstreamState = async (cluster: RealCluster): Promise<void> => {
    const k = cluster.kube
    await replayClusterObjects(k, fixtures)
    for (const node of cluster.nodes) {
      const standIn = standInCommand({ csiEndpoint: NODE_CSI_SOCKET, node: node.name, trees: join(fixtures.dir, "volume-trees.json") })
      standIns.push(node.spawn("upstream-stand-in", standIn.command, standIn.args))
      const registrar = registrarCommand({ registrationDir: "/var/lib/kubelet/plugins_registry", csiEndpoint: NODE_CSI_SOCKET, driverName: CSI_DRIVER_NAME })
      standIns.push(node.spawn("upstream-registrar", registrar.command, registrar.args))
    }
    for (const node of cluster.nodes) {
      await eventually(`CSINode ${node.name} lists the stand-in`, async () => {
        const csiNode = await k.getOrUndefined(`/apis/storage.k8s.io/v1/csinodes/${node.name}`)
        return ((csiNode?.spec?.drivers ?? []) as Array<{ name: string }>).some((d) => d.name === CSI_DRIVER_NAME)
      }, WAIT)
    }
    await createNamespace(k, NS)
    replayed = await replayNamespace(k, fixtures)
    for (const name of recordedPods) {
      const pod = await eventually(`replayed Pod ${name} ready`, async () => {
        const live = await k.getOrUndefined(`/api/v1/namespaces/${NS}/pods/${name}`)
        return live !== undefined && isPodReady(live) ? live : undefined
      }, WAIT).catch(async (error: unknown) => {
        const describe = await cluster.plane.kubectl(["describe", "pod", "-n", NS, name])
        const claims = await cluster.plane.kubectl(["get", "pv,pvc", "-A", "-o", "wide"])
        const kubeletLines = cluster.nodes.map((n) => {
          const file = join(n.hostDir, "logs", "kubelet.log")
          const lines = existsSync(file) ? readFileSync(file, "utf8").split("\n").filter((l) => l.includes(name) || l.includes(CSI_DRIVER_NAME)) : []
          return `--- ${n.name} kubelet:\n${lines.slice(-25).join("\n")}`
        })
        const logs = [...standIns.map((p) => `--- ${p.name}:\n${p.logTail(20)}`), ...kubeletLines].join("\n")
        throw new Error(`${String(error)}\n${describe.stdout}\n${claims.stdout}\n${logs}`, { cause: error })
      })
      podUids.set(name, String(pod.metadata.uid))
    }
    for (const recorded of [...fixtures.services, ...fixtures.listeners]) {
      for (const entry of (recorded.metadata as { managedFields?: ManagedFieldsEntry[] }).managedFields ?? []) {
        if (isUpstreamManager(entry.manager)) upstreamManagers.add(entry.manager)
      }
    }
    for (const s of (await k.list(`/api/v1/namespaces/${NS}/services`)).items) {
      before_.set(String(s.metadata.name), addressFacts(s))
      replayedOwnership.set(`Service/${s.metadata.name}`, ownership((s.metadata as { managedFields?: ManagedFieldsEntry[] }).managedFields))
    }
    for (const l of (await k.list(`${LISTENERS}/namespaces/${NS}/listeners`)).items) {
      replayedOwnership.set(`Listener/${l.metadata.name}`, ownership((l.metadata as { managedFields?: ManagedFieldsEntry[] }).managedFields))
    }
    // `helm uninstall` of the upstream release: its node plugins and CSIDriver/StorageClass go, its CRDs stay.
    for (const p of [...standIns].reverse()) await p.stop(3000)
    await k.delete(`/apis/storage.k8s.io/v1/csidrivers/${CSI_DRIVER_NAME}`)
    await k.delete(`/apis/storage.k8s.io/v1/storageclasses/${fixtures.storageClass.metadata.name}`)
    installedAt = new Date().toISOString()
  }

  before(async () => {
    operator = await startOperatorCluster({
      nodes: NODES, log, auditLog: true, beforeInstall: bringUpstreamState,
      loadBalancerPool: [`${RECORDED_LB_ADDRESS}/32`],
      // First as a user who keeps the CRDs himself (GitOps): upstream's CRDs stay live.
      values: ["crds.manage=false"],
      installFlags: ["--skip-crds"]
    })
    kube = operator.cluster.kube
  })

  after(async () => {
    for (const p of standIns) await p.stop(1000)
    await operator?.stop()
  })

  test("the replay is faithful: upstream's field managers own exactly what they owned in the recording", () => {
    // A Service's status is not replayed: MetalLB writes it (the recording's was written by
    // hand), and MetalLB's controller notes its pool on the Service.
    const notLoadBalancers = (recorded: KubeObject) => (o: { manager: string; subresource: string }) =>
      recorded.kind !== "Service" || (o.subresource !== "status" && o.manager !== METALLB_MANAGER)
    // Once MetalLB's controller annotates a Service (its pool), the API server may drop another
    // manager's claim on the then non-empty annotations map itself (`f:annotations: {}`): that
    // empty claim is compared only where MetalLB has not written.
    const comparable = (recorded: KubeObject, metalLbWrote: boolean) => (o: ReturnType<typeof ownership>[number]) => {
      if (!metalLbWrote || recorded.kind !== "Service") return o
      const metadata = (o.fields as Record<string, Record<string, unknown> | undefined>)["f:metadata"]
      if (metadata === undefined || JSON.stringify(metadata["f:annotations"]) !== "{}") return o
      const { ["f:annotations"]: _empty, ...rest } = metadata
      return { ...o, fields: { ...o.fields, "f:metadata": rest } }
    }
    for (const recorded of [...fixtures.services, ...fixtures.listeners]) {
      const key = `${recorded.kind}/${recorded.metadata.name}`
      const metalLbWrote = (replayedOwnership.get(key) ?? []).some((o) => o.manager === METALLB_MANAGER)
      const expected = ownership(replayed.uids.map((recorded.metadata as { managedFields?: ManagedFieldsEntry[] }).managedFields)).filter(notLoadBalancers(recorded)).map(comparable(recorded, metalLbWrote))
      assert.deepEqual(replayedOwnership.get(key)?.filter(notLoadBalancers(recorded)).map(comparable(recorded, metalLbWrote)), expected, `${key}: replayed field ownership`)
      if (recorded.kind === "Service" && addressFacts(recorded).ingress.length > 0) {
        assert.deepEqual(replayedOwnership.get(key)?.filter((o) => o.subresource === "status").map((o) => o.manager), [METALLB_MANAGER], `${key}: MetalLB's controller wrote the load-balancer address`)
      }
    }
    for (const recorded of fixtures.services) {
      const facts = before_.get(String(recorded.metadata.name))
      assert.deepEqual({ ...facts, uid: undefined }, { ...addressFacts(recorded), uid: undefined }, `Service ${recorded.metadata.name} has its recorded addresses`)
    }
  })

  test("with upstream's CRDs still installed, ours says once what to do and does not loop", async () => {
    // Let it start and meet every Listener, then watch a quiet window.
    await new Promise((r) => setTimeout(r, 30_000))
    const windowStart = new Date().toISOString()
    await new Promise((r) => setTimeout(r, 20_000))
    const inWindow = await ourWrites((e) => e.stageTimestamp >= windowStart)
    const statusWrites = inWindow.filter((e) => e.objectRef?.resource === "listeners" && e.objectRef.subresource === "status")
    const eventWrites = inWindow.filter((e) => e.objectRef?.resource === "events")
    assert.equal(statusWrites.length, 0, `Listener status writes in a 20 s window 30 s after install: ${statusWrites.length}`)
    assert.ok(eventWrites.length <= 1, `Event writes in that window: ${eventWrites.length}`)
    // Events about a cluster-scoped object (the CRD) are in `default`.
    const events = (await Promise.all([NS, OPERATOR_NAMESPACE, "default"].map(async (ns) => (await kube.list(`/api/v1/namespaces/${ns}/events`)).items))).flat()
    const told = events.filter((e) => /CustomResourceDefinition|CRD/u.test(String(e["message"] ?? e["note"] ?? "")))
    assert.ok(told.length >= 1, `an Event says the CRDs must be updated; Events: ${events.map((e) => `${e["reason"]}: ${e["message"]}`).join(" | ")}`)
    for (const [name, facts] of before_) {
      assert.deepEqual(addressFacts(await kube.get(`/api/v1/namespaces/${NS}/services/${name}`)), facts, `Service ${name} unchanged`)
    }
  })

  test("with crds.manage=true the controller makes our CRDs the live ones; every upstream Listener gets our status and every Service is adopted with at most one write", async () => {
    const upgrade = await operator.helm(["upgrade", RELEASE, CHART_DIR, "--namespace", OPERATOR_NAMESPACE, "--reuse-values", "--wait", "--timeout", "5m", "--set", "crds.manage=true"])
    assert.equal(upgrade.code, 0, `helm upgrade --set crds.manage=true: ${upgrade.stderr}${upgrade.stdout}`)
    for (const recorded of fixtures.crds) {
      await eventually(`CRD ${recorded.metadata.name} is ours: upstream's conversion webhook gone`, async () => {
        const live = await kube.get(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${recorded.metadata.name}`)
        return ((live.spec?.["conversion"] as { strategy?: string } | undefined)?.strategy ?? "None") === "None"
      }, WAIT)
    }
    const listenerCrd = await kube.get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/listeners.listeners.stackable.tech")
    assert.ok(JSON.stringify(listenerCrd.spec?.["versions"]).includes('"observedGeneration"'), "the live Listener CRD declares our status fields")
    for (const recorded of fixtures.listeners) {
      await eventually(`Listener ${recorded.metadata.name} has our Ready condition`, async () => {
        const l = await kube.get(`${LISTENERS}/namespaces/${NS}/listeners/${recorded.metadata.name}`)
        return ((l.status?.["conditions"] ?? []) as Array<{ type: string }>).some((c) => c.type === "Ready")
      }, WAIT)
    }
    await new Promise((r) => setTimeout(r, 5000))
    // The whole takeover's writes by our operator, for docs/migration.md.
    const byTarget = new Map<string, number>()
    for (const w of await ourWrites(() => true)) {
      const role = w.user.username === OUR_CONTROLLER ? "controller" : "node"
      const target = `${w.objectRef?.resource ?? "?"}${w.objectRef?.subresource !== undefined ? `/${w.objectRef.subresource}` : ""}${w.objectRef?.namespace === NS ? "" : ` (${w.objectRef?.namespace ?? "cluster"})`}`
      const key = `${role} ${w.verb} ${target} → ${w.responseStatus?.code ?? "?"}`
      byTarget.set(key, (byTarget.get(key) ?? 0) + 1)
    }
    report(`our operator's writes since install: ${[...byTarget].sort().map(([k, n]) => `${k}: ${n}`).join("; ")}`)
    for (const [name, facts] of before_) {
      const live = await kube.get(`/api/v1/namespaces/${NS}/services/${name}`)
      assert.deepEqual(addressFacts(live), facts, `Service ${name}: same uid, cluster IP, node ports and load-balancer address`)
      const writes = await ourWrites((e) => e.objectRef?.resource === "services" && e.objectRef.name === name)
      report(`Service ${name}: ${writes.length} write(s) of our operator since install (${writes.map((w) => `${w.verb} ${w.responseStatus?.code ?? ""}`.trim()).join(", ") || "none"})`)
      assert.ok(writes.length <= 1, `Service ${name} adopted with ${writes.length} writes (${writes.map((w) => w.verb).join(", ")})`)
      const left = ((live.metadata as { managedFields?: ManagedFieldsEntry[] }).managedFields ?? [])
        .filter((e) => upstreamManagers.has(e.manager) && e.subresource !== "status")
      assert.deepEqual(left.map((e) => e.manager), [], `Service ${name}: upstream's field managers own nothing of its spec any more`)
    }
  })

  test("running Pods keep their files and addresses", async () => {
    for (const name of recordedPods) {
      const pod = await kube.get(`/api/v1/namespaces/${NS}/pods/${name}`)
      assert.equal(pod.metadata.uid, podUids.get(name), `${name} is the same Pod`)
      assert.ok(isPodReady(pod), `${name} is ready`)
      const restarts = ((pod.status?.["containerStatuses"] ?? []) as Array<{ restartCount: number }>).map((s) => s.restartCount)
      assert.deepEqual(restarts, [0], `${name} never restarted`)
      for (const tree of treesOf(name)) {
        assert.deepEqual(await viewOf(name), readerView(tree.tree), `${name}: /listener reads as upstream wrote it`)
      }
      const logs = await kubectl(["logs", "-n", NS, name, "-c", "app"])
      const printed = printedAddress(logs.stdout)
      const tree = treesOf(name)[0]
      if (tree !== undefined && printed !== undefined) {
        assert.ok(readerView(tree.tree).includes(`default-address/address=${printed.address}`), `${name} printed its upstream address ${printed.address}`)
      }
    }
  })

  test("a later address change reaches an upstream-published volume in place", async () => {
    const lbPod = fixtures.pods.find((p) => treesOf(String(p.metadata.name)).some((t) => t.tree.some((e) => e.path === `addresses/${fixtures.recording.loadBalancerAddress}`)))
    assert.ok(lbPod !== undefined, "the recording has a Pod published with the load-balancer address")
    const name = String(lbPod.metadata.name)
    const service = [...before_.entries()].find(([, f]) => JSON.stringify(f.ingress).includes(fixtures.recording.loadBalancerAddress))
    assert.ok(service !== undefined, "the recording has the load balancer's Service")
    // The administrator changes MetalLB's pool: MetalLB moves the Service to the new address.
    await applyL2Pool(operator.cluster.plane, "default", [`${NEW_LB_ADDRESS}/32`])
    await eventually(`MetalLB moved Service ${service[0]} to ${NEW_LB_ADDRESS}`, async () =>
      JSON.stringify(ingressOf(await kube.get(`/api/v1/namespaces/${NS}/services/${service[0]}`))) === JSON.stringify([NEW_LB_ADDRESS]), WAIT)
    await eventually(`${name} reads the new address ${NEW_LB_ADDRESS} in its running container`, async () =>
      (await exec(name, ["cat", "/listener/default-address/address"])) === NEW_LB_ADDRESS, WAIT)
    const pod = await kube.get(`/api/v1/namespaces/${NS}/pods/${name}`)
    assert.equal(pod.metadata.uid, podUids.get(name), "the same Pod, not a new one")
  })

  test("a port change of an upstream Listener reaches its Service and status", async () => {
    const shared = fixtures.listeners.find((l) => !(l.metadata.ownerReferences ?? []).some((r) => r.kind === "PersistentVolume"))
    assert.ok(shared !== undefined, "the recording has a Listener the user made (listener-name)")
    const path = `${LISTENERS}/namespaces/${NS}/listeners/${shared.metadata.name}`
    const ports = (shared.spec?.["ports"] ?? []) as Array<{ name: string; port: number; protocol?: string }>
    const changed = ports.map((p) => ({ ...p, port: p.port + 1 }))
    await kube.patch(path, { spec: { ports: changed } }, "merge")
    const service = await eventually(`Service ${shared.metadata.name} has the new ports`, async () => {
      const s = await kube.get(`/api/v1/namespaces/${NS}/services/${shared.metadata.name}`)
      const live = (s.spec?.["ports"] ?? []) as Array<{ name: string; port: number }>
      return live.length === changed.length && changed.every((c) => live.some((p) => p.name === c.name && p.port === c.port)) ? s : undefined
    }, WAIT)
    assert.equal(service.metadata.uid, before_.get(String(shared.metadata.name))?.uid, "the same Service")
    await eventually(`Listener ${shared.metadata.name} status follows the port change`, async () => {
      const l = await kube.get(path)
      const ready = ((l.status?.["conditions"] ?? []) as Array<{ type: string; status: string; observedGeneration?: number }>).find((c) => c.type === "Ready")
      return ready?.status === "True" && ready.observedGeneration === l.metadata.generation
    }, WAIT)
  })

  test("NodeUnpublishVolume of an upstream-published volume works: a deleted Pod goes, and its volume with it", async () => {
    const ephemeral = fixtures.pods.find((p) => ((p.spec?.["volumes"] ?? []) as Array<{ ephemeral?: unknown }>).some((v) => v.ephemeral !== undefined))
    assert.ok(ephemeral !== undefined, "the recording has a Pod with an ephemeral listener volume")
    const name = String(ephemeral.metadata.name)
    const uid = podUids.get(name)!
    const nodeName = String(ephemeral.spec?.["nodeName"])
    const node = operator.cluster.nodes.find((n) => n.name === nodeName)!
    await kube.delete(`/api/v1/namespaces/${NS}/pods/${name}`)
    await eventually(`Pod ${name} gone`, async () => (await kube.getOrUndefined(`/api/v1/namespaces/${NS}/pods/${name}`)) === undefined, WAIT)
    await eventually(`the kubelet removed ${name}'s directory`, async () => !existsSync(join(node.kubeletRootDir, "pods", uid)), WAIT)
  })

  test("new Pods publish as usual", async () => {
    await kube.create(`/api/v1/namespaces/${NS}/pods`, ephemeralPod("fresh", NS, "external-unstable", NODES[0]!))
    await eventually("Pod fresh ready", async () => isPodReady(await kube.getOrUndefined(`/api/v1/namespaces/${NS}/pods/fresh`)), WAIT)
    const logs = await kubectl(["logs", "-n", NS, "fresh", "-c", "app"])
    assert.equal(printedAddress(logs.stdout)?.address, fixtures.recording.nodes[0]!.ip, "fresh printed its node's address")
  })
})
