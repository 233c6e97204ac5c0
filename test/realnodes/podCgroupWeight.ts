// The CPU weight of the test Pods' cgroup. The kubelets run with cgroupsPerQOS=false (two
// kubelets share the machine's hierarchy, nodeConfig.ts), so runc puts every container of
// both nodes under one cgroup, /sys/fs/cgroup/cpu/k8s.io, which the kernel creates with the
// default weight 1024 — the weight of a single busy process of the machine. On this shared
// machine (builds, tests and the control plane run beside the nodes) all Pods together then
// got the CPU of one process, and inside that our controller (request 50m → 51 shares) and
// node plugins (20m → 20) a few percent: a Listener right after install waited seconds for
// its status, and the node plugin's publish wait ran out. A kubelet with per-QoS cgroups
// weights its kubepods cgroup by the node's allocatable CPU, 1024 per core; this gives the
// Pods' cgroup the same: 1024 × the machine's cores. Inside it Pods share by their requests,
// as on a real node.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";

const CPU_V1 = "/sys/fs/cgroup/cpu";
export const POD_CGROUP = "k8s.io";

/** Creates the Pods' cgroup (cgroup v1 `cpu`) if needed and sets its weight; returns the shares set, or undefined (no v1 cpu controller). */
export function weightPodCgroup(cores = availableParallelism()): number | undefined {
  if (!existsSync(join(CPU_V1, "cpu.shares"))) return undefined;
  const dir = join(CPU_V1, POD_CGROUP);
  mkdirSync(dir, { recursive: true });
  const shares = 1024 * Math.max(1, cores);
  writeFileSync(join(dir, "cpu.shares"), String(shares));
  return shares;
}
