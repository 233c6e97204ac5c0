// The real-node cluster itself (test/realnodes), before any operator runs on it: two
// kubelets with containerd in their own namespaces become Ready Nodes, Pods run on each,
// kube-proxy serves NodePorts and ClusterIPs across nodes, Pods reach the API server
// through the `kubernetes` Service, `kubectl logs` works, and a kubelet restart leaves
// running containers alone. Then nothing of the run is left on the machine.
import assert from "node:assert/strict"
import { after, before, describe, test } from "node:test"
import { createNamespace, eventually } from "../envtest/kubeClient.ts"
import { buildImages, BUSYBOX_REF } from "../images/build.ts"
import { readyPod } from "../envtest/localCluster.ts"
import { httpGetBody } from "../realnodes/httpGet.ts"
import { startRealCluster } from "../realnodes/realCluster.ts"
import type { RealCluster } from "../realnodes/realCluster.ts"
import { leftovers } from "../realnodes/runs.ts"
import { fetchCommand } from "./workloads.ts"

const log = process.env["E2E_LOG"] !== undefined ? (line: string) => console.error(line) : undefined
const NS = "smoke"
const WAIT = { timeoutMs: 120_000, intervalMs: 500 }

const server = (name: string, node: string) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name, namespace: NS, labels: { app: name } },
  spec: {
    nodeName: node,
    terminationGracePeriodSeconds: 1,
    containers: [{
      name: "app",
      image: BUSYBOX_REF,
      imagePullPolicy: "Never",
      command: ["sh", "-c", `echo "serving ${name} on ${node}"; mkdir -p /tmp/www; echo ${name} > /tmp/www/index.html; exec httpd -f -p 8080 -h /tmp/www`],
      ports: [{ name: "http", containerPort: 8080 }]
    }]
  }
})

const nodePortService = (name: string) => ({
  apiVersion: "v1",
  kind: "Service",
  metadata: { name, namespace: NS },
  spec: { type: "NodePort", selector: { app: name }, ports: [{ name: "http", port: 80, targetPort: 8080 }] }
})

describe("real nodes: kubelet, containerd, CNI and kube-proxy on this machine", { timeout: 600_000 }, () => {
  let cluster: RealCluster
  const ready = (name: string) => readyPod(cluster.kube, NS, name, undefined, WAIT)
  const exec = async (pod: string, command: string[]) => {
    const run = await cluster.plane.kubectl(["exec", "-n", NS, pod, "--", ...command])
    assert.equal(run.code, 0, `exec ${command.join(" ")} in ${pod}: ${run.stderr}`)
    return run.stdout.trim()
  }
  const nodePortOf = async (service: string) =>
    ((await cluster.kube.get(`/api/v1/namespaces/${NS}/services/${service}`)).spec.ports as Array<{ nodePort: number }>)[0]!.nodePort

  before(async () => {
    const images = await buildImages({ only: ["pause", "busybox"] })
    cluster = await startRealCluster({ nodes: ["node-a", "node-b"], images: images.map((i) => i.path), log })
    await createNamespace(cluster.kube, NS)
    for (const [name, node] of [["web-a", "node-a"], ["web-b", "node-b"]] as const) {
      await cluster.kube.create(`/api/v1/namespaces/${NS}/pods`, server(name, node))
      await cluster.kube.create(`/api/v1/namespaces/${NS}/services`, nodePortService(name))
    }
    await cluster.kube.create(`/api/v1/namespaces/${NS}/pods`, {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "client", namespace: NS },
      spec: {
        nodeName: "node-a",
        terminationGracePeriodSeconds: 1,
        containers: [{ name: "client", image: BUSYBOX_REF, imagePullPolicy: "Never", command: ["sleep", "3600"] }]
      }
    })
  })

  after(async () => {
    await cluster?.stop()
  })

  test("both Nodes are Ready with their own InternalIP on the test bridge", async () => {
    for (const node of cluster.nodes) {
      const live = await cluster.kube.get(`/api/v1/nodes/${node.name}`)
      const addresses = live.status?.addresses as Array<{ type: string; address: string }>
      assert.deepEqual(addresses.find((a) => a.type === "InternalIP")?.address, node.ip)
      assert.notEqual(node.ip, cluster.hostIp)
    }
  })

  test("a Pod runs on each node and its log is readable with kubectl logs", async () => {
    for (const [name, node] of [["web-a", "node-a"], ["web-b", "node-b"]] as const) {
      const pod = await ready(name)
      assert.equal(pod.spec.nodeName, node)
      const logs = await cluster.plane.kubectl(["logs", "-n", NS, name])
      assert.equal(logs.stdout.trim(), `serving ${name} on ${node}`)
    }
  })

  test("from the host, each node's address and NodePort reaches the right Pod", async () => {
    await ready("web-a")
    await ready("web-b")
    for (const name of ["web-a", "web-b"]) {
      const port = await nodePortOf(name)
      for (const node of cluster.nodes) {
        assert.equal(await eventually(`${node.ip}:${port}`, () => httpGetBody(node.ip, port).catch(() => undefined), WAIT), name)
      }
    }
  })

  test("a client Pod on node-a reaches node-b's Pod through node-b's NodePort and through the ClusterIP", async () => {
    await ready("client")
    const nodeB = cluster.nodes.find((n) => n.name === "node-b")!
    const port = await nodePortOf("web-b")
    assert.equal(await exec("client", fetchCommand(`http://${nodeB.ip}:${port}/`)), "web-b")
    const clusterIp = (await cluster.kube.get(`/api/v1/namespaces/${NS}/services/web-b`)).spec.clusterIP as string
    assert.equal(await exec("client", fetchCommand(`http://${clusterIp}/`)), "web-b")
  })

  test("a Pod reaches the API server through the kubernetes Service", async () => {
    await ready("client")
    const host = await exec("client", ["sh", "-c", "echo $KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT"])
    assert.equal(host, "10.0.0.1:443")
    // kube-proxy DNATs the Service port to the API server on the host side of the bridge;
    // a port the Service does not have is not routed anywhere (nodes have no default route).
    const connect = (port: number) => exec("client", ["sh", "-c", `nc -w 3 10.0.0.1 ${port} </dev/null >/dev/null 2>&1; echo $?`])
    assert.equal(await connect(443), "0")
    assert.notEqual(await connect(444), "0")
  })

  test("restarting a kubelet leaves its running containers alone", async () => {
    const before = await ready("web-a")
    const id = (before.status?.containerStatuses as Array<{ containerID: string }>)[0]!.containerID
    await cluster.nodes.find((n) => n.name === "node-a")!.restartKubelet()
    const after = await ready("web-a")
    const status = (after.status?.containerStatuses as Array<{ containerID: string; restartCount: number }>)[0]!
    assert.equal(status.containerID, id)
    assert.equal(status.restartCount, 0)
    assert.equal(await httpGetBody(cluster.nodes[0]!.ip, await nodePortOf("web-a")), "web-a")
  })

  test("stopping the cluster leaves no process, mount, namespace, interface, rule or cgroup behind", async () => {
    await cluster.stop()
    assert.deepEqual(leftovers(), [])
  })
})
