// The test network of the real-node cluster: one Linux bridge on the host, and per node a
// network namespace joined to it by a veth pair. The host side of the bridge carries the
// API server's address; each node has its own address and pod CIDR. Nodes get no default
// route (only the service range on their link, see createNodeNetwork), so nothing sent from
// a node or a Pod can leave this machine: every address a test dials is on this bridge or
// inside these namespaces.
import { execFile } from "node:child_process";
import { SERVICE_CLUSTER_IP_RANGE } from "../envtest/controlPlane.ts";

/** The subnets, overridable where a machine already routes them (checked at start). */
export const NODE_SUBNET_PREFIX = process.env["REALNODES_NODE_SUBNET"] ?? "10.213.0"; // .1 = host, .11.. = nodes
export const POD_SUBNET_PREFIX = process.env["REALNODES_POD_SUBNET"] ?? "10.214"; // 10.214.<n>.0/24 per node
export const POD_CLUSTER_CIDR = `${POD_SUBNET_PREFIX}.0.0/16`;

export const hostAddress = (): string => `${NODE_SUBNET_PREFIX}.1`;
export const nodeAddress = (index: number): string => `${NODE_SUBNET_PREFIX}.${11 + index}`;
export const podCidr = (index: number): string => `${POD_SUBNET_PREFIX}.${index + 1}.0/24`;
/**
 * MetalLB's default pool: 40 addresses of the node subnet, on the test bridge, never given
 * to a node (nodes are .11 up). The host reaches them by ARP, answered by a node's speaker.
 */
export const DEFAULT_LOAD_BALANCER_POOL = `${NODE_SUBNET_PREFIX}.200-${NODE_SUBNET_PREFIX}.239`;

export interface CommandResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number;
}

/** Run a command; never throws for a non-zero exit. */
export const run = (command: string, args: readonly string[], input?: string): Promise<CommandResult> =>
  new Promise((resolve, reject) => {
    const child = execFile(command, [...args], { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error !== null && typeof error.code !== "number") reject(error);
      else resolve({ stdout, stderr, code: error === null ? 0 : Number(error.code) });
    });
    if (input !== undefined) child.stdin?.end(input);
  });

/** Run a command that must succeed. */
export const must = async (command: string, args: readonly string[]): Promise<string> => {
  const result = await run(command, args);
  if (result.code !== 0) throw new Error(`${command} ${args.join(" ")} failed (exit ${result.code}): ${result.stderr.trim()}`);
  return result.stdout;
};

/** Interface and namespace names of one run (interface names are at most 15 bytes). */
export const names = (runId: string) => ({
  bridge: `lob${runId}`,
  netns: (index: number) => `lo-${runId}-n${index}`,
  hostVeth: (index: number) => `lov${runId}n${index}`,
});

/** Refuse subnets that the host already routes (they would shadow or be shadowed). */
export async function checkSubnetsFree(): Promise<void> {
  const routes = await must("ip", ["-4", "route", "show", "table", "all"]);
  for (const prefix of [NODE_SUBNET_PREFIX, POD_SUBNET_PREFIX]) {
    const clash = routes.split("\n").find((line) => line.startsWith(`${prefix}.`));
    if (clash !== undefined) {
      throw new Error(`the test subnet ${prefix}.* is already routed on this machine (${clash.trim()}); set REALNODES_NODE_SUBNET / REALNODES_POD_SUBNET`);
    }
  }
}

export async function createBridge(runId: string): Promise<void> {
  const { bridge } = names(runId);
  await must("ip", ["link", "add", bridge, "type", "bridge"]);
  await must("ip", ["addr", "add", `${hostAddress()}/24`, "dev", bridge]);
  await must("ip", ["link", "set", bridge, "up"]);
}

/** A node's namespace, joined to the bridge, with routes to the other nodes' pod CIDRs. */
export async function createNodeNetwork(runId: string, index: number, nodeCount: number): Promise<string> {
  const n = names(runId);
  const netns = n.netns(index);
  const inNs = (args: readonly string[]) => must("ip", ["-n", netns, ...args]);
  await must("ip", ["netns", "add", netns]);
  await must("ip", ["link", "add", n.hostVeth(index), "type", "veth", "peer", "name", "eth0", "netns", netns]);
  await must("ip", ["link", "set", n.hostVeth(index), "master", n.bridge, "up"]);
  await inNs(["addr", "add", `${nodeAddress(index)}/24`, "dev", "eth0"]);
  await inNs(["link", "set", "eth0", "up"]);
  await inNs(["link", "set", "lo", "up"]);
  for (let other = 0; other < nodeCount; other++) {
    if (other !== index) await inNs(["route", "add", podCidr(other), "via", nodeAddress(other)]);
  }
  // The service range on the node's link, as a default route would give it on a real node:
  // a host-network Pod (MetalLB's speaker) dialling a cluster IP needs a route before
  // kube-proxy's OUTPUT DNAT can rewrite the packet to a Pod. An address kube-proxy does
  // not rewrite goes nowhere: it is ARPed for on the test bridge and nobody answers.
  await inNs(["route", "add", SERVICE_CLUSTER_IP_RANGE, "dev", "eth0"]);
  // Pods' packets are routed by the node (bridge CNI, kube-proxy DNAT).
  await must("ip", ["netns", "exec", netns, "sysctl", "-q", "-w", "net.ipv4.ip_forward=1"]);
  return netns;
}

/** Remove what createBridge/createNodeNetwork made; absent pieces are fine. */
export async function removeNetwork(runId: string, nodeCount: number): Promise<void> {
  const n = names(runId);
  for (let index = 0; index < nodeCount; index++) {
    await run("ip", ["link", "del", n.hostVeth(index)]);
    await run("ip", ["netns", "del", n.netns(index)]);
  }
  await run("ip", ["link", "del", n.bridge]);
}
