/**
 * The Listener status the controller should report, and whether the live status already
 * says so (then nothing is written).
 *
 * `Ready` is True when the Service exists and at least one address is known. Its reason
 * says why not otherwise; the error reasons come from `effects/controller/listenerErrors.ts`.
 * `lastTransitionTime` moves only when the condition's status flips, as the Kubernetes API
 * conventions ask.
 */
import type { RefusedAddress } from "./addresses.ts"
import type { ListenerIngress } from "./inputs.ts"
import { isJsonObject, jsonEquals } from "./json.ts"

export type ReadyReason =
  | "Reconciled"
  | "AwaitingAddresses"
  | "NoClassName"
  | "ListenerClassNotFound"
  | "ServiceConflict"
  | "NodePortConflict"
  | "InvalidSpec"
  | "ClassNotAllowed"

export interface Condition {
  readonly type: string
  readonly status: "True" | "False" | "Unknown"
  readonly reason: string
  readonly message: string
  readonly observedGeneration?: number
  readonly lastTransitionTime: string
}

export interface ListenerStatus {
  readonly serviceName?: string
  readonly ingressAddresses?: ReadonlyArray<ListenerIngress>
  readonly nodePorts?: Readonly<Record<string, number>>
  readonly conditions: ReadonlyArray<Condition>
  readonly observedGeneration?: number
}

export const READY = "Ready"

const conditionsOf = (status: unknown): ReadonlyArray<unknown> =>
  isJsonObject(status) && Array.isArray(status["conditions"]) ? status["conditions"] : []

/** What every status plan starts from: the Listener's generation, its live status, the time now. */
interface StatusBasis {
  readonly generation: number | undefined
  readonly liveStatus: unknown
  readonly now: string
}

/** The Ready condition, keeping the live `lastTransitionTime` unless the status flips. */
export const readyCondition = (args: StatusBasis & {
  readonly ready: boolean
  readonly reason: ReadyReason
  readonly message: string
}): Condition => {
  const status = args.ready ? "True" : "False"
  const live = conditionsOf(args.liveStatus).find((c) => isJsonObject(c) && c["type"] === READY)
  const keepTime = isJsonObject(live) && live["status"] === status && typeof live["lastTransitionTime"] === "string"
  return {
    type: READY,
    status,
    reason: args.reason,
    message: args.message,
    ...(args.generation !== undefined ? { observedGeneration: args.generation } : {}),
    lastTransitionTime: keepTime ? (live["lastTransitionTime"] as string) : args.now
  }
}

export interface ReconciledStatusInputs extends StatusBasis {
  readonly serviceName: string
  readonly addresses: ReadonlyArray<ListenerIngress>
  /** Present only for NodePort classes. */
  readonly nodePorts: Readonly<Record<string, number>> | undefined
  /** Candidate addresses left out as unusable; named in the Ready message. */
  readonly refused?: ReadonlyArray<RefusedAddress> | undefined
  /** Without addresses: what they wait for (awaitingAddresses.ts), appended to the message. */
  readonly awaiting?: string | undefined
}

const MAX_NAMED_REFUSALS = 5

/** `; ignored 2 unusable address(es): "../x" contains '/', "a b" is neither …` (bounded). */
export const refusalNote = (refused: ReadonlyArray<RefusedAddress>): string => {
  if (refused.length === 0) return ""
  const named = refused.slice(0, MAX_NAMED_REFUSALS).map((r) => `${JSON.stringify(r.address)} ${r.problem}`)
  const more = refused.length > MAX_NAMED_REFUSALS ? `, and ${refused.length - MAX_NAMED_REFUSALS} more` : ""
  return `; ignored ${refused.length} unusable address(es): ${named.join(", ")}${more}`
}

/** The status after a successful reconcile. */
export const planStatus = (inputs: ReconciledStatusInputs): ListenerStatus => {
  const ready = inputs.addresses.length > 0
  const condition = readyCondition({
    ready,
    reason: ready ? "Reconciled" : "AwaitingAddresses",
    message: (ready
      ? `Service ${inputs.serviceName} is reachable on ${inputs.addresses.length} address(es)`
      : `Service ${inputs.serviceName} has no address yet${inputs.awaiting === undefined ? "" : `: ${inputs.awaiting}`}`) + refusalNote(inputs.refused ?? []),
    generation: inputs.generation,
    liveStatus: inputs.liveStatus,
    now: inputs.now
  })
  return {
    serviceName: inputs.serviceName,
    ingressAddresses: inputs.addresses,
    ...(inputs.nodePorts !== undefined ? { nodePorts: inputs.nodePorts } : {}),
    conditions: [condition],
    ...(inputs.generation !== undefined ? { observedGeneration: inputs.generation } : {})
  }
}

/**
 * The status after a configuration problem: the Ready condition says what is wrong; the
 * addresses reported before stay (the Service, if any, still serves them).
 */
export const planFailedStatus = (args: StatusBasis & {
  readonly reason: Exclude<ReadyReason, "Reconciled" | "AwaitingAddresses">
  readonly message: string
}): ListenerStatus => {
  const live = isJsonObject(args.liveStatus) ? args.liveStatus : {}
  const kept: Record<string, unknown> = {}
  for (const key of ["serviceName", "ingressAddresses", "nodePorts"] as const) {
    if (live[key] !== undefined && live[key] !== null) kept[key] = live[key]
  }
  return {
    ...kept,
    conditions: [readyCondition({ ready: false, ...args })],
    ...(args.generation !== undefined ? { observedGeneration: args.generation } : {})
  }
}

/**
 * Does the live status already say what `desired` says? Conditions of other types written
 * by someone else are ignored; ours are compared field by field (the desired condition
 * already carries the live `lastTransitionTime` when nothing flipped).
 */
export const statusUpToDate = (desired: ListenerStatus, liveStatus: unknown): boolean => {
  const live = isJsonObject(liveStatus) ? liveStatus : {}
  const field = (key: string) => (live[key] === null ? undefined : live[key])
  if (!jsonEquals(desired.serviceName, field("serviceName"))) return false
  if (!jsonEquals(desired.ingressAddresses ?? [], field("ingressAddresses") ?? [])) return false
  if (!jsonEquals(desired.nodePorts, field("nodePorts"))) return false
  if (!jsonEquals(desired.observedGeneration, field("observedGeneration"))) return false
  const liveConditions = conditionsOf(liveStatus)
  return desired.conditions.every((condition) =>
    liveConditions.some((c) => isJsonObject(c) && c["type"] === condition.type && jsonEquals(condition, c))
  )
}
