/**
 * The operator as users run it, on real nodes: the real-node cluster of realCluster.ts,
 * the offline images imported into every node's containerd, and our Helm chart installed
 * with the real Helm (controller Deployment + csi-provisioner sidecar, node DaemonSet
 * registering itself with each kubelet). Shared by the end-to-end suite and
 * `npm run demo -- --real-nodes`.
 */
import { execFile } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { CSI_DRIVER_NAME } from "../../domain/constants.ts"
import { binDir, binary } from "../envtest/binDir.ts"
import { eventually } from "../envtest/kubeClient.ts"
import { isPodReady } from "../envtest/localCluster.ts"
import type { KubeObject } from "../envtest/kubeClient.ts"
import { buildImages } from "../images/build.ts"
import type { ImageArchive } from "../images/build.ts"
import { startRealCluster } from "./realCluster.ts"
import type { RealCluster } from "./realCluster.ts"

const repoRoot = join(import.meta.dirname, "..", "..")
export const CHART_DIR = join(repoRoot, "deploy", "helm", "listener-operator")
export const RELEASE = "listener-operator"
export const OPERATOR_NAMESPACE = "listener-operator"

export interface CommandResult {
  readonly stdout: string
  readonly stderr: string
  readonly code: number
}

export interface OperatorCluster {
  readonly cluster: RealCluster
  readonly images: ReadonlyArray<ImageArchive>
  /** Run the real Helm against this cluster (own HELM_* homes); never throws for a non-zero exit. */
  helm(args: ReadonlyArray<string>): Promise<CommandResult>
  /** The running Pod of the node DaemonSet on `node`. */
  nodePluginPod(node: string): Promise<KubeObject>
  stop(): Promise<void>
}

export interface OperatorClusterOptions {
  readonly nodes: ReadonlyArray<string>
  /** Extra `--set` values for `helm install` (after the suite's own). */
  readonly values?: ReadonlyArray<string>
  /** Extra flags for `helm install`, e.g. `--skip-crds`. */
  readonly installFlags?: ReadonlyArray<string>
  readonly log?: ((line: string) => void) | undefined
  /** The API server's audit log (`startControlPlane`'s `auditLog`); count requests with `cluster.plane.auditEvents()`. */
  readonly auditLog?: boolean | "all"
  /** More kube-controller-manager flags (`startControlPlane`'s `controllerManagerArgs`). */
  readonly controllerManagerArgs?: ReadonlyArray<string>
  /** More OCI archives to import into every node (e.g. another build's operator image). */
  readonly extraImages?: ReadonlyArray<string>
  /** MetalLB's pool `default` (`startRealCluster`'s `loadBalancerPool`). */
  readonly loadBalancerPool?: ReadonlyArray<string>
  /** Runs on the started cluster before the chart is installed (e.g. to bring it to another operator's state). */
  readonly beforeInstall?: (cluster: RealCluster) => Promise<void>
}

const WAIT = { timeoutMs: 240_000, intervalMs: 1000 }

export async function startOperatorCluster(options: OperatorClusterOptions): Promise<OperatorCluster> {
  const log = options.log ?? (() => undefined)
  const images = await buildImages()
  log(`images: ${images.map((i) => i.ref).join(", ")}`)
  const cluster = await startRealCluster({
    nodes: [...options.nodes],
    images: [...images.map((i) => i.path), ...(options.extraImages ?? [])],
    log,
    ...(options.auditLog !== undefined ? { auditLog: options.auditLog } : {}),
    ...(options.controllerManagerArgs !== undefined ? { controllerManagerArgs: options.controllerManagerArgs } : {}),
    ...(options.loadBalancerPool !== undefined ? { loadBalancerPool: options.loadBalancerPool } : {})
  })
  const helmHome = await mkdtemp(join(tmpdir(), "listener-operator-helm-"))
  const stop = async () => {
    await cluster.stop()
    await rm(helmHome, { recursive: true, force: true })
  }
  const helm = (args: ReadonlyArray<string>): Promise<CommandResult> =>
    new Promise((resolve, reject) => {
      const env = {
        ...process.env,
        HELM_CACHE_HOME: join(helmHome, "cache"),
        HELM_CONFIG_HOME: join(helmHome, "config"),
        HELM_DATA_HOME: join(helmHome, "data"),
        KUBECONFIG: cluster.plane.kubeconfigPath
      }
      execFile(binary("helm", binDir()), [...args], { env, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) => {
        if (error !== null && typeof error.code !== "number") reject(error)
        else resolve({ stdout, stderr, code: error === null ? 0 : Number(error.code) })
      })
    })
  const podsOf = async (component: string): Promise<ReadonlyArray<KubeObject>> =>
    (await cluster.kube.list(`/api/v1/namespaces/${OPERATOR_NAMESPACE}/pods`, {
      labelSelector: `app.kubernetes.io/instance=${RELEASE},app.kubernetes.io/component=${component}`
    })).items
  const nodePluginPod = (node: string) =>
    eventually(`node plugin Pod on ${node} ready`, async () => {
      const pod = (await podsOf("node")).find((p) => p.spec?.nodeName === node && p.metadata.deletionTimestamp === undefined)
      return pod !== undefined && isPodReady(pod) ? pod : undefined
    }, WAIT)
  /** The operator Pods' states and their containers' last log lines (also of a crashed previous run). */
  const operatorDiagnostics = async (): Promise<string> => {
    const kubectl = async (args: ReadonlyArray<string>): Promise<string> => {
      const run = await cluster.plane.kubectl(["-n", OPERATOR_NAMESPACE, ...args])
      return `${run.stdout}${run.code === 0 ? "" : run.stderr}`
    }
    const pods = (await cluster.kube.list(`/api/v1/namespaces/${OPERATOR_NAMESPACE}/pods`)).items
    const parts: string[] = []
    for (const pod of pods) {
      const statuses = ((pod.status?.["containerStatuses"] ?? []) as Array<{ name: string; ready: boolean; restartCount: number; state?: object; lastState?: object }>)
      parts.push(`Pod ${pod.metadata.name} on ${String(pod.spec?.nodeName)}: ${String(pod.status?.["phase"])}`)
      for (const status of statuses) {
        parts.push(`  ${status.name}: ready=${status.ready} restarts=${status.restartCount} state=${JSON.stringify(status.state)} last=${JSON.stringify(status.lastState)}`)
        for (const previous of status.restartCount > 0 ? [true, false] : [false]) {
          const logs = await kubectl(["logs", pod.metadata.name ?? "", "-c", status.name, "--tail=15", ...(previous ? ["--previous"] : [])])
          parts.push(`  --- ${status.name} logs${previous ? " (previous run)" : ""}:\n${logs.trimEnd().split("\n").map((line) => `    ${line}`).join("\n")}`)
        }
      }
    }
    return parts.join("\n")
  }
  try {
    await options.beforeInstall?.(cluster)
    const operatorImage = images.find((i) => i.name === "operator")
    if (operatorImage === undefined) throw new Error("the image build produced no operator image")
    const install = await helm([
      "install", RELEASE, CHART_DIR, "--namespace", OPERATOR_NAMESPACE, "--create-namespace",
      ...installArgs(splitRef(operatorImage.ref), options.values ?? []),
      ...(options.installFlags ?? [])
    ])
    if (install.code !== 0) throw new Error(`helm install failed (exit ${install.code}):\n${install.stderr}\n${install.stdout}`)
    log("chart installed; waiting for the controller and one node plugin per node")
    await eventually("controller Pod ready", async () => (await podsOf("controller")).some(isPodReady), WAIT)
    for (const node of options.nodes) await nodePluginPod(node)
    // The kubelet's plugin watcher registered the driver: CSINode lists it with its topology key.
    for (const node of options.nodes) {
      await eventually(`CSINode ${node} lists ${CSI_DRIVER_NAME}`, async () => {
        const csiNode = await cluster.kube.getOrUndefined(`/apis/storage.k8s.io/v1/csinodes/${node}`)
        const drivers = (csiNode?.spec?.drivers ?? []) as Array<{ name: string }>
        return drivers.some((d) => d.name === CSI_DRIVER_NAME)
      }, WAIT)
    }
    return { cluster, images, helm, nodePluginPod, stop }
  } catch (error) {
    const diagnostics = await operatorDiagnostics().catch((cause: unknown) => `(no diagnostics: ${String(cause)})`)
    await stop()
    throw new Error(`${error instanceof Error ? error.message : String(error)}\noperator Pods:\n${diagnostics}`, { cause: error })
  }
}

/** The suite's `--set` arguments of `helm install` for the operator image `[repository, tag]`, then `values`. */
export const installArgs = ([repository, tag]: readonly [string, string], values: ReadonlyArray<string>): string[] => [
  "--set", `image.repository=${repository}`, "--set", `image.tag=${tag}`, "--set", "image.pullPolicy=Never",
  "--set", "node.registration=builtin", "--set", "preset=none", "--set", "logLevel=debug",
  // Live address refresh every 2 s, so a changed address reaches running Pods within the test's patience.
  "--set", "node.addressRefreshSeconds=2",
  ...values.flatMap((v) => ["--set", v])
]

/** `docker.io/library/listener-operator:0.1.0` → [`docker.io/library/listener-operator`, `0.1.0`]. */
const splitRef = (ref: string): [string, string] => {
  const colon = ref.lastIndexOf(":")
  if (colon <= ref.lastIndexOf("/")) throw new Error(`image ref ${ref} has no tag`)
  return [ref.slice(0, colon), ref.slice(colon + 1)]
}
