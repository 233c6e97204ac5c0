/**
 * A worker process of the node fleet (nodeFleet.ts with `processes`): our controller role,
 * or a share of the fleet's node roles, in a process of its own — as on a real cluster,
 * where the controller has its own Pod and each node plugin runs on its own node. Forked by
 * fleetHosts.ts with its configuration in FLEET_WORKER; answers the fleet's requests over
 * the IPC channel ({ id, op, args } → { id, ok, value | error }) and ends when the fleet
 * asks it to or its channel closes (the fleet's process ended).
 */
import { Session } from "node:inspector/promises"
import { writeFileSync } from "node:fs"
import { fleetRoles } from "./fleetRoles.ts"
import type { FleetRolesConfig } from "./fleetRoles.ts"
import { awaitAddresses, sampleProcess } from "./fleetProbe.ts"
import type { AddressTarget } from "./fleetProbe.ts"

export interface FleetWorkerConfig extends FleetRolesConfig {
  readonly controller: boolean
  readonly nodes: ReadonlyArray<string>
}

export type FleetWorkerRequest =
  | { readonly op: "startNodeRoles" }
  | { readonly op: "stopNodeRoles" }
  | { readonly op: "sample"; readonly gc?: boolean; readonly reset?: boolean }
  | { readonly op: "watchAddresses"; readonly key: number; readonly targets: ReadonlyArray<AddressTarget>; readonly timeoutMs: number }
  | { readonly op: "addressesSeen"; readonly key: number }
  | { readonly op: "stop" }

const config = JSON.parse(process.env["FLEET_WORKER"] ?? "null") as FleetWorkerConfig | null
if (config === null || process.send === undefined) throw new Error("fleetWorker.ts runs only as the node fleet's forked worker (FLEET_WORKER, an IPC channel)")
const send = (message: unknown) => process.send!(message)

const roles = await fleetRoles(config)

/**
 * FLEET_CPU_PROFILE=<dir> (profiling only): each measurement window — between two samples
 * with `reset` — is profiled by V8's sampling profiler and written to
 * `<dir>/<pid>-<n>.cpuprofile` when it closes, so a profile covers one address change
 * and not the start-up or the publishing before it (nodeScale.bench.ts: n = 1 the Node
 * changes, 2 the time between, 3 the load balancer's change).
 */
const profileDir = process.env["FLEET_CPU_PROFILE"]
const profiler = profileDir === undefined || config.nodes.length === 0 ? undefined : new Session()
let profiles = 0
const nextProfile = async () => {
  if (profiler === undefined) return
  if (profiles > 0) {
    const { profile } = await profiler.post("Profiler.stop")
    writeFileSync(`${profileDir}/${process.pid}-${profiles}.cpuprofile`, JSON.stringify(profile))
  } else {
    profiler.connect()
    await profiler.post("Profiler.enable")
  }
  profiles++
  await profiler.post("Profiler.start")
}
const watching = new Map<number, Promise<Array<number>>>()
let stopController: (() => Promise<void>) | undefined
let stopNodes: (() => Promise<void>) | undefined
const stopAll = async () => {
  await stopNodes?.()
  stopNodes = undefined
  await stopController?.()
  stopController = undefined
}

const handle = async (request: FleetWorkerRequest): Promise<unknown> => {
  switch (request.op) {
    case "startNodeRoles":
      if (stopNodes === undefined) stopNodes = await roles.startNodeRoles(config.nodes)
      return undefined
    case "stopNodeRoles":
      await stopNodes?.()
      stopNodes = undefined
      return undefined
    case "sample": {
      const sample = sampleProcess(request)
      if (request.reset === true) await nextProfile()
      return sample
    }
    case "watchAddresses": {
      // Armed when this answers: the caller makes its change only then.
      const seen = awaitAddresses(request.targets, request.timeoutMs)
      seen.catch(() => undefined)
      watching.set(request.key, seen)
      return undefined
    }
    case "addressesSeen": {
      const seen = watching.get(request.key)
      watching.delete(request.key)
      if (seen === undefined) throw new Error(`no address watch ${request.key}`)
      return seen
    }
    case "stop":
      await stopAll()
      setImmediate(() => process.exit(0))
      return undefined
  }
}

process.on("message", (message: { readonly id: number } & FleetWorkerRequest) => {
  handle(message).then(
    (value) => send({ id: message.id, ok: true, value }),
    (error: unknown) => send({ id: message.id, ok: false, error: error instanceof Error ? `${error.message}\n${error.stack}` : String(error) })
  )
})
// The fleet's process is gone: nothing of ours may outlive it.
process.on("disconnect", () => void stopAll().finally(() => process.exit(0)))

if (config.controller) stopController = await roles.startController()
send({ ready: true })
