/**
 * Stable node ports (spec §7): the node ports a NodePort Listener was given are remembered
 * on its status (`status.nodePorts`) and asked for again whenever its Service is applied —
 * so a Service that is deleted and re-created gets the same ports back, and clients pinned
 * to `<node>:<port>` keep working. A port someone else took meanwhile is a conflict the
 * API server refuses (reported as NodePortConflict), never silently replaced.
 *
 * The requested `nodePort`s are added after the applied-fingerprint is computed: they
 * only restate what the live Service already has, so a Listener whose status just learned
 * its ports is not re-applied (still one Service write per new Listener).
 */
import type { DesiredService } from "./desiredService.ts"
import { isJsonObject } from "./json.ts"

export const withRememberedNodePorts = (
  desired: DesiredService,
  remembered: Readonly<Record<string, number>> | undefined
): DesiredService => {
  if (remembered === undefined || Object.keys(remembered).length === 0) return desired
  const ports = desired.spec["ports"]
  if (!Array.isArray(ports)) return desired
  const withPorts = ports.map((port: unknown) => {
    if (!isJsonObject(port) || typeof port["name"] !== "string") return port
    // A nodePort the class or the Listener asks for (overrides) wins over the remembered one.
    if (typeof port["nodePort"] === "number" && port["nodePort"] !== 0) return port
    const nodePort = remembered[port["name"]]
    return nodePort === undefined ? port : { ...port, nodePort }
  })
  return { ...desired, spec: { ...desired.spec, ports: withPorts } }
}

/** The node ports remembered on a live Listener status (only well-formed entries). */
export const rememberedNodePorts = (liveStatus: unknown): Readonly<Record<string, number>> | undefined => {
  if (!isJsonObject(liveStatus) || !isJsonObject(liveStatus["nodePorts"])) return undefined
  const entries = Object.entries(liveStatus["nodePorts"]).filter(
    (entry): entry is [string, number] => Number.isInteger(entry[1]) && (entry[1] as number) > 0 && (entry[1] as number) <= 65535
  )
  return entries.length === 0 ? undefined : Object.fromEntries(entries)
}
