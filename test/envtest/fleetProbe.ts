/**
 * What the node fleet measures inside each of its processes (nodeFleet.ts, fleetWorker.ts):
 * when a volume's files show an address (wall-clock ms, comparable across processes), and
 * the process's memory, CPU time and event-loop delay.
 */
import { readFileSync, watch } from "node:fs"
import type { FSWatcher } from "node:fs"
import { join } from "node:path"
import { monitorEventLoopDelay } from "node:perf_hooks"

/** Wall-clock ms with sub-ms resolution; the same clock in every process of the machine. */
export const wallClock = (): number => performance.timeOrigin + performance.now()

export interface AddressTarget {
  readonly targetPath: string
  readonly address: string
}

const addressIn = (targetPath: string): string | undefined => {
  try {
    return readFileSync(join(targetPath, "default-address", "address"), "utf8")
  } catch {
    return undefined
  }
}

/**
 * Per target (same order): the wall-clock ms at which its `default-address/address` first
 * read `address`. Checked on each inotify event of the target directory (the tree's swap is
 * a rename of `..data` inside it, writeVolumeTree.ts) and, in case one is missed, every `pollMs`. Not
 * polled fast: polling 200 files every 20 ms took ≈ 15 % of a node-role worker's CPU in the
 * measured window (profiled), work the node roles' process would not do on a real node.
 */
export const awaitAddresses = (targets: ReadonlyArray<AddressTarget>, timeoutMs: number, pollMs = 250): Promise<Array<number>> =>
  new Promise((resolve, reject) => {
    const seen: Array<number | undefined> = targets.map(() => undefined)
    let left = targets.length
    const watchers: Array<FSWatcher> = []
    const finish = (error?: Error) => {
      clearInterval(poll)
      clearTimeout(timer)
      for (const watcher of watchers) watcher.close()
      if (error !== undefined) reject(error)
      else resolve(seen as Array<number>)
    }
    const check = (index: number) => {
      if (seen[index] !== undefined || addressIn(targets[index]!.targetPath) !== targets[index]!.address) return
      seen[index] = wallClock()
      if (--left === 0) finish()
    }
    const checkAll = () => targets.forEach((_, index) => check(index))
    const poll = setInterval(checkAll, pollMs)
    const timer = setTimeout(() => finish(new Error(`${left} of ${targets.length} volume(s) never showed the new address within ${timeoutMs} ms`)), timeoutMs)
    targets.forEach((target, index) => {
      try {
        // Only the swap of `..data` can show a new address; a write's other events (its new
        // version's directory, the temporary link, the old version's removal) are skipped,
        // so the probe's reads do not count as the node role's CPU.
        watchers.push(watch(target.targetPath, (_, name) => {
          if (name === null || name === "..data") check(index)
        }))
      } catch {
        // Not there (yet): the poll covers it.
      }
    })
    if (targets.length === 0) finish()
    else checkAll()
  })

export interface ProcessSample {
  readonly pid: number
  /** After two full GCs when the process runs with --expose-gc. */
  readonly heapUsed: number
  readonly rss: number
  /** CPU time (user + system) since the last reset, ms. */
  readonly cpuMs: number
  /**
   * Event-loop delay since the last reset, ms: how late the histogram's 10 ms timer fired
   * (perf_hooks.monitorEventLoopDelay records the whole interval; the 10 ms are taken off).
   */
  readonly loopDelay: { readonly p50: number; readonly p99: number; readonly max: number }
}

const RESOLUTION_MS = 10
const loopDelay = monitorEventLoopDelay({ resolution: RESOLUTION_MS })
loopDelay.enable()
let cpuSince = process.cpuUsage()

/** This process's sample; `reset` starts the next CPU and event-loop delay window now. */
export const sampleProcess = (options: { readonly gc?: boolean; readonly reset?: boolean } = {}): ProcessSample => {
  if (options.gc === true) {
    ;(globalThis as { gc?: () => void }).gc?.()
    ;(globalThis as { gc?: () => void }).gc?.()
  }
  const memory = process.memoryUsage()
  const cpu = process.cpuUsage(cpuSince)
  const ms = (ns: number) => Number.isFinite(ns) ? Math.max(0, ns / 1e6 - RESOLUTION_MS) : 0
  const sample: ProcessSample = {
    pid: process.pid,
    heapUsed: memory.heapUsed,
    rss: memory.rss,
    cpuMs: (cpu.user + cpu.system) / 1000,
    loopDelay: { p50: ms(loopDelay.percentile(50)), p99: ms(loopDelay.percentile(99)), max: ms(loopDelay.max) }
  }
  if (options.reset === true) {
    loopDelay.reset()
    cpuSince = process.cpuUsage()
  }
  return sample
}
