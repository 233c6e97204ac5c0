// The compiled controller at scale, started as the chart starts it (`node <controller.nodeFlags>
// dist/bin/main.js run controller`, flags read from values.yaml; NODE_FLAGS replaces them),
// against a real local API server (test/envtest): for each count N, N Listeners of a
// headless ClusterIP class are created, the controller is started, and then restarted with
// nothing changed. Per N:
//   - requests the controller sent to converge, and after its restart, by verb (its own
//     counter, listener_operator_kube_api_requests_total — the benchmark's own requests are
//     not in it), per Listener;
//   - time from start to all N Listeners addressed;
//   - steady RSS (VmRSS, 5 s after all are addressed, median of 5 samples 1 s apart);
//   - peak RSS of the first start and of the restart (VmHWM: the kernel's high-water mark
//     of the process, so no sample can miss the peak), the restart measured until the
//     controller has reconciled all N again and 5 s more.
//
//   npm run build && node --import tsx bench/controllerRestart.bench.ts [counts=1000,10000]
//
// Figures and the command are recorded in docs/performance.md.
import { spawn } from "node:child_process"
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
// CONTROLLER_MAIN: another build's bundle (e.g. an older commit's), to compare
const MAIN = process.env["CONTROLLER_MAIN"] ?? join(repoRoot, "dist", "bin", "main.js")
const counts = (process.argv[2] ?? "1000,10000").split(",").map(Number).filter((count) => count > 0)
const values = parse(readFileSync(join(repoRoot, "deploy", "helm", "listener-operator", "values.yaml"), "utf8")) as {
  controller: { nodeFlags?: ReadonlyArray<string> | null; nodeOptions?: string }
}
const flags = process.env["NODE_FLAGS"]?.split(" ").filter((f) => f !== "") ?? values.controller.nodeFlags ?? []

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const statusKiB = (pid: number, field: "VmRSS" | "VmHWM"): number => {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith(`${field}:`))!
  return Number(line.split(/\s+/u)[1])
}
const mib = (kib: number) => kib / 1024
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")

interface Controller {
  readonly pid: number
  metrics(): Promise<string>
  stop(): Promise<void>
}

async function startController(plane: ControlPlane): Promise<Controller> {
  const dir = mkdtempSync(join(tmpdir(), "restart-bench-"))
  const port = await freePort()
  const child = spawn(process.execPath, [...flags, MAIN, "run", "controller"], {
    env: {
      ...process.env,
      NODE_OPTIONS: values.controller.nodeOptions ?? "",
      KUBECONFIG: jsonKubeconfig(plane),
      CSI_ENDPOINT: join(dir, "csi.sock"),
      LISTENER_CLASS_PRESET: "none",
      METRICS_PORT: String(port),
      LOG_LEVEL: "warn"
    },
    stdio: ["ignore", "ignore", "inherit"]
  })
  const metrics = async () => {
    try {
      return await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()
    } catch {
      return ""
    }
  }
  return {
    pid: child.pid!,
    metrics,
    stop: async () => {
      const exited = new Promise((r) => child.once("exit", r))
      child.kill("SIGTERM")
      const timedOut = await Promise.race([exited.then(() => false), sleep(10_000).then(() => true)])
      if (timedOut) {
        child.kill("SIGKILL")
        await exited
      }
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

/** Sum of a counter's samples whose labels match all of `labels`, by the value of label `by`. */
const counterBy = (text: string, name: string, by: string, labels: Record<string, string> = {}): Map<string, number> => {
  const result = new Map<string, number>()
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`)) continue
    const found = Object.fromEntries([...line.matchAll(/(\w+)="([^"]*)"/gu)].map((m) => [m[1]!, m[2]!]))
    if (!Object.entries(labels).every(([k, v]) => found[k] === v)) continue
    const key = found[by] ?? ""
    result.set(key, (result.get(key) ?? 0) + Number(line.slice(line.lastIndexOf(" ") + 1)))
  }
  return result
}
const requestsByVerb = (text: string) => counterBy(text, "listener_operator_kube_api_requests_total", "verb")
const reconciledListeners = (text: string) =>
  [...counterBy(text, "controller_runtime_reconcile_total", "controller")].filter(([name]) => /listener/iu.test(name) && !/node|loss/iu.test(name))
    .reduce((n, [, v]) => n + v, 0)
const fmtVerbs = (byVerb: Map<string, number>, per: number) =>
  [...byVerb].sort().map(([verb, n]) => `${verb} ${n} (${(n / per).toFixed(3)}/Listener)`).join(", ") || "none"

async function main() {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: npm run build`)
  console.log(`# controller at scale: ${MAIN}, node ${process.version}, flags ${flags.join(" ") || "none"}, load ${load()}`)
  const plane = await startControlPlane()
  try {
    await installHeadlessClass(plane)
    for (const count of counts) {
      const namespace = `restart-${count}`
      const created = performance.now()
      await createListeners(plane, namespace, count)
      console.log(`N=${count}: created in ${((performance.now() - created) / 1000).toFixed(1)} s (load ${load()})`)

      const t = performance.now()
      const first = await startController(plane)
      await eventually(`${count} Listeners addressed`, async () => (await addressedListeners(plane, namespace)) >= count, { timeoutMs: 3_600_000, intervalMs: 2000 })
      const converged = (performance.now() - t) / 1000
      await sleep(5000)
      const steady: number[] = []
      for (let i = 0; i < 5; i++) {
        steady.push(statusKiB(first.pid, "VmRSS"))
        await sleep(1000)
      }
      const firstPeak = statusKiB(first.pid, "VmHWM")
      const firstRequests = requestsByVerb(await first.metrics())
      await first.stop()

      const restartedAt = performance.now()
      const second = await startController(plane)
      await eventually(`${count} Listeners reconciled after the restart`, async () => reconciledListeners(await second.metrics()) >= count, { timeoutMs: 3_600_000, intervalMs: 500 })
      const restartSeconds = (performance.now() - restartedAt) / 1000
      await sleep(5000)
      const restartPeak = statusKiB(second.pid, "VmHWM")
      const restartSteady = statusKiB(second.pid, "VmRSS")
      const restartRequests = requestsByVerb(await second.metrics())
      await second.stop()

      console.log(`N=${count}: converged in ${converged.toFixed(1)} s; requests ${fmtVerbs(firstRequests, count)}`)
      console.log(`N=${count}: steady RSS ${mib(median(steady)).toFixed(1)} MiB; first start peak ${mib(firstPeak).toFixed(1)} MiB`)
      console.log(`N=${count}: restart: all reconciled in ${restartSeconds.toFixed(1)} s; peak RSS ${mib(restartPeak).toFixed(1)} MiB (${(restartPeak / median(steady)).toFixed(2)}× steady), RSS after ${mib(restartSteady).toFixed(1)} MiB; requests ${fmtVerbs(restartRequests, count)} (load ${load()})`)
      await removeListeners(plane, namespace)
    }
  } finally {
    await plane.stop()
  }
}

await main()
