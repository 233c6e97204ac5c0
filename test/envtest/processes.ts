// Child processes of the test control plane: each runs in its own process group, is
// recorded in a registry under the cache dir, is killed on stop() and on every way this
// Node process can end, and is guarded by a watchdog that kills its group when this
// Node process disappears (even by SIGKILL, which no handler can catch).
import { spawn, type ChildProcess } from "node:child_process";
import {
  closeSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { envtestCacheDir } from "./binDir.ts";

const OWNER_ENV = "LISTENER_OPERATOR_ENVTEST_OWNER";

/** Field 22 of /proc/<pid>/stat (start time in clock ticks), or undefined if gone. */
function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return rest[19]; // fields start at 3 (state) after the comm
  } catch {
    return undefined;
  }
}

function parentPid(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(rest[1]);
  } catch {
    return undefined;
  }
}

/** `<pid>:<start time>` identifies a process even across pid reuse. */
const selfId = `${process.pid}:${startTime(process.pid) ?? "?"}`;
// Every child spawned from this process (by this module or by anyone else) inherits the
// owner id, so leftoverProcesses() can tell whose process a stray binary was.
process.env[OWNER_ENV] = selfId;

function ownerAlive(id: string): boolean {
  const [pidText, start] = id.split(":");
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  const now = startTime(pid);
  return now !== undefined && (start === "?" || now === start);
}

export function registryDir(): string {
  return join(envtestCacheDir(), "processes");
}

// ---------------------------------------------------------------------------------------
// Emergency cleanup: synchronous, runs on exit / signals / uncaught exceptions.

const emergency = new Set<() => void>();
let hooksInstalled = false;

function runEmergency(): void {
  for (const f of [...emergency]) {
    try {
      f();
    } catch {
      // best effort
    }
  }
  emergency.clear();
}

function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on("exit", runEmergency);
  process.on("uncaughtExceptionMonitor", runEmergency);
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    const handler = (): void => {
      runEmergency();
      // If nobody else handles the signal, restore the default behaviour (terminate).
      if (process.listenerCount(sig) === 1) {
        process.removeListener(sig, handler);
        process.kill(process.pid, sig);
      }
    };
    process.on(sig, handler);
  }
}

/** Register a synchronous cleanup to run if the process ends before it is unregistered. */
export function onEmergency(f: () => void): () => void {
  installHooks();
  emergency.add(f);
  return () => {
    emergency.delete(f);
  };
}

// ---------------------------------------------------------------------------------------

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface TrackedProcess {
  readonly name: string;
  readonly pid: number;
  readonly logPath: string;
  readonly exited: Promise<Exit>;
  running(): boolean;
  /** SIGTERM to the process group, then SIGKILL after `graceMs`; resolves once it exited. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL its process group at once (a crash, not a shutdown); resolves when it is gone. */
  kill(): Promise<void>;
  /** The last `lines` lines of its combined stdout/stderr log. */
  logTail(lines?: number): string;
}

export interface SpawnOptions {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly logPath: string;
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Receives each output line (prefixed by nothing); output also goes to logPath. */
  readonly onLine?: (line: string) => void;
}

// sh wrapper: start a watchdog in the (new) process group, then exec the binary so the
// pid we get is the binary's. The watchdog kills the whole group once the owner is gone.
const WRAPPER = [
  'owner="$1"; shift',
  '( while kill -0 "$owner" 2>/dev/null; do sleep 1; done; kill -9 0 ) </dev/null >/dev/null 2>&1 &',
  'exec "$@"',
].join("\n");

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** Spawn a binary in its own process group with registry entry, watchdog and emergency kill. */
export function spawnTracked(opts: SpawnOptions): TrackedProcess {
  mkdirSync(registryDir(), { recursive: true });
  const useFile = opts.onLine === undefined;
  const fd = useFile ? openSync(opts.logPath, "a") : undefined;
  let child: ChildProcess;
  try {
    child = spawn("/bin/sh", ["-c", WRAPPER, "envtest-wrapper", String(process.pid), opts.command, ...opts.args], {
      cwd: opts.cwd,
      env: { ...(opts.env ?? process.env), [OWNER_ENV]: selfId },
      detached: true,
      stdio: useFile ? ["ignore", fd, fd] : ["ignore", "pipe", "pipe"],
    });
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  const pid = child.pid;
  if (pid === undefined) throw new Error(`failed to spawn ${opts.command}`);

  if (!useFile) {
    const out = createWriteStream(opts.logPath, { flags: "a" });
    for (const stream of [child.stdout, child.stderr]) {
      if (stream === null) continue;
      let buf = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => {
        out.write(chunk);
        buf += chunk;
        let nl: number;
        while ((nl = buf.indexOf("\n")) >= 0) {
          opts.onLine?.(buf.slice(0, nl));
          buf = buf.slice(nl + 1);
        }
      });
      (stream as unknown as { unref?: () => void }).unref?.();
    }
    child.on("exit", () => out.end());
  }

  const regFile = join(registryDir(), `${pid}.json`);
  writeFileSync(
    regFile,
    JSON.stringify({
      pid,
      name: opts.name,
      command: opts.command,
      owner: selfId,
      startTime: startTime(pid) ?? null,
      startedAt: new Date().toISOString(),
    }),
  );

  const unregisterEmergency = onEmergency(() => {
    killGroup(pid, "SIGKILL");
    rmSync(regFile, { force: true });
  });
  let done = false;
  const exited = new Promise<Exit>((resolveExit) => {
    child.on("exit", (code, signal) => {
      done = true;
      // Anything left in the group (the watchdog, or grandchildren) goes too.
      killGroup(pid, "SIGKILL");
      unregisterEmergency();
      rmSync(regFile, { force: true });
      resolveExit({ code, signal });
    });
  });
  // Do not keep the event loop alive for the children: if a test forgets stop(), the
  // process still exits and the exit hook kills the children.
  child.unref();

  const tracked: TrackedProcess = {
    name: opts.name,
    pid,
    logPath: opts.logPath,
    exited,
    running: () => !done,
    stop: async (graceMs = 5000) => {
      if (done) {
        await exited;
        return;
      }
      killGroup(pid, "SIGTERM");
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<"timeout">((r) => {
        timer = setTimeout(() => r("timeout"), graceMs);
      });
      const first = await Promise.race([exited, timeout]);
      clearTimeout(timer);
      if (first === "timeout") {
        killGroup(pid, "SIGKILL");
        await exited;
      }
    },
    kill: async () => {
      if (!done) killGroup(pid, "SIGKILL");
      await exited;
    },
    logTail: (lines = 40) => {
      try {
        const text = readFileSync(opts.logPath, "utf8");
        return text.split("\n").slice(-lines).join("\n");
      } catch {
        return "";
      }
    },
  };
  return tracked;
}

// ---------------------------------------------------------------------------------------

function readOwnerFromEnviron(pid: number): string | undefined {
  try {
    const env = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
    const entry = env.find((e) => e.startsWith(`${OWNER_ENV}=`));
    return entry?.slice(OWNER_ENV.length + 1);
  } catch {
    return undefined;
  }
}

interface RegistryEntry {
  readonly pid: number;
  readonly name: string;
  readonly owner: string;
  readonly startTime: string | null;
}

function readRegistry(): Map<number, RegistryEntry> {
  const result = new Map<number, RegistryEntry>();
  const dir = registryDir();
  if (!existsSync(dir)) return result;
  for (const f of readdirSync(dir)) {
    if (!f.endsWith(".json")) continue;
    try {
      const entry = JSON.parse(readFileSync(join(dir, f), "utf8")) as RegistryEntry;
      result.set(entry.pid, entry);
    } catch {
      // ignore torn/corrupt entries
    }
  }
  return result;
}

export interface Leftover {
  readonly pid: number;
  readonly exe: string;
  readonly cmdline: string;
  readonly owner: string | undefined;
  readonly reason: string;
}

/**
 * Processes running a binary from the envtest cache (any build) that should not be running:
 * started by this process, or by a process that no longer exists, or of unknown origin.
 * Binaries owned by another live process (a concurrent test run) are not reported.
 * Stale registry entries of dead processes are removed as a side effect.
 */
export async function leftoverProcessDetails(): Promise<Leftover[]> {
  const roots = [envtestCacheDir() + "/"];
  const override = process.env["ENVTEST_BIN_DIR"];
  if (override !== undefined && override !== "") roots.push(override.replace(/\/?$/, "/"));
  const registry = readRegistry();
  const found: Leftover[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    let exe: string;
    try {
      exe = readlinkSync(`/proc/${pid}/exe`).replace(/ \(deleted\)$/, "");
    } catch {
      continue;
    }
    if (!roots.some((r) => exe.startsWith(r))) continue;
    // A zombie or a process that is exiting still counts only while it exists.
    let cmdline = "";
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
    } catch {
      continue;
    }
    const candidate = registry.get(pid);
    const reg = candidate !== undefined && (candidate.startTime === null || candidate.startTime === startTime(pid)) ? candidate : undefined;
    const owner = reg?.owner ?? readOwnerFromEnviron(pid);
    let reason: string | undefined;
    if (owner === undefined) {
      const ppid = parentPid(pid);
      reason = `unknown owner (parent ${ppid ?? "?"})`;
    } else if (owner === selfId) {
      reason = "started by this process and still running";
    } else if (!ownerAlive(owner)) {
      reason = `owner ${owner} is gone`;
    }
    if (reason !== undefined) found.push({ pid, exe, cmdline, owner, reason });
  }
  // Prune registry entries whose process is gone (or whose pid was reused).
  for (const [pid, entry] of registry) {
    const now = startTime(pid);
    if (now === undefined || (entry.startTime !== null && now !== entry.startTime)) {
      rmSync(join(registryDir(), `${pid}.json`), { force: true });
    }
  }
  return found;
}

/** Human-readable form of leftoverProcessDetails(): `pid <n> <exe> (<reason>): <cmdline>`. */
export async function leftoverProcesses(): Promise<string[]> {
  return (await leftoverProcessDetails()).map(
    (l) => `pid ${l.pid} ${l.exe} (${l.reason}): ${l.cmdline.slice(0, 300)}`,
  );
}

/** SIGKILL the leftovers found now; returns what was killed. */
export async function killLeftovers(): Promise<string[]> {
  const details = await leftoverProcessDetails();
  for (const l of details) {
    try {
      process.kill(l.pid, "SIGKILL");
    } catch {
      // gone
    }
  }
  return details.map((l) => `pid ${l.pid} ${l.exe} (${l.reason})`);
}
