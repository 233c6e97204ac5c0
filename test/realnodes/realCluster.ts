// A Kubernetes cluster with real nodes on this machine: the control plane of test/envtest
// serving on the host side of a test bridge, and per node a network + mount namespace
// running containerd, the kubelet and kube-proxy (node.ts). See docs/real-cluster.md.
//
// Nothing here dials or routes anything outside: the bridge and the node namespaces are
// created by the run, nodes have no default route, and every address is on the bridge.
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startControlPlane } from "../envtest/controlPlane.ts";
import type { ControlPlane } from "../envtest/controlPlane.ts";
import { eventually } from "../envtest/kubeClient.ts";
import type { KubeClient } from "../envtest/kubeClient.ts";
import { buildImages, corednsRef, PAUSE_REF } from "../images/build.ts";
import { installCoreDns, waitForCoreDns } from "../clusteraddons/coredns.ts";
import { applyL2Pool, installMetallb, waitForMetallb } from "../clusteraddons/metallb.ts";
import { checkSubnetsFree, createBridge, createNodeNetwork, DEFAULT_LOAD_BALANCER_POOL, hostAddress, must, names, removeNetwork } from "./network.ts";
import { startNode } from "./node.ts";
import { weightPodCgroup } from "./podCgroupWeight.ts";
import type { RealNode } from "./node.ts";
import { recordRun, selfOwner, sweepDeadRuns, sweepRun } from "./runs.ts";
import type { RunRecord } from "./runs.ts";

export type { RealNode } from "./node.ts";

export interface RealCluster {
  readonly plane: ControlPlane;
  readonly kube: KubeClient;
  readonly nodes: ReadonlyArray<RealNode>;
  /** The host side of the test bridge: where the API server listens. */
  readonly hostIp: string;
  readonly runId: string;
  importImages(archives: readonly string[]): Promise<void>;
  stop(): Promise<void>;
}

export interface RealClusterOptions {
  readonly nodes: readonly string[];
  /** OCI archives imported into every node before it is used (the pause image among them). */
  readonly images?: readonly string[];
  readonly log?: ((line: string) => void) | undefined;
  /** The API server's audit log (`startControlPlane`'s `auditLog`), e.g. for a least-privilege check. */
  readonly auditLog?: boolean | "all";
  /** More kube-controller-manager flags (`startControlPlane`'s `controllerManagerArgs`). */
  readonly controllerManagerArgs?: readonly string[];
  /**
   * The cluster add-ons every real cluster has: CoreDNS (cluster DNS) and MetalLB (L2 load
   * balancer), installed once the nodes are Ready (default true). Off only for a cluster
   * that must not have them (the upstream recording, which predates them).
   */
  readonly addons?: boolean;
  /**
   * The addresses of MetalLB's pool `default` (CIDRs or `a-b` ranges; default: 40
   * addresses of the node subnet, DEFAULT_LOAD_BALANCER_POOL); `[]` makes no pool.
   */
  readonly loadBalancerPool?: readonly string[];
}

const WAIT = { timeoutMs: 180_000, intervalMs: 1000 };

/**
 * Controllers real nodes need beyond test/envtest's: DaemonSets (the chart's node plugin)
 * and the removal of Pods whose Node is gone.
 */
const NODE_CONTROLLERS = ["daemonset-controller", "pod-garbage-collector-controller"] as const;

/** The add-ons' Pods, their recent Events, and the last log lines of each that is not Ready. */
async function addonDiagnostics(plane: ControlPlane): Promise<string> {
  const parts: string[] = [];
  for (const ns of ["kube-system", "metallb-system"]) {
    parts.push((await plane.kubectl(["get", "pods", "-n", ns, "-o", "wide"])).stdout);
    parts.push((await plane.kubectl(["get", "events", "-n", ns, "--sort-by=.lastTimestamp"])).stdout.split("\n").slice(-25).join("\n"));
    const pods = (await plane.kube.list(`/api/v1/namespaces/${ns}/pods`)).items;
    for (const pod of pods) {
      for (const container of (pod.spec?.containers ?? []) as Array<{ name: string }>) {
        const logs = await plane.kubectl(["logs", "-n", ns, String(pod.metadata.name), "-c", container.name, "--tail=20"]);
        parts.push(`--- ${ns}/${pod.metadata.name}/${container.name}:\n${logs.stdout}${logs.stderr}`);
      }
    }
  }
  return parts.join("\n");
}

export async function startRealCluster(options: RealClusterOptions): Promise<RealCluster> {
  const log = options.log ?? (() => undefined);
  const swept = await sweepDeadRuns();
  for (const run of swept) log(`swept leftovers of dead run ${run.runId}`);
  await checkSubnetsFree();

  const runId = randomBytes(2).toString("hex");
  const runDir = mkdtempSync(join(tmpdir(), `lo-realnodes-${runId}-`));
  const record: RunRecord = { runId, runDir, nodeCount: options.nodes.length, owner: selfOwner() };
  recordRun(record);
  const nsDir = join(runDir, "ns");
  mkdirSync(nsDir);
  const nodes: RealNode[] = [];
  let plane: ControlPlane | undefined;
  let stopped = false;
  // If this process dies without stop(), its tracked processes die with it (watchdogs) and
  // the next start or the leftover check sweeps the rest of the run (runs.ts).

  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    for (const node of [...nodes].reverse()) await node.stop().catch((e: Error) => log(`stopping ${node.name}: ${e.message}`));
    await plane?.stop();
    await removeNetwork(runId, options.nodes.length);
    await sweepRun(record);
  };

  try {
    // Namespace files can only be bind mounts on a private mount.
    await must("mount", ["--bind", nsDir, nsDir]);
    await must("mount", ["--make-private", nsDir]);
    await createBridge(runId);
    plane = await startControlPlane({ controllerManager: true, scheduler: true, address: hostAddress(), extraControllers: NODE_CONTROLLERS, log, ...(options.auditLog !== undefined ? { auditLog: options.auditLog } : {}), ...(options.controllerManagerArgs !== undefined ? { controllerManagerArgs: options.controllerManagerArgs } : {}) });
    const n = names(runId);
    const shares = weightPodCgroup();
    log(`Pods' cgroup weight: ${shares ?? "unchanged (no cgroup v1 cpu controller)"}`);
    // The add-ons' images with the caller's (an archive named twice is imported once).
    const addonImages = options.addons ?? true ? (await buildImages({ only: ["coredns", "metallb-controller", "metallb-speaker"] })).map((i) => i.path) : [];
    const images = [...new Set([...(options.images ?? []), ...addonImages])];
    for (const [index, name] of options.nodes.entries()) {
      const netns = await createNodeNetwork(runId, index, options.nodes.length);
      const node = await startNode({ runDir, nsDir, index, name, netns, plane, sandboxImage: PAUSE_REF, log });
      nodes.push(node);
      await node.importImages(images);
      log(`node ${name}: netns ${n.netns(index)}, images imported`);
    }
    const kube = plane.kube;
    for (const node of nodes) {
      await eventually(`Node ${node.name} Ready`, async () => {
        const live = await kube.getOrUndefined(`/api/v1/nodes/${node.name}`);
        return ((live?.status?.conditions ?? []) as Array<{ type: string; status: string }>).some((c) => c.type === "Ready" && c.status === "True");
      }, WAIT);
    }
    if (options.addons ?? true) {
      const started = Date.now();
      const started_ = plane;
      await installCoreDns(plane, corednsRef());
      await installMetallb(plane, kube, process.env["E2E_LOG"] !== undefined ? { logLevel: "debug" } : {});
      const pool = options.loadBalancerPool ?? [DEFAULT_LOAD_BALANCER_POOL];
      if (pool.length > 0) await applyL2Pool(plane, "default", pool);
      await Promise.all([waitForCoreDns(kube), waitForMetallb(kube, options.nodes)]).catch(async (error: unknown) => {
        throw new Error(`${String(error)}\n${await addonDiagnostics(started_)}`, { cause: error });
      });
      log(`cluster add-ons ready in ${Date.now() - started} ms: CoreDNS, MetalLB (pool default: ${pool.join(", ") || "none"})`);
    }
    return {
      plane,
      kube,
      nodes,
      hostIp: hostAddress(),
      runId,
      importImages: async (archives) => {
        for (const node of nodes) await node.importImages(archives);
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
