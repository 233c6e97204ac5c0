// Finding and killing everything a node started. The kubelet, containerd and kube-proxy
// are our tracked children, but containerd's shims detach from them and the containers
// are the shims' children: what they share is the node's mount namespace (shims) and
// descent from it (containers, which get mount namespaces of their own).
import { readdirSync, readFileSync, readlinkSync, statSync } from "node:fs";

/** `mnt:[<inode>]` of a namespace file bound at `path` (what /proc/<pid>/ns/mnt reads). */
export const mountNamespaceId = (path: string): string => `mnt:[${statSync(path).ino}]`;

const processes = (): Array<{ pid: number; ppid: number; mnt: string | undefined }> => {
  const out: Array<{ pid: number; ppid: number; mnt: string | undefined }> = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/u.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      let mnt: string | undefined;
      try {
        mnt = readlinkSync(`/proc/${entry}/ns/mnt`);
      } catch {
        mnt = undefined;
      }
      out.push({ pid: Number(entry), ppid, mnt });
    } catch {
      // gone meanwhile
    }
  }
  return out;
};

/** Pids in any of the mount namespaces `ids`, and all their descendants. */
export function processesOf(ids: ReadonlySet<string>): number[] {
  const all = processes();
  const chosen = new Set(all.filter((p) => p.mnt !== undefined && ids.has(p.mnt) && p.pid !== process.pid).map((p) => p.pid));
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all) {
      if (!chosen.has(p.pid) && chosen.has(p.ppid)) {
        chosen.add(p.pid);
        grew = true;
      }
    }
  }
  return [...chosen];
}

/** SIGKILL everything of those namespaces until nothing is left (bounded). */
export async function killNamespaceProcesses(ids: ReadonlySet<string>): Promise<void> {
  for (let round = 0; round < 50; round++) {
    const pids = processesOf(ids);
    if (pids.length === 0) return;
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // gone
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const left = processesOf(ids);
  if (left.length > 0) throw new Error(`processes of the node namespaces survive SIGKILL: ${left.join(", ")}`);
}
