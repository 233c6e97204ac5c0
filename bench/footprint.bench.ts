// Footprint of the compiled operator (dist/bin, what the image ships), against a real
// local API server (test/envtest): for each role, time from process start to the CSI
// socket and to /readyz, and RSS once idle, beside a bare `node` process; `--help` time;
// controller RSS with many Listeners (a headless ClusterIP class: no cluster IP to
// allocate, as in the recorded figures).
//
//   npm run build && node --import tsx bench/footprint.bench.ts [runs=3] [listenerCounts=1000,5000,10000]
//
// Each role runs as the chart runs it: `node <role.nodeFlags> main.js run <role>` with
// NODE_OPTIONS=<role.nodeOptions>, both read from the chart's values.yaml. NODE_FLAGS
// (e.g. "--max-semi-space-size=1") replaces a role's nodeFlags, to compare settings.
// The roles read a JSON kubeconfig: in a cluster they read no kubeconfig at all (the
// service account's files), so they never load the YAML parser a YAML kubeconfig needs.
// Figures and the command are recorded in docs/performance.md.
import { spawn, spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parse } from "yaml"
import { startControlPlane } from "../test/envtest/controlPlane.ts"
import type { ControlPlane } from "../test/envtest/controlPlane.ts"
import { eventually } from "../test/envtest/kubeClient.ts"
import { freePort } from "../test/envtest/ports.ts"
import { addressedListeners, createListeners, installHeadlessClass, jsonKubeconfig, removeListeners } from "./headlessListeners.ts"

const repoRoot = join(import.meta.dirname, "..")
const MAIN = join(repoRoot, "dist", "bin", "main.js")
const runs = Number(process.argv[2] ?? 3)
const counts = (process.argv[3] ?? "1000,5000,10000").split(",").map(Number).filter((count) => count > 0)
const flagsOverride = process.env["NODE_FLAGS"]?.split(" ").filter((f) => f !== "")

type Role = "node" | "controller"
interface RoleValues {
  readonly nodeFlags?: ReadonlyArray<string> | null
  readonly nodeOptions?: string
}
const chartValues = parse(readFileSync(join(repoRoot, "deploy", "helm", "listener-operator", "values.yaml"), "utf8")) as Record<Role, RoleValues>
/** How the chart starts a role: flags before the script, and NODE_OPTIONS. */
const launchOf = (role: Role): { readonly flags: ReadonlyArray<string>; readonly nodeOptions: string } => ({
  flags: flagsOverride ?? chartValues[role].nodeFlags ?? [],
  nodeOptions: chartValues[role].nodeOptions ?? ""
})

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
/** Role processes that had not exited 10 s after SIGTERM (reported at the end). */
let hungExits = 0
const rssMiB = (pid: number): number => {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"))!
  return Number(line.split(/\s+/u)[1]) / 1024
}
const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return { min: sorted[0]!, median: sorted[Math.floor(sorted.length / 2)]!, max: sorted.at(-1)! }
}
const fmt = (s: { min: number; median: number; max: number }, unit: string, digits = 0) =>
  `${s.min.toFixed(digits)} / ${s.median.toFixed(digits)} / ${s.max.toFixed(digits)} ${unit}`

const readyz = async (port: number): Promise<boolean> => {
  try {
    return (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200
  } catch {
    return false
  }
}

interface RoleRun {
  readonly pid: number
  readonly socketMs: number
  readonly readyMs: number
  stop(): Promise<void>
}

async function startRole(plane: ControlPlane, role: Role): Promise<RoleRun> {
  const dir = mkdtempSync(join(tmpdir(), "footprint-"))
  const socket = join(dir, "csi.sock")
  const port = await freePort()
  const launch = launchOf(role)
  const started = performance.now()
  const child = spawn(process.execPath, [...launch.flags, MAIN, "run", role], {
    env: {
      ...process.env,
      NODE_OPTIONS: launch.nodeOptions,
      KUBECONFIG: jsonKubeconfig(plane),
      CSI_ENDPOINT: socket,
      KUBERNETES_NODE_NAME: "bench-node",
      LISTENER_CLASS_PRESET: "none",
      METRICS_PORT: String(port),
      LOG_LEVEL: "warn"
    },
    stdio: "ignore"
  })
  let socketMs = 0
  while (!existsSync(socket)) {
    if (child.exitCode !== null) throw new Error(`${role} exited with ${child.exitCode}`)
    await sleep(2)
  }
  socketMs = performance.now() - started
  while (!(await readyz(port))) await sleep(5)
  const readyMs = performance.now() - started
  return {
    pid: child.pid!,
    socketMs,
    readyMs,
    stop: async () => {
      const exited = new Promise((r) => child.once("exit", r))
      child.kill("SIGTERM")
      // Node can deadlock in its own platform shutdown after the process is done
      // (nodejs/node#54918: main thread joining a V8 worker that waits for a GC); the
      // kubelet SIGKILLs such a Pod after its grace period, and so does the benchmark.
      const timedOut = await Promise.race([exited.then(() => false), sleep(10_000).then(() => true)])
      if (timedOut) {
        hungExits++
        child.kill("SIGKILL")
        await exited
      }
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

async function main() {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: npm run build`)
  const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")
  const roles = (["node", "controller"] as const).map((role) => `${role}: ${[...launchOf(role).flags, ...(launchOf(role).nodeOptions === "" ? [] : [`NODE_OPTIONS=${launchOf(role).nodeOptions}`])].join(" ") || "no flags"}`)
  console.log(`# footprint of ${MAIN} (node ${process.version}; ${roles.join("; ")}), load ${load}, ${runs} runs, min / median / max`)
  const help = Array.from({ length: runs }, () => {
    const t = performance.now()
    spawnSync(process.execPath, [...launchOf("node").flags, MAIN, "--help"], { stdio: "ignore", env: { ...process.env, NODE_OPTIONS: launchOf("node").nodeOptions } })
    return performance.now() - t
  })
  console.log(`--help: ${fmt(stats(help), "ms")}`)
  // The yardstick: a bare Node process with the node role's flags, idle as long as the roles.
  const bare = await Promise.all(Array.from({ length: runs }, async () => {
    const child = spawn(process.execPath, [...launchOf("node").flags, "-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" })
    await sleep(3000)
    const rss = rssMiB(child.pid!)
    child.kill("SIGKILL")
    return rss
  }))
  const bareMedian = stats(bare).median
  console.log(`bare node -e: idle RSS ${fmt(stats(bare), "MiB", 1)}`)

  const plane = await startControlPlane()
  try {
    await installHeadlessClass(plane)
    for (const role of ["node", "controller"] as const satisfies ReadonlyArray<Role>) {
      const socket: number[] = []
      const ready: number[] = []
      const rss: number[] = []
      for (let i = 0; i < runs; i++) {
        const run = await startRole(plane, role)
        socket.push(run.socketMs)
        ready.push(run.readyMs)
        await sleep(3000)
        rss.push(rssMiB(run.pid))
        await run.stop()
      }
      console.log(`${role} role: start → CSI socket ${fmt(stats(socket), "ms")}; → /readyz ${fmt(stats(ready), "ms")}; idle RSS ${fmt(stats(rss), "MiB", 1)} (median ${(stats(rss).median / bareMedian).toFixed(2)}× bare node)`)
    }
    for (const count of counts) {
      const rss: number[] = []
      const seconds: number[] = []
      for (let i = 0; i < runs; i++) {
        const namespace = `bench-${count}-${i}`
        await createListeners(plane, namespace, count)
        const t = performance.now()
        const run = await startRole(plane, "controller")
        await eventually(`${count} Listeners addressed`, async () => (await addressedListeners(plane, namespace)) >= count, { timeoutMs: 1_800_000, intervalMs: 2000 })
        seconds.push((performance.now() - t) / 1000)
        await sleep(3000)
        rss.push(rssMiB(run.pid))
        await run.stop()
        await removeListeners(plane, namespace)
      }
      console.log(`controller with ${count} Listeners: RSS ${fmt(stats(rss), "MiB", 1)}; start → all addressed ${fmt(stats(seconds), "s", 1)}`)
    }
    console.log(`role processes SIGKILLed because they had not exited 10 s after SIGTERM: ${hungExits}`)
  } finally {
    await plane.stop()
  }
}

await main()
