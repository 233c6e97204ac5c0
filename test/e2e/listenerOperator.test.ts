// The operator as users run it: real kubelets and containerd on two nodes (each a network
// and mount namespace of its own), kube-proxy, the operator's offline images, and our Helm
// chart installed with the real Helm (test/realnodes/operatorCluster.ts). Every check is
// what a user would look at: Pod logs, Listener status, PodListeners, a client reaching a
// published address and getting an answer from the right replica.
import assert from "node:assert/strict"
import { after, before, describe, test } from "node:test"
import { LISTENER_API_VERSION } from "../../domain/constants.ts"
import { createNamespace, eventually, isNotFound } from "../envtest/kubeClient.ts"
import type { KubeClient, KubeObject } from "../envtest/kubeClient.ts"
import type { PublishRequestShape } from "../../csi/publishRequestShape.ts"
import { REAL_KUBELET_PUBLISH_SHAPE } from "../envtest/kubeletPublishShape.ts"
import { isPodReady, readyPod as readyPodIn } from "../envtest/localCluster.ts"
import { httpGetBody } from "../realnodes/httpGet.ts"
import { OPERATOR_NAMESPACE, startOperatorCluster } from "../realnodes/operatorCluster.ts"
import type { OperatorCluster } from "../realnodes/operatorCluster.ts"
import type { RealNode } from "../realnodes/realCluster.ts"
import { applyL2Pool, ingressIps, METALLB_ANNOTATIONS } from "../clusteraddons/metallb.ts"
import { CLUSTER_DNS_IP, CLUSTER_DOMAIN } from "../clusteraddons/clusterDns.ts"
import { NODE_SUBNET_PREFIX } from "../realnodes/network.ts"
import { clientPod, ephemeralPod, fetchCommand, headlessService, listenerClass, printedAddress, statefulSet } from "./workloads.ts"

const log = process.env["E2E_LOG"] !== undefined ? (line: string) => console.error(line) : undefined
const NS = "e2e"
const NODES = ["node-a", "node-b"] as const
const WAIT = { timeoutMs: 240_000, intervalMs: 1000 }
const LISTENERS = `/apis/${LISTENER_API_VERSION}`
/**
 * The addresses of MetalLB's pool `e2e-lb` (first one, then the other): on the test
 * bridge's subnet, outside the cluster's default pool (.200-.239) and the nodes' addresses.
 */
const LB_ADDRESSES = [`${NODE_SUBNET_PREFIX}.240`, `${NODE_SUBNET_PREFIX}.241`] as const
/** The pool the e2e-lb class asks MetalLB for (its serviceAnnotations); it does not exist until test (g) makes it. */
const LB_POOL = "e2e-lb"

/** The address busybox `nslookup` printed for `name` (the `Address:` line after `Name: <name>`). */
const resolvedAddress = (output: string, name: string): string | undefined => {
  const answer = output.slice(Math.max(0, output.indexOf(`Name:\t${name}`)))
  if (!answer.startsWith("Name:")) return undefined
  return /^Address:\s+(\S+)$/mu.exec(answer)?.[1]
}

interface IngressAddress {
  readonly address: string
  readonly addressType: string
  readonly ports: Readonly<Record<string, number>>
}

describe("listener-operator on real kubelets, installed by its chart", { timeout: 1_800_000 }, () => {
  let operator: OperatorCluster
  let kube: KubeClient

  const kubectl = (args: ReadonlyArray<string>) => operator.cluster.plane.kubectl([...args])
  const node = (name: string): RealNode => {
    const found = operator.cluster.nodes.find((n) => n.name === name)
    assert.ok(found !== undefined, `no node ${name}`)
    return found
  }
  const pod = (name: string) => kube.get(`/api/v1/namespaces/${NS}/pods/${name}`)
  const readyPod = (name: string, notUid?: string) => readyPodIn(kube, NS, name, notUid, WAIT)
  const logsOf = async (name: string, container = "app"): Promise<string> => {
    const run = await kubectl(["logs", "-n", NS, name, "-c", container])
    assert.equal(run.code, 0, `kubectl logs ${name}: ${run.stderr}`)
    return run.stdout
  }
  const printed = (name: string) =>
    eventually(`${name} printed its listener address`, async () => printedAddress(await logsOf(name)), WAIT)
  /**
   * `kubectl exec`; retried while the kubelet does not know the Pod yet ("pod does not
   * exist": a Pod replaced under the same name reaches the kubelet after the API server).
   */
  const exec = async (name: string, command: ReadonlyArray<string>): Promise<string> => {
    const run = await eventually(`kubectl exec ${name} ${command.join(" ")}`, async () => {
      const attempt = await kubectl(["exec", "-n", NS, name, "--", ...command])
      return /pod does not exist|container not found/u.test(attempt.stderr) ? undefined : attempt
    }, { timeoutMs: 60_000, intervalMs: 1000 })
    assert.equal(run.code, 0, `kubectl exec ${name} ${command.join(" ")}: ${run.stderr}`)
    return run.stdout
  }
  const listener = (name: string) => kube.get(`${LISTENERS}/namespaces/${NS}/listeners/${name}`)
  const addressesOf = (l: KubeObject): ReadonlyArray<IngressAddress> => (l.status?.["ingressAddresses"] ?? []) as IngressAddress[]
  const nodeIp = (name: string) => node(name).ip
  // A Service answers once kube-proxy has synced its endpoints, shortly after the Pod is Ready.
  const fromHost = (address: string, port: number): Promise<string> =>
    eventually(`${address}:${port} answers from the host`, () => httpGetBody(address, port).catch(() => undefined), { timeoutMs: 60_000, intervalMs: 500 })
  const fromClientPod = (address: string, port: number) =>
    eventually(`${address}:${port} answers the client Pod`, async () => {
      const run = await kubectl(["exec", "-n", NS, "client", "--", ...fetchCommand(`http://${address}:${port}/`)])
      return run.code === 0 ? run.stdout.trim() : undefined
    }, { timeoutMs: 60_000, intervalMs: 500 })

  before(async () => {
    operator = await startOperatorCluster({ nodes: [...NODES], log })
    kube = operator.cluster.kube
    await createNamespace(kube, NS)
    await kube.create(`${LISTENERS}/listenerclasses`, listenerClass("e2e-pinned", { serviceType: "NodePort", pinnedNodePorts: true }))
    await kube.create(`${LISTENERS}/listenerclasses`, listenerClass("e2e-nodeport", { serviceType: "NodePort" }))
    await kube.create(`${LISTENERS}/listenerclasses`, listenerClass("e2e-lb", {
      serviceType: "LoadBalancer", preferredAddressType: "IP", serviceAnnotations: { [METALLB_ANNOTATIONS.addressPool]: LB_POOL }
    }))
    await kube.create(`${LISTENERS}/listenerclasses`, listenerClass("e2e-clusterip", { serviceType: "ClusterIP", preferredAddressType: "Hostname" }))
    // The StatefulSet's governing Service: per-Pod DNS names web-<i>.web.<ns>.svc.cluster.local.
    await kube.create(`/api/v1/namespaces/${NS}/services`, headlessService("web", NS))
    await kube.create(`/api/v1/namespaces/${NS}/pods`, clientPod("client", NS, "node-a"))
    await kube.create(`/apis/apps/v1/namespaces/${NS}/statefulsets`, statefulSet("web", NS, "e2e-pinned", 2))
  })

  after(async () => {
    await operator?.stop()
  })

  test("(a) each replica's log shows its own node's address and node port", async () => {
    for (const name of ["web-0", "web-1"]) {
      const p = await readyPod(name)
      const seen = await printed(name)
      const l = await listener(`listener-${name}`)
      const nodePort = (l.status?.["nodePorts"] as Record<string, number> | undefined)?.["http"]
      assert.equal(seen.address, nodeIp(p.spec.nodeName), `${name} runs on ${p.spec.nodeName}`)
      assert.equal(seen.port, nodePort, `${name} printed the Listener's node port`)
    }
    const nodesOfReplicas = new Set([(await pod("web-0")).spec.nodeName, (await pod("web-1")).spec.nodeName])
    assert.equal(nodesOfReplicas.size, 2, "one replica per node")
  })

  test("(b) a client Pod and a client on the host reach the right replica through every published address", async () => {
    await readyPod("client")
    for (const name of ["web-0", "web-1"]) {
      const p = await readyPod(name)
      const l = await eventually(`listener-${name} has addresses`, async () => {
        const current = await listener(`listener-${name}`)
        return addressesOf(current).length > 0 ? current : undefined
      }, WAIT)
      const podListeners = await kube.get(`${LISTENERS}/namespaces/${NS}/podlisteners/pod-${p.metadata.uid}`)
      const fromVolume = ((podListeners.spec?.["listeners"] as Record<string, { ingressAddresses: IngressAddress[] }>)["listener"])
      assert.ok(fromVolume !== undefined, `PodListeners of ${name} records the volume "listener"`)
      const targets = [...addressesOf(l), ...fromVolume.ingressAddresses]
      assert.ok(targets.length >= 2)
      for (const target of targets) {
        const port = target.ports["http"]
        assert.ok(port !== undefined, `address ${target.address} of ${name} has an http port`)
        assert.equal(await fromHost(target.address, port), name, `host → ${target.address}:${port} answers from ${name}`)
        assert.equal(await fromClientPod(target.address, port), name, `client Pod → ${target.address}:${port} answers from ${name}`)
      }
    }
  })

  test("the real kubelet sends the NodePublishVolume requests the kubelet stand-in sends", async () => {
    const shapes: PublishRequestShape[] = []
    for (const nodeName of NODES) {
      const plugin = await operator.nodePluginPod(nodeName)
      const run = await kubectl(["logs", "-n", OPERATOR_NAMESPACE, plugin.metadata.name!, "-c", "node"])
      for (const line of run.stdout.split("\n")) {
        if (!line.includes("NodePublishVolume request")) continue
        const record = JSON.parse(line) as { annotations?: { shape?: PublishRequestShape } }
        if (record.annotations?.shape !== undefined) shapes.push(record.annotations.shape)
      }
    }
    assert.ok(shapes.length >= 2, `recorded ${shapes.length} NodePublishVolume requests in the node plugins' debug logs`)
    const statefulSetShapes = shapes.filter((s) => s.volumeContextKeys.includes("listeners.stackable.tech/listener-class"))
    for (const shape of statefulSetShapes) {
      assert.deepEqual({ ...shape, targetPathPattern: shape.targetPathPattern.replace(/^\/var\/lib\/kubelet\//u, "<root>/") },
        REAL_KUBELET_PUBLISH_SHAPE)
    }
    // test/integration/csiDriver.test.ts asserts the same shape for the kubelet stand-in's requests.
  })

  test("(c) a deleted Pod comes back on the same node with the same address", async () => {
    const before0 = await readyPod("web-0")
    const seen = await printed("web-0")
    await kube.delete(`/api/v1/namespaces/${NS}/pods/web-0`)
    const after0 = await readyPod("web-0", before0.metadata.uid)
    assert.equal(after0.spec.nodeName, before0.spec.nodeName)
    assert.deepEqual(await printed("web-0"), seen)
    assert.equal(await fromHost(seen.address, seen.port), "web-0")
  })

  test("(d) a generic ephemeral volume's Listener disappears with its Pod", async () => {
    await kube.create(`/api/v1/namespaces/${NS}/pods`, ephemeralPod("eph", NS, "e2e-nodeport", "node-b"))
    await readyPod("eph")
    const seen = await printed("eph")
    assert.equal(seen.address, nodeIp("node-b"))
    const l = await listener("eph-listener")
    assert.equal(l.spec?.["className"], "e2e-nodeport")
    await kube.delete(`/api/v1/namespaces/${NS}/pods/eph`)
    await eventually("Listener eph-listener deleted", async () => {
      try {
        await listener("eph-listener")
        return false
      } catch (error) {
        if (isNotFound(error)) return true
        throw error
      }
    }, WAIT)
  })

  test("fsGroup: the kubelet gives the volume's files to the Pod's group (fsGroupPolicy File); a non-root container reads them", async () => {
    await kube.create(`/api/v1/namespaces/${NS}/pods`,
      ephemeralPod("grouped", NS, "e2e-nodeport", "node-a", { runAsUser: 1000, runAsGroup: 1000, fsGroup: 2000 }))
    await readyPod("grouped")
    assert.equal((await printed("grouped")).address, nodeIp("node-a"))
    const owners = await exec("grouped", ["sh", "-c", "stat -L -c '%g' /listener/default-address/address /listener/default-address/ports/http"])
    assert.deepEqual(owners.trim().split("\n"), ["2000", "2000"])
    assert.equal((await exec("grouped", ["id", "-u"])).trim(), "1000")
    await kube.delete(`/api/v1/namespaces/${NS}/pods/grouped`)
  })

  test("the normal first publish of a new Pod succeeds: no FailedMount Event (the node plugin waits for the controller)", async () => {
    // The StatefulSet's replicas (the first Listeners of a fresh cluster), the re-created
    // web-0 of (c), and the generic ephemeral Pods of (d) and fsGroup: each new Pod's first
    // NodePublishVolume found its Listener without addresses (the controller had not written
    // the node ports yet) and waited for them instead of failing into the kubelet's back-off.
    const pods = ["web-0", "web-1", "eph", "grouped"]
    const events = (await kube.list(`/api/v1/namespaces/${NS}/events`)).items
    const about = (name: string, reason: string) =>
      events.filter((e) => (e["involvedObject"] as { kind?: string; name?: string }).name === name && e["reason"] === reason)
    for (const name of pods) assert.ok(about(name, "Scheduled").length > 0, `Pod ${name}'s Events are recorded (Scheduled)`)
    const failedMounts = pods.flatMap((name) => about(name, "FailedMount").map((e) => `${name}: ${String(e["message"])} (×${String(e["count"] ?? 1)})`))
    if (failedMounts.length > 0) {
      // Why the controller did not catch up in time: what the controller and the node plugins logged about those Listeners.
      const listenerNames = pods.filter((name) => about(name, "FailedMount").length > 0).map((name) => name.startsWith("web-") ? `listener-${name}` : `${name}-listener`)
      const controller = (await kube.list(`/api/v1/namespaces/${OPERATOR_NAMESPACE}/pods`, { labelSelector: "app.kubernetes.io/component=controller" })).items
      const sources = [
        ...controller.map((p) => ["controller", p.metadata.name!] as const),
        ...(await Promise.all(NODES.map((n) => operator.nodePluginPod(n)))).map((p) => ["node", p.metadata.name!] as const)
      ]
      const lines: string[] = []
      for (const [container, podName] of sources) {
        const run = await kubectl(["logs", "-n", OPERATOR_NAMESPACE, podName, "-c", container, "--timestamps"])
        lines.push(...run.stdout.split("\n").filter((line) => listenerNames.some((l) => line.includes(l)) || /lease|leader|watch|backing off|restart/iu.test(line)).map((line) => `${podName}: ${line.slice(0, 400)}`))
      }
      assert.deepEqual(failedMounts, [], `no first publish failed; the operator's log lines about them:\n${lines.slice(-80).join("\n")}`)
    }
    assert.deepEqual(failedMounts, [], "no first publish failed")
  })

  test("(e) restarting the node plugin Pod loses nothing and the next publish works", async () => {
    const web1 = await readyPod("web-1")
    const nodeName = web1.spec.nodeName as string
    const before1 = await exec("web-1", ["cat", "/listener/default-address/address"])
    const plugin = await operator.nodePluginPod(nodeName)
    await kube.delete(`/api/v1/namespaces/${OPERATOR_NAMESPACE}/pods/${plugin.metadata.name}`)
    const replacement = await eventually("a new node plugin Pod", async () => {
      const next = await operator.nodePluginPod(nodeName)
      return next.metadata.uid !== plugin.metadata.uid ? next : undefined
    }, WAIT)
    assert.notEqual(replacement.metadata.uid, plugin.metadata.uid)
    assert.equal(await exec("web-1", ["cat", "/listener/default-address/address"]), before1, "running workload keeps its volume")
    await kube.create(`/api/v1/namespaces/${NS}/pods`, ephemeralPod("after-plugin-restart", NS, "e2e-nodeport", nodeName))
    await readyPod("after-plugin-restart")
    assert.equal((await printed("after-plugin-restart")).address, nodeIp(nodeName))
    await kube.delete(`/api/v1/namespaces/${NS}/pods/after-plugin-restart`)
  })

  test("(f) restarting a kubelet keeps running Pods' volumes; unpublishing still works after", async () => {
    const web0 = await readyPod("web-0")
    const nodeName = web0.spec.nodeName as string
    const containerId = (web0.status?.containerStatuses as Array<{ containerID: string }>)[0]!.containerID
    const expected = await exec("web-0", ["cat", "/listener/default-address/address"])
    await node(nodeName).restartKubelet()
    await eventually(`Node ${nodeName} Ready again`, async () => {
      const n = await kube.get(`/api/v1/nodes/${nodeName}`)
      return ((n.status?.conditions ?? []) as Array<{ type: string; status: string }>).some((c) => c.type === "Ready" && c.status === "True")
    }, WAIT)
    assert.equal(await exec("web-0", ["cat", "/listener/default-address/address"]), expected)
    const still = await pod("web-0")
    assert.equal((still.status?.containerStatuses as Array<{ containerID: string }>)[0]!.containerID, containerId, "container not restarted")
    const uid = web0.metadata.uid as string
    await kube.delete(`/api/v1/namespaces/${NS}/pods/web-0`)
    await readyPod("web-0", uid)
    // The kubelet removes an orphaned Pod directory only once every volume in it is
    // unpublished (else it logs "volume paths are still present on disk"); so the whole
    // directory going proves NodeUnpublishVolume worked after the restart.
    await eventually(`the old Pod's directory /var/lib/kubelet/pods/${uid} is gone`, async () => {
      const listing = await node(nodeName).exec(["sh", "-c", `ls -A /var/lib/kubelet/pods/${uid} 2>/dev/null || true`])
      return listing.stdout.trim() === ""
    }, WAIT)
  })

  test("(g) a LoadBalancer listener waits with an explaining Event until MetalLB has an address for it, then starts with it; the address answers from the host over L2; a pool change reaches the running Pod in place", async () => {
    await kube.create(`/api/v1/namespaces/${NS}/pods`, ephemeralPod("lb", NS, "e2e-lb", "node-a"))
    const waiting = await eventually("a FailedMount Event on Pod lb", async () => {
      const events = await kube.list(`/api/v1/namespaces/${NS}/events`, { fieldSelector: "involvedObject.name=lb" })
      return events.items.find((e) => e["reason"] === "FailedMount")
    }, WAIT)
    assert.match(String(waiting["message"]), /load.?balancer|address/iu, "the Event says what is missing")
    assert.equal(isPodReady(await pod("lb")), false)
    const servicePath = `/api/v1/namespaces/${NS}/services/lb-listener`
    const service = await kube.get(servicePath)
    assert.equal(service.metadata.annotations?.[METALLB_ANNOTATIONS.addressPool], LB_POOL, "the class's serviceAnnotations ask MetalLB for the pool")
    assert.deepEqual(ingressIps(service), [], "MetalLB has no pool e2e-lb yet: no address")

    // The administrator gives MetalLB the pool: MetalLB assigns its address, the Pod starts with it.
    await applyL2Pool(operator.cluster.plane, LB_POOL, [`${LB_ADDRESSES[0]}/32`], { autoAssign: false })
    await readyPod("lb")
    const first = await printed("lb")
    assert.equal(first.address, LB_ADDRESSES[0])
    const assigned = await kube.get(servicePath)
    assert.deepEqual(ingressIps(assigned), [LB_ADDRESSES[0]])
    const statusWriters = ((assigned.metadata["managedFields"] ?? []) as Array<{ manager: string; subresource?: string }>)
      .filter((f) => f.subresource === "status").map((f) => f.manager)
    assert.deepEqual(statusWriters, ["controller"], "only MetalLB's controller wrote the Service's status")
    // Through MetalLB: the host ARPs for the address on the test bridge, a node's speaker answers, kube-proxy forwards.
    assert.equal(await fromHost(LB_ADDRESSES[0], first.port), "lb", `host → ${LB_ADDRESSES[0]}:${first.port} answers from lb`)
    assert.equal(await fromClientPod(LB_ADDRESSES[0], first.port), "lb")

    // The pool changes while the Pod runs: MetalLB moves the Service to the new address, the
    // node plugin's live refresh swaps the tree inside the mounted directory, and the running
    // container (a bind mount of the target) sees the new one — no restart of the Pod or the kubelet.
    const uid = (await pod("lb")).metadata.uid
    await applyL2Pool(operator.cluster.plane, LB_POOL, [`${LB_ADDRESSES[1]}/32`], { autoAssign: false })
    await eventually("Listener lb-listener reports the new address", async () =>
      addressesOf(await listener("lb-listener")).some((a) => a.address === LB_ADDRESSES[1]), WAIT)
    const seenNow = await eventually("the running lb container sees the new address", async () => {
      const out = await kubectl(["exec", "-n", NS, "lb", "--", "cat", "/listener/default-address/address"])
      return out.code === 0 && out.stdout === LB_ADDRESSES[1] ? out.stdout : undefined
    }, WAIT)
    assert.equal(seenNow, LB_ADDRESSES[1])
    assert.equal(await exec("lb", ["ls", `/listener/addresses/${LB_ADDRESSES[1]}/ports`]), "http\n")
    assert.equal(await fromHost(LB_ADDRESSES[1], first.port), "lb", `host → ${LB_ADDRESSES[1]}:${first.port} answers from lb`)
    assert.equal((await pod("lb")).metadata.uid, uid, "the same Pod, never restarted")
    assert.equal(((await pod("lb")).status?.["containerStatuses"] as Array<{ restartCount: number }>)[0]!.restartCount, 0)
  })

  test("(h) cluster DNS: a ClusterIP Listener's Hostname address, read from its volume, resolves and answers in a client Pod", async () => {
    await kube.create(`/api/v1/namespaces/${NS}/pods`, ephemeralPod("named", NS, "e2e-clusterip", "node-b"))
    await readyPod("named")
    const seen = await printed("named")
    const hostname = `named-listener.${NS}.svc.${CLUSTER_DOMAIN}`
    assert.equal(seen.address, hostname, "the volume holds the Service's cluster DNS name")
    const status = addressesOf(await listener("named-listener"))
    assert.deepEqual(status.map((a) => [a.address, a.addressType, a.ports["http"]]), [[hostname, "Hostname", seen.port]])
    const clusterIp = String((await kube.get(`/api/v1/namespaces/${NS}/services/named-listener`)).spec?.clusterIP)
    const lookup = await exec("client", ["nslookup", hostname])
    assert.match(lookup, new RegExp(`Server:\\s+${CLUSTER_DNS_IP.replaceAll(".", "\\.")}`, "u"), "the client Pod asks the cluster DNS")
    assert.equal(resolvedAddress(lookup, hostname), clusterIp, `${hostname} resolves to the Service's cluster IP`)
    assert.equal(await fromClientPod(hostname, seen.port), "named", `client Pod → http://${hostname}:${seen.port}/ answers from named`)
    // The short forms a Pod's search path completes.
    assert.equal(await fromClientPod(`named-listener.${NS}`, seen.port), "named")
    await kube.delete(`/api/v1/namespaces/${NS}/pods/named`)
  })

  test("(h) cluster DNS: each StatefulSet replica's per-Pod name under its headless Service resolves to that Pod and answers from it", async () => {
    for (const name of ["web-0", "web-1"]) {
      const p = await readyPod(name)
      const fqdn = `${name}.web.${NS}.svc.${CLUSTER_DOMAIN}`
      const lookup = await eventually(`${fqdn} resolves`, async () => {
        const run = await kubectl(["exec", "-n", NS, "client", "--", "nslookup", fqdn])
        return run.code === 0 && resolvedAddress(run.stdout, fqdn) !== undefined ? run.stdout : undefined
      }, { timeoutMs: 60_000, intervalMs: 1000 })
      assert.equal(resolvedAddress(lookup, fqdn), p.status?.podIP, `${fqdn} is ${name}'s Pod IP`)
      assert.equal(await fromClientPod(fqdn, 8080), name, `client Pod → http://${fqdn}:8080/ answers from ${name}`)
      // From inside a replica, as a clustered system finds its peers: the short name via the search path.
      const other = name === "web-0" ? "web-1" : "web-0"
      assert.equal((await exec(name, fetchCommand(`http://${other}.web:8080/`))).trim(), other)
    }
  })

})
