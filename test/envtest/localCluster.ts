/**
 * A whole local cluster for the demo and the end-to-end tests: the real control plane
 * (kube-apiserver, etcd, controller manager, scheduler), the CRDs, the StorageClass and
 * CSIDriver, fake Nodes with the node plugin registered on each, our two roles running in
 * this process (composed exactly as `run controller` / `run node` compose them), the real
 * csi-provisioner sidecar, and a kubelet stand-in per node publishing volumes over the
 * node plugins' real sockets.
 */
import { mkdtemp, mkdir, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { appendFileSync } from "node:fs"
import { Effect, Exit, Layer, Logger, Scope } from "effect"
import { KubeApiHttp } from "../../adapters/KubeApiHttp.ts"
import { CSI_DRIVER_NAME } from "../../domain/constants.ts"
import type { ListenerClassPreset } from "../../domain/constants.ts"
import { listenerCsiDriver, listenerStorageClass } from "../../k8s/deploy/storage.ts"
import { Readiness } from "../../k8s/operability/probes.ts"
import { controllerRoleLayer } from "../../k8s/composition/controllerRoleLayer.ts"
import { nodeRoleLayer } from "../../k8s/composition/nodeRoleLayer.ts"
import { binary } from "./binDir.ts"
import { startControlPlane } from "./controlPlane.ts"
import type { ControlPlane } from "./controlPlane.ts"
import { createFakeNode, registerPlugin } from "./fakeNodes.ts"
import type { NodeAddress } from "./fakeNodes.ts"
import { startKubelet } from "./kubelet.ts"
import type { Kubelet } from "./kubelet.ts"
import { eventually } from "./kubeClient.ts"
import type { KubeClient, KubeObject } from "./kubeClient.ts"
import { createListenerCrds } from "./listenerCrds.ts"
import { spawnTracked } from "./processes.ts"
import type { TrackedProcess } from "./processes.ts"

export interface LocalClusterOptions {
  /** Node name → its addresses (status only: nothing ever dials them). */
  readonly nodes: Readonly<Record<string, ReadonlyArray<NodeAddress>>>
  /** ListenerClasses the controller creates at start. */
  readonly preset: ListenerClassPreset
  readonly log?: ((line: string) => void) | undefined
  /** Where our roles log (logfmt lines appended); default: Effect's console logger. */
  readonly roleLogFile?: string | undefined
}

export interface LocalCluster {
  readonly plane: ControlPlane
  readonly kube: KubeClient
  readonly dir: string
  readonly kubelets: ReadonlyArray<Kubelet>
  /** Where the kubelet stand-in of `node` keeps its pods' volumes. */
  kubeletDir(node: string): string
  /** The node plugin socket of `node`. */
  nodeSocket(node: string): string
  stop(): Promise<void>
}

const WAIT = { timeoutMs: 180_000, intervalMs: 500 }

export interface RolesOptions {
  readonly kubeconfigPath: string
  readonly controllerSocket: string
  /** Node name → its node plugin socket. */
  readonly nodeSockets: Readonly<Record<string, string>>
  /** Default `none`: tests create the classes they use. */
  readonly preset?: ListenerClassPreset | undefined
  /** Where the roles log (logfmt lines appended); default: Effect's console logger. */
  readonly logFile?: string | undefined
}

export interface Roles {
  stop(): Promise<void>
}

/**
 * Our two roles over the real API server, composed exactly as `run controller` and
 * `run node` compose them; resolves once every socket is served.
 */
export async function startRoles(options: RolesOptions): Promise<Roles> {
  const controller = controllerRoleLayer({
    csiEndpoint: options.controllerSocket,
    clusterDomain: "cluster.local",
    preset: options.preset ?? "none",
    vendorVersion: "local",
    instance: "local-controller"
  })
  const nodes = Object.entries(options.nodeSockets).map(([nodeName, socket]) =>
    // A short refresh so tests see changed addresses reach running Pods quickly.
    nodeRoleLayer({ csiEndpoint: socket, nodeName, vendorVersion: "local", addressRefreshInterval: "1 second" })
  )
  const logFile = options.logFile
  const logging = logFile === undefined
    ? Layer.empty
    : Logger.layer([Logger.map(Logger.formatLogFmt, (line: string) => appendFileSync(logFile, `${line}\n`))])
  const roles = Layer.mergeAll(controller, ...nodes).pipe(
    Layer.provide(Layer.merge(KubeApiHttp.layerFromKubeconfigFile(options.kubeconfigPath), Readiness.layer)),
    Layer.provide(logging)
  )
  const scope = Effect.runSync(Scope.make())
  try {
    await Effect.runPromise(Layer.buildWithScope(roles, scope))
  } catch (error) {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    throw error
  }
  return { stop: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

export const isPodReady = (pod: KubeObject | undefined): boolean =>
  ((pod?.status?.conditions ?? []) as Array<{ type: string; status: string }>).some((c) => c.type === "Ready" && c.status === "True")

/** Wait for Pod `name` to be Ready; with `notUid`, only a new Pod of that name counts (a replacement). */
export const readyPod = (
  kube: KubeClient,
  namespace: string,
  name: string,
  notUid?: string,
  wait: { readonly timeoutMs: number; readonly intervalMs: number } = WAIT
): Promise<KubeObject> =>
  eventually(`Pod ${namespace}/${name} ready`, async () => {
    const pod = await kube.getOrUndefined(`/api/v1/namespaces/${namespace}/pods/${name}`)
    return pod !== undefined && pod.metadata.uid !== notUid && isPodReady(pod) ? pod : undefined
  }, wait)

const perNode = (table: Readonly<Record<string, string>>, node: string): string => {
  const found = table[node]
  if (found === undefined) throw new Error(`no fake node ${node}`)
  return found
}

export async function startLocalCluster(options: LocalClusterOptions): Promise<LocalCluster> {
  const dir = await mkdtemp(join(tmpdir(), "listener-operator-"))
  const stops: Array<() => Promise<unknown>> = []
  const stop = async () => {
    for (const step of stops.reverse()) await step().catch(() => undefined)
    stops.length = 0
    await rm(dir, { recursive: true, force: true })
  }
  try {
    const plane = await startControlPlane({ controllerManager: true, scheduler: true, log: options.log })
    stops.push(() => plane.stop())
    const kube = plane.kube
    await createListenerCrds(kube, WAIT)
    await kube.create("/apis/storage.k8s.io/v1/storageclasses", listenerStorageClass())
    await kube.create("/apis/storage.k8s.io/v1/csidrivers", listenerCsiDriver())

    const nodeSockets: Record<string, string> = {}
    const kubeletDirs: Record<string, string> = {}
    for (const [name, addresses] of Object.entries(options.nodes)) {
      await createFakeNode(kube, { name, addresses: [...addresses] })
      nodeSockets[name] = join(dir, `${name}.sock`)
      kubeletDirs[name] = join(dir, "kubelet", name)
      await mkdir(kubeletDirs[name]!, { recursive: true })
    }
    const controllerSocket = join(dir, "controller.sock")
    const roles = await startRoles({ kubeconfigPath: plane.kubeconfigPath, controllerSocket, nodeSockets, preset: options.preset, logFile: options.roleLogFile })
    stops.push(() => roles.stop())
    for (const name of Object.keys(options.nodes)) {
      await registerPlugin({ kube, node: name, socketPath: nodeSockets[name]!, driverName: CSI_DRIVER_NAME })
    }
    const log = options.log
    const provisioner: TrackedProcess = spawnTracked({
      name: "csi-provisioner",
      command: binary("csi-provisioner"),
      args: [
        `--csi-address=${controllerSocket}`,
        `--kubeconfig=${plane.kubeconfigPath}`,
        "--extra-create-metadata",
        "--feature-gates=Topology=true",
        "--leader-election=false",
        "--worker-threads=4",
        "--retry-interval-start=500ms",
        "--retry-interval-max=5s"
      ],
      logPath: join(dir, "csi-provisioner.log"),
      ...(log !== undefined ? { onLine: (line: string) => log(`[csi-provisioner] ${line}`) } : {})
    })
    stops.push(() => provisioner.stop())
    const kubelets: Kubelet[] = []
    for (const name of Object.keys(options.nodes)) {
      const kubelet = await startKubelet({
        kube,
        nodeName: name,
        socketPath: nodeSockets[name]!,
        kubeletDir: kubeletDirs[name]!,
        driverName: CSI_DRIVER_NAME,
        ...(log !== undefined ? { log } : {})
      })
      kubelets.push(kubelet)
      stops.push(() => kubelet.stop())
    }
    return {
      plane,
      kube,
      dir,
      kubelets,
      kubeletDir: (node) => perNode(kubeletDirs, node),
      nodeSocket: (node) => perNode(nodeSockets, node),
      stop
    }
  } catch (error) {
    await stop()
    throw error
  }
}
