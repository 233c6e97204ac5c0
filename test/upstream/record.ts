/**
 * Records what the upstream listener-operator leaves behind, as the fixtures of the
 * takeover test (test/e2e/fixtures/upstream/, docs/migration.md "Recording the fixtures").
 *
 *   flock /tmp/lo-suite.lock node --import tsx test/upstream/record.ts \
 *     --operator <path to the upstream stackable-listener-operator binary> \
 *     [--source "<where the binary came from, e.g. repository and commit>"] [--out <dir>]
 *
 * On the real-node cluster (test/realnodes/) it runs the upstream binary as its chart
 * would: the controller (CSI controller service, Listener controller, CRD maintenance)
 * as a host process in node-a's network namespace, our csi-provisioner binary beside it,
 * and per node the node plugin inside that node's mount + network namespaces with its CSI
 * socket under /var/lib/kubelet/plugins/<driver>/, registered with the kubelet by
 * registrar.ts. Then it runs the workloads of scenario.ts and writes the objects the
 * upstream operator made (with their managedFields) and the volume trees it wrote on
 * each node. Nothing it writes contains upstream code: only objects and files observed.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { parseArgs } from "node:util"
import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { CSI_DRIVER_NAME, LISTENER_API_VERSION, STORAGE_CLASS_NAME } from "../../domain/constants.ts"
import { binDir, binary } from "../envtest/binDir.ts"
import { createNamespace, eventually } from "../envtest/kubeClient.ts"
import type { KubeClient, KubeObject } from "../envtest/kubeClient.ts"
import { isPodReady } from "../envtest/localCluster.ts"
import { spawnTracked } from "../envtest/processes.ts"
import type { TrackedProcess } from "../envtest/processes.ts"
import { buildImages } from "../images/build.ts"
import { startRealCluster } from "../realnodes/realCluster.ts"
import type { RealCluster, RealNode } from "../realnodes/realCluster.ts"
import { registrarCommand } from "./registrar.ts"
import {
  LB_SERVICE,
  scenarioClasses,
  scenarioWorkloads,
  sharedListener,
  UPSTREAM_LB_ADDRESS,
  UPSTREAM_NODES,
  UPSTREAM_NS,
  UPSTREAM_OPERATOR_NAMESPACE,
  UPSTREAM_OPERATOR_SERVICE
} from "./scenario.ts"
import { readVolumeTree } from "./volumeTree.ts"
import { FIXTURES_DIR } from "./fixtures.ts"

const WAIT = { timeoutMs: 240_000, intervalMs: 1000 }
const LISTENERS = `/apis/${LISTENER_API_VERSION}`
/** The CSI socket as the kubelet (and the node plugin, in the node's namespaces) sees it. */
const NODE_CSI_SOCKET = `/var/lib/kubelet/plugins/${CSI_DRIVER_NAME}/csi.sock`
export { FIXTURES_DIR } from "./fixtures.ts"

const log = (line: string) => process.stderr.write(`[record] ${line}\n`)

/** The upstream chart's CSIDriver and StorageClass (templates/csidriver.yaml, storageclass.yaml), as Helm creates them. */
const chartObjects = [
  ["/apis/storage.k8s.io/v1/csidrivers", {
    apiVersion: "storage.k8s.io/v1",
    kind: "CSIDriver",
    metadata: { name: CSI_DRIVER_NAME },
    spec: { attachRequired: false, podInfoOnMount: true, fsGroupPolicy: "File", volumeLifecycleModes: ["Ephemeral", "Persistent"] }
  }],
  ["/apis/storage.k8s.io/v1/storageclasses", {
    apiVersion: "storage.k8s.io/v1",
    kind: "StorageClass",
    metadata: { name: STORAGE_CLASS_NAME },
    provisioner: CSI_DRIVER_NAME,
    volumeBindingMode: "WaitForFirstConsumer"
  }]
] as const

/** The environment the upstream chart gives both containers (templates/*.yaml). */
const upstreamEnv = (kubeconfig: string, csiEndpoint: string, nodeName: string): NodeJS.ProcessEnv => ({
  ...process.env,
  KUBECONFIG: kubeconfig,
  CSI_ENDPOINT: csiEndpoint,
  OPERATOR_NAMESPACE: UPSTREAM_OPERATOR_NAMESPACE,
  OPERATOR_SERVICE_NAME: UPSTREAM_OPERATOR_SERVICE,
  IMAGE_REPOSITORY: "oci.stackable.tech/sdp",
  KUBERNETES_NODE_NAME: nodeName,
  // Set, so that it does not ask a kubelet for it (the chart leaves it unset by default).
  KUBERNETES_CLUSTER_DOMAIN: "cluster.local",
  // No end-of-support nagging in a recording.
  EOS_DISABLED: "true",
  CONSOLE_LOG_LEVEL: "debug"
})

const workloadPath = (o: { kind: string; metadata: { namespace?: string } }): string =>
  o.kind === "Pod" ? `/api/v1/namespaces/${o.metadata.namespace}/pods` : `/apis/apps/v1/namespaces/${o.metadata.namespace}/statefulsets`

interface Running {
  readonly processes: TrackedProcess[]
  readonly workDir: string
}

const startUpstream = async (cluster: RealCluster, operatorBinary: string, running: Running): Promise<void> => {
  const kube = cluster.kube
  await createNamespace(kube, UPSTREAM_OPERATOR_NAMESPACE)
  for (const [path, body] of chartObjects) await kube.create(path, body, { fieldManager: "helm" })
  const controllerKubeconfig = await cluster.plane.clientKubeconfig("upstream-controller", ["system:masters"])
  const nodeKubeconfig = await cluster.plane.clientKubeconfig("upstream-node", ["system:masters"])
  const nodeA = cluster.nodes[0]!
  // The controller in node-a's network namespace: its webhook server binds 0.0.0.0:8443, which
  // must not collide with anything on the host; the API server is reachable on the bridge.
  const controllerSocket = join(running.workDir, "controller.sock")
  running.processes.push(spawnTracked({
    name: "upstream/controller",
    command: "nsenter",
    args: [`--net=${nodeA.namespaces.net}`, "--", operatorBinary, "run", "controller"],
    env: { ...upstreamEnv(controllerKubeconfig, controllerSocket, nodeA.name), LISTENER_CLASS_PRESET: "ephemeral-nodes" },
    logPath: join(running.workDir, "controller.log")
  }))
  await eventually("the upstream CRDs established and its preset ListenerClasses", async () => {
    const classes = await kube.getOrUndefined<{ items: KubeObject[] }>(`${LISTENERS}/listenerclasses`)
    return classes !== undefined && classes.items.length >= 3
  }, WAIT)
  running.processes.push(spawnTracked({
    name: "upstream/csi-provisioner",
    command: binary("csi-provisioner", binDir()),
    args: [`--csi-address=${controllerSocket}`, `--kubeconfig=${controllerKubeconfig}`, "--feature-gates=Topology=true", "--extra-create-metadata", "--leader-election=false", "--v=3"],
    logPath: join(running.workDir, "csi-provisioner.log")
  }))
  for (const node of cluster.nodes) {
    mkdirSync(join(node.kubeletRootDir, "plugins", CSI_DRIVER_NAME), { recursive: true })
    running.processes.push(node.spawn("upstream-node", operatorBinary, ["run", "node"], upstreamEnv(nodeKubeconfig, NODE_CSI_SOCKET, node.name)))
    const registrar = registrarCommand({ registrationDir: "/var/lib/kubelet/plugins_registry", csiEndpoint: NODE_CSI_SOCKET, driverName: CSI_DRIVER_NAME })
    running.processes.push(node.spawn("registrar", registrar.command, registrar.args))
  }
  for (const node of cluster.nodes) {
    await eventually(`CSINode ${node.name} lists ${CSI_DRIVER_NAME}`, async () => {
      const csiNode = await kube.getOrUndefined(`/apis/storage.k8s.io/v1/csinodes/${node.name}`)
      return ((csiNode?.spec?.drivers ?? []) as Array<{ name: string }>).some((d) => d.name === CSI_DRIVER_NAME)
    }, WAIT)
  }
  log("upstream controller, csi-provisioner and node plugins running and registered")
}

const runScenario = async (kube: KubeClient): Promise<void> => {
  await createNamespace(kube, UPSTREAM_NS)
  for (const c of scenarioClasses) await kube.create(`${LISTENERS}/listenerclasses`, c)
  await kube.create(`${LISTENERS}/namespaces/${UPSTREAM_NS}/listeners`, sharedListener)
  for (const w of scenarioWorkloads) await kube.create(workloadPath(w), w)
  // The LoadBalancer replica waits for an address: give its Service one, as a cloud would.
  const lbService = `/api/v1/namespaces/${UPSTREAM_NS}/services/${LB_SERVICE}`
  await eventually(`Service ${LB_SERVICE}`, () => kube.getOrUndefined(lbService), WAIT)
  await kube.patch(`${lbService}/status`, { status: { loadBalancer: { ingress: [{ ip: UPSTREAM_LB_ADDRESS }] } } }, "merge")
  const expected = ["pinned-0", "pinned-1", "shared-0", "shared-1", "lb-0", "eph", "internal"]
  for (const name of expected) {
    await eventually(`Pod ${name} ready`, async () => {
      const pod = await kube.getOrUndefined(`/api/v1/namespaces/${UPSTREAM_NS}/pods/${name}`)
      return pod !== undefined && isPodReady(pod)
    }, WAIT)
  }
  // Let the controller finish reacting to the Pods (Endpoints, PV labels) before recording.
  await new Promise((r) => setTimeout(r, 10_000))
}

/** The items of a list, each with its apiVersion and kind (a list of built-in objects leaves them out). */
const itemsOf = async (kube: KubeClient, path: string): Promise<KubeObject[]> => {
  const list = await kube.list(path)
  const kind = String((list as { kind?: string }).kind ?? "").replace(/List$/u, "")
  const apiVersion = String((list as { apiVersion?: string }).apiVersion ?? "")
  return list.items.map((item) => ({ apiVersion, kind, ...item }))
}

/** The observed objects, keyed by fixture file name. */
const recordObjects = async (kube: KubeClient): Promise<Record<string, unknown>> => {
  const crds = (await itemsOf(kube, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"))
    .filter((c) => String(c.metadata.name).endsWith(".listeners.stackable.tech"))
  const pvs = (await itemsOf(kube, "/api/v1/persistentvolumes")).filter((pv) => pv.spec?.["storageClassName"] === STORAGE_CLASS_NAME)
  return {
    "crds.json": crds,
    "listenerclasses.json": await itemsOf(kube, `${LISTENERS}/listenerclasses`),
    "listeners.json": await itemsOf(kube, `${LISTENERS}/namespaces/${UPSTREAM_NS}/listeners`),
    "podlisteners.json": await itemsOf(kube, `${LISTENERS}/namespaces/${UPSTREAM_NS}/podlisteners`),
    "services.json": await itemsOf(kube, `/api/v1/namespaces/${UPSTREAM_NS}/services`),
    "endpoints.json": await itemsOf(kube, `/api/v1/namespaces/${UPSTREAM_NS}/endpoints`),
    "persistentvolumes.json": pvs,
    "persistentvolumeclaims.json": await itemsOf(kube, `/api/v1/namespaces/${UPSTREAM_NS}/persistentvolumeclaims`),
    "pods.json": await itemsOf(kube, `/api/v1/namespaces/${UPSTREAM_NS}/pods`),
    "statefulsets.json": await itemsOf(kube, `/apis/apps/v1/namespaces/${UPSTREAM_NS}/statefulsets`),
    "events.json": (await itemsOf(kube, `/api/v1/namespaces/${UPSTREAM_NS}/events`))
      .filter((e) => String(e["reportingComponent"] ?? (e as { source?: { component?: string } }).source?.component ?? "").includes("listener")),
    "nodes.json": (await itemsOf(kube, "/api/v1/nodes")).map((n) => ({ name: n.metadata.name, labels: n.metadata.labels, addresses: n.status?.["addresses"] })),
    "csinodes.json": await itemsOf(kube, "/apis/storage.k8s.io/v1/csinodes"),
    "csidriver.json": await kube.get(`/apis/storage.k8s.io/v1/csidrivers/${CSI_DRIVER_NAME}`),
    "storageclass.json": await kube.get(`/apis/storage.k8s.io/v1/storageclasses/${STORAGE_CLASS_NAME}`)
  }
}

/** Every listener volume's tree as the upstream node plugin wrote it, per node and Pod. */
const recordTrees = async (kube: KubeClient, nodes: ReadonlyArray<RealNode>): Promise<unknown[]> => {
  const pods = await itemsOf(kube, `/api/v1/namespaces/${UPSTREAM_NS}/pods`)
  const pvs = await itemsOf(kube, "/api/v1/persistentvolumes")
  const trees: unknown[] = []
  for (const pod of pods) {
    const node = nodes.find((n) => n.name === pod.spec?.["nodeName"])
    if (node === undefined) continue
    for (const volume of (pod.spec?.["volumes"] ?? []) as Array<{ name: string; persistentVolumeClaim?: { claimName: string }; ephemeral?: unknown }>) {
      const claim = volume.persistentVolumeClaim?.claimName ?? (volume.ephemeral !== undefined ? `${pod.metadata.name}-${volume.name}` : undefined)
      if (claim === undefined) continue
      const pv = pvs.find((p) => (p.spec?.["claimRef"] as { name?: string; namespace?: string } | undefined)?.name === claim &&
        (p.spec?.["claimRef"] as { namespace?: string }).namespace === UPSTREAM_NS)
      if (pv === undefined) continue
      const relative = join("pods", String(pod.metadata.uid), "volumes", "kubernetes.io~csi", String(pv.metadata.name), "mount")
      trees.push({
        node: node.name,
        pod: pod.metadata.name,
        podUid: pod.metadata.uid,
        volume: volume.name,
        persistentVolume: pv.metadata.name,
        /** As the node sees it; the target path the kubelet gave NodePublishVolume. */
        targetPath: join("/var/lib/kubelet", relative),
        tree: readVolumeTree(join(node.kubeletRootDir, relative))
      })
    }
  }
  return trees
}

const main = async (): Promise<void> => {
  const { values } = parseArgs({ options: { operator: { type: "string" }, source: { type: "string" }, out: { type: "string" } } })
  if (values.operator === undefined) {
    process.stderr.write("usage: record.ts --operator <upstream stackable-listener-operator binary> [--source <text>] [--out <dir>]\n")
    process.exit(2)
  }
  const operatorBinary = resolve(values.operator)
  const out = resolve(values.out ?? FIXTURES_DIR)
  const version = (await promisify(execFile)(operatorBinary, ["--version"])).stdout.trim()
  const images = await buildImages({ only: ["pause", "busybox"] })
  // No add-ons: the recording gives its LoadBalancer Service its address by hand (UPSTREAM_LB_ADDRESS), which MetalLB would take back.
  const cluster = await startRealCluster({ nodes: [...UPSTREAM_NODES], images: images.map((i) => i.path), addons: false, log: process.env["RECORD_LOG"] !== undefined ? log : undefined })
  const running: Running = { processes: [], workDir: mkdtempSync(join(tmpdir(), "lo-upstream-record-")) }
  let failed = false
  try {
    await startUpstream(cluster, operatorBinary, running)
    await runScenario(cluster.kube)
    const objects = await recordObjects(cluster.kube)
    const trees = await recordTrees(cluster.kube, cluster.nodes)
    const crdPrint = (await promisify(execFile)(operatorBinary, ["crd"], { maxBuffer: 16 * 1024 * 1024 })).stdout
    mkdirSync(out, { recursive: true })
    for (const [file, content] of Object.entries(objects)) writeFileSync(join(out, file), `${JSON.stringify(content, null, 2)}\n`)
    writeFileSync(join(out, "volume-trees.json"), `${JSON.stringify(trees, null, 2)}\n`)
    writeFileSync(join(out, "crd-print.yaml"), crdPrint)
    writeFileSync(join(out, "recording.json"), `${JSON.stringify({
      operatorVersion: version,
      source: values.source ?? "(not given)",
      recordedAt: new Date().toISOString(),
      nodes: cluster.nodes.map((n) => ({ name: n.name, ip: n.ip })),
      namespace: UPSTREAM_NS,
      loadBalancerAddress: UPSTREAM_LB_ADDRESS
    }, null, 2)}\n`)
    log(`wrote ${Object.keys(objects).length + 3} files to ${out}`)
  } catch (error) {
    for (const p of running.processes) log(`--- ${p.name}:\n${p.logTail(40)}`)
    failed = true
    throw error
  } finally {
    for (const p of [...running.processes].reverse()) await p.stop(3000)
    await cluster.stop()
    if (failed) log(`logs kept in ${running.workDir}`)
    else rmSync(running.workDir, { recursive: true, force: true })
  }
}

if (process.argv[1] === import.meta.filename) await main()
