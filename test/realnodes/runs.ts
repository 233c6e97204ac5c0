// Every real-node run is recorded under ~/.cache/listener-operator/realnodes/runs/ with its
// owner (pid + start time). A run whose owner is gone — a test killed by SIGKILL, a crashed
// CI job — is swept at the next start or by the leftover check: its processes (found by
// their mount namespaces), mounts, network namespaces, bridge and directories are removed.
// `leftovers()` then proves nothing of any dead run is left on the machine.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { killNamespaceProcesses, mountNamespaceId } from "./namespaceProcesses.ts";
import { realNodesCacheDir } from "./binDir.ts";
import { names } from "./network.ts";

export interface RunRecord {
  readonly runId: string;
  readonly runDir: string;
  readonly nodeCount: number;
  /** `<pid>:<start time>` of the process that owns the run. */
  readonly owner: string;
}

const runsDir = (): string => join(realNodesCacheDir(), "runs");

const startTime = (pid: number): string | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
};

export const selfOwner = (): string => `${process.pid}:${startTime(process.pid) ?? "?"}`;

const ownerAlive = (owner: string): boolean => {
  const [pid, start] = owner.split(":");
  return startTime(Number(pid)) === start;
};

export function recordRun(run: RunRecord): void {
  mkdirSync(runsDir(), { recursive: true });
  writeFileSync(join(runsDir(), `${run.runId}.json`), JSON.stringify(run));
}

export function forgetRun(runId: string): void {
  rmSync(join(runsDir(), `${runId}.json`), { force: true });
}

export function recordedRuns(): RunRecord[] {
  if (!existsSync(runsDir())) return [];
  return readdirSync(runsDir()).filter((f) => f.endsWith(".json")).flatMap((f) => {
    try {
      return [JSON.parse(readFileSync(join(runsDir(), f), "utf8")) as RunRecord];
    } catch {
      return [];
    }
  });
}

const quiet = (command: string, args: readonly string[]): void => {
  try {
    execFileSync(command, [...args], { stdio: "ignore" });
  } catch {
    // absent already
  }
};

/** Mount points under `dir` (deepest first), from /proc/self/mountinfo. */
export const mountsUnder = (dir: string): string[] =>
  readFileSync("/proc/self/mountinfo", "utf8").split("\n")
    .map((line) => line.split(" ")[4])
    .filter((point): point is string => point !== undefined && (point === dir || point.startsWith(`${dir}/`)))
    .sort((a, b) => b.length - a.length);

/** Remove everything of a run whose owner is gone (or of our own run, at the end of stop()). */
export async function sweepRun(run: RunRecord): Promise<void> {
  const nsDir = join(run.runDir, "ns");
  const namespaces = new Set<string>();
  if (existsSync(nsDir)) {
    for (const file of readdirSync(nsDir)) {
      try {
        namespaces.add(mountNamespaceId(join(nsDir, file)));
      } catch {
        // not a namespace
      }
    }
  }
  await killNamespaceProcesses(namespaces);
  for (const point of mountsUnder(run.runDir)) quiet("umount", ["-l", point]);
  const n = names(run.runId);
  for (let index = 0; index < run.nodeCount; index++) {
    quiet("ip", ["link", "del", n.hostVeth(index)]);
    quiet("ip", ["netns", "del", n.netns(index)]);
  }
  quiet("ip", ["link", "del", n.bridge]);
  removeEmptyPodCgroups();
  rmSync(run.runDir, { recursive: true, force: true });
  forgetRun(run.runId);
}

/** Runs of owners that are gone: swept, and returned so a check can report them. */
export async function sweepDeadRuns(): Promise<RunRecord[]> {
  const dead = recordedRuns().filter((run) => !ownerAlive(run.owner));
  for (const run of dead) await sweepRun(run);
  return dead;
}

/**
 * runc's cgroups of the test Pods (kubelet with cgroupsPerQOS=false and the cgroupfs
 * driver puts them under /sys/fs/cgroup/<controller>/k8s.io/): removed once empty.
 */
const CGROUP_ROOT = "/sys/fs/cgroup";
const podCgroupDirs = (): string[] =>
  existsSync(CGROUP_ROOT)
    ? readdirSync(CGROUP_ROOT).map((controller) => join(CGROUP_ROOT, controller, "k8s.io")).filter((dir) => existsSync(dir))
    : [];

export function removeEmptyPodCgroups(): void {
  for (const dir of podCgroupDirs()) {
    for (const child of readdirSync(dir, { withFileTypes: true })) {
      if (child.isDirectory()) quiet("rmdir", [join(dir, child.name)]);
    }
    quiet("rmdir", [dir]);
  }
}

/** What any run (live ones excepted) left on the machine; empty when clean. */
export function leftovers(): string[] {
  const live = recordedRuns().filter((run) => ownerAlive(run.owner));
  const liveIds = new Set(live.map((run) => run.runId));
  const found: string[] = [];
  for (const run of recordedRuns()) if (!liveIds.has(run.runId)) found.push(`run record ${run.runId} (owner ${run.owner} gone)`);
  const ours = (name: string) => /^lo[bv]?-?[0-9a-f]{4}/u.test(name) && ![...liveIds].some((id) => name.includes(id));
  const links = execFileSync("ip", ["-o", "link", "show"]).toString().split("\n").map((l) => l.split(": ")[1]?.split("@")[0] ?? "");
  for (const link of links) if (/^lo[bv][0-9a-f]{4}/u.test(link) && ours(link)) found.push(`network interface ${link}`);
  const netns = execFileSync("ip", ["netns", "list"]).toString().split("\n").map((l) => l.split(" ")[0] ?? "");
  for (const ns of netns) if (/^lo-[0-9a-f]{4}-n\d+$/u.test(ns) && ours(ns)) found.push(`network namespace ${ns}`);
  for (const line of readFileSync("/proc/self/mountinfo", "utf8").split("\n")) {
    const point = line.split(" ")[4];
    if (point !== undefined && point.includes("/lo-realnodes-") && ![...liveIds].some((id) => point.includes(id))) found.push(`mount ${point}`);
  }
  // With the namespace design the node components never touch the host's tables.
  for (const tool of ["iptables", "ip6tables"]) {
    let rules = "";
    try {
      rules = execFileSync(`${tool}-save`, { stdio: ["ignore", "pipe", "ignore"] }).toString();
    } catch {
      continue;
    }
    for (const line of rules.split("\n")) if (/KUBE-|CNI-/u.test(line)) found.push(`${tool} (host namespace): ${line}`);
  }
  if (live.length === 0) {
    for (const dir of podCgroupDirs()) found.push(`cgroup ${dir}`);
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/u.test(entry)) continue;
      let exe = "";
      try {
        exe = readlinkSync(`/proc/${entry}/exe`);
      } catch {
        continue;
      }
      if (/\/(containerd|containerd-shim-runc-v2|runc)$/u.test(exe) || exe.startsWith(realNodesCacheDir())) {
        found.push(`process ${entry} ${exe}`);
        continue;
      }
      // A container process outlives its shim only as an orphan in a Pod cgroup.
      try {
        if (readFileSync(`/proc/${entry}/cgroup`, "utf8").includes("/k8s.io/")) found.push(`container process ${entry} ${exe}`);
      } catch {
        // gone meanwhile
      }
    }
  }
  return found;
}
