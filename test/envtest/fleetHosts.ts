/**
 * Where the node fleet's roles run (nodeFleet.ts): all in the fleet's own process (the
 * integration tests), or the controller in a worker process of its own and the node roles
 * spread over several more (fleetWorker.ts; the scale benchmark), as on a real cluster.
 * Either way a host starts and stops its node roles, waits for addresses in its nodes'
 * volumes, and samples its process.
 */
import { fork } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import { fileURLToPath } from "node:url"
import { fleetRoles } from "./fleetRoles.ts"
import type { FleetRolesConfig } from "./fleetRoles.ts"
import { awaitAddresses, sampleProcess } from "./fleetProbe.ts"
import type { AddressTarget, ProcessSample } from "./fleetProbe.ts"
import type { FleetWorkerConfig, FleetWorkerRequest } from "./fleetWorker.ts"

export interface FleetHost {
  /** "fleet" (the fleet's own process), "controller", or "nodes-<i>". */
  readonly name: string
  readonly controller: boolean
  readonly nodes: ReadonlyArray<string>
  startNodeRoles(): Promise<void>
  stopNodeRoles(): Promise<void>
  /**
   * Starts watching the targets (on this host's nodes); resolves once armed, with a function
   * that resolves with the wall-clock ms at which each target showed its address.
   */
  watchAddresses(targets: ReadonlyArray<AddressTarget>, timeoutMs: number): Promise<() => Promise<Array<number>>>
  sample(options?: { readonly gc?: boolean; readonly reset?: boolean }): Promise<ProcessSample>
  stop(): Promise<void>
}

/** Every role in this process. */
export const inProcessHost = async (config: FleetRolesConfig & { readonly controller: boolean; readonly nodes: ReadonlyArray<string> }): Promise<FleetHost> => {
  const roles = await fleetRoles(config)
  const stopController = config.controller ? await roles.startController() : undefined
  let stopNodes: (() => Promise<void>) | undefined
  const stopNodeRoles = async () => {
    await stopNodes?.()
    stopNodes = undefined
  }
  return {
    name: "fleet",
    controller: config.controller,
    nodes: config.nodes,
    startNodeRoles: async () => {
      if (stopNodes === undefined) stopNodes = await roles.startNodeRoles(config.nodes)
    },
    stopNodeRoles,
    watchAddresses: async (targets, timeoutMs) => {
      const seen = awaitAddresses(targets, timeoutMs)
      seen.catch(() => undefined)
      return () => seen
    },
    sample: async (options) => sampleProcess(options),
    stop: async () => {
      await stopNodeRoles()
      await stopController?.()
    }
  }
}

const WORKER = fileURLToPath(new URL("./fleetWorker.ts", import.meta.url))

/** A worker process (fleetWorker.ts) holding the controller role or `nodes`' node roles. */
export const forkedHost = async (name: string, config: FleetWorkerConfig, startTimeoutMs = 120_000): Promise<FleetHost> => {
  const child: ChildProcess = fork(WORKER, [], {
    // --expose-gc: its memory is read after full GCs, as the benchmark's own.
    execArgv: ["--expose-gc", "--import", import.meta.resolve("tsx")],
    env: { ...process.env, FLEET_WORKER: JSON.stringify(config) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    serialization: "json"
  })
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>()
  let nextId = 0
  let exited: Error | undefined
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`fleet worker ${name} not ready within ${startTimeoutMs} ms`)), startTimeoutMs)
    child.on("message", (message: { ready?: true; id?: number; ok?: boolean; value?: unknown; error?: string }) => {
      if (message.ready === true) {
        clearTimeout(timer)
        resolve()
        return
      }
      const waiter = pending.get(message.id!)
      pending.delete(message.id!)
      if (message.ok === true) waiter?.resolve(message.value)
      else waiter?.reject(new Error(`fleet worker ${name}: ${message.error}`))
    })
    child.on("exit", (code, signal) => {
      clearTimeout(timer)
      exited = new Error(`fleet worker ${name} exited (${code ?? signal})`)
      reject(exited)
      for (const waiter of pending.values()) waiter.reject(exited)
      pending.clear()
    })
  })
  const call = <A>(request: FleetWorkerRequest): Promise<A> => {
    if (exited !== undefined) return Promise.reject(exited)
    const id = nextId++
    return new Promise<A>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
      child.send({ id, ...request })
    })
  }
  try {
    await ready
  } catch (error) {
    child.kill("SIGKILL")
    throw error
  }
  return {
    name,
    controller: config.controller,
    nodes: config.nodes,
    startNodeRoles: () => call({ op: "startNodeRoles" }),
    stopNodeRoles: () => call({ op: "stopNodeRoles" }),
    watchAddresses: async (targets, timeoutMs) => {
      const key = nextId++
      await call({ op: "watchAddresses", key, targets, timeoutMs })
      return () => call<Array<number>>({ op: "addressesSeen", key })
    },
    sample: (options) => call({ op: "sample", ...options }),
    stop: async () => {
      if (exited !== undefined) return
      const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()))
      await Promise.race([call({ op: "stop" }).catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 15_000))])
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000)
      await gone
      clearTimeout(timer)
    }
  }
}
