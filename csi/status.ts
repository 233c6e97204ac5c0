/**
 * The one table from typed errors to gRPC status codes (spec §4), and the status message:
 * the error's whole cause chain. Nothing else in the code base chooses a gRPC code.
 *
 * Categories: a bad request or volume context → INVALID_ARGUMENT; something not there
 * *yet* (objects, addresses) or a transient API failure → UNAVAILABLE, which the kubelet
 * and the provisioner retry; a configuration problem that needs a human → FAILED_PRECONDITION;
 * local I/O or our own bug → INTERNAL; NOT_FOUND only where the CSI spec asks for it.
 *
 * Exhaustiveness: the tables are checked with `satisfies` against the union of every error
 * a handler may fail with, so adding an error tag (or a KubeApiError reason) without a
 * code here is a compile error.
 */
import { status as GrpcStatus } from "@grpc/grpc-js"
import type { KubeApiError, KubeApiErrorReason } from "../effects/shared/KubeApi.ts"
import type { VolumeApiStepFailed } from "../effects/shared/volumeErrors.ts"
import type { InvalidRequest, VolumeNotFound } from "./errors.ts"
import type { ProgramError } from "./programs.ts"

/** Every error a CSI handler may fail with. */
export type CsiError = InvalidRequest | VolumeNotFound | ProgramError

/**
 * Tags mapped one-to-one. A KubeApiError, and a program step that failed with one
 * (VolumeApiStepFailed), are mapped by the KubeApiError's `reason` instead.
 */
export type CsiErrorTag = Exclude<CsiError["_tag"], KubeApiError["_tag"] | VolumeApiStepFailed["_tag"]>

export type StatusByTag = { readonly [Tag in CsiErrorTag]: GrpcStatus }
export type StatusByKubeApiReason = { readonly [Reason in KubeApiErrorReason]: GrpcStatus }

export const statusByTag = {
  // The edge's own.
  InvalidRequest: GrpcStatus.INVALID_ARGUMENT,
  VolumeNotFound: GrpcStatus.NOT_FOUND,
  // The programs' (effects/shared/volumeErrors.ts). A bad volume request or context:
  VolumeParameterMissing: GrpcStatus.INVALID_ARGUMENT,
  ListenerSelectionInvalid: GrpcStatus.INVALID_ARGUMENT,
  PinningTopologyMissing: GrpcStatus.INVALID_ARGUMENT,
  // Not there yet; the kubelet retries:
  ListenerAddressesNotReady: GrpcStatus.UNAVAILABLE,
  PodNotScheduled: GrpcStatus.UNAVAILABLE,
  AwaitingNodeBinding: GrpcStatus.UNAVAILABLE,
  // Needs a human to fix the cluster's objects:
  VolumeObjectInvalid: GrpcStatus.FAILED_PRECONDITION,
  ListenerHasNoClass: GrpcStatus.FAILED_PRECONDITION,
  InlineVolumeUnsupported: GrpcStatus.FAILED_PRECONDITION,
  VolumeNotBound: GrpcStatus.FAILED_PRECONDITION,
  PodReplaced: GrpcStatus.FAILED_PRECONDITION,
  // Nothing to publish for a Pod on its way out; the kubelet stops asking once it is gone.
  PodTerminating: GrpcStatus.FAILED_PRECONDITION,
  PodVolumeNotFound: GrpcStatus.FAILED_PRECONDITION,
  // A hostile or malformed address (e.g. a load-balancer hostname `../x`): never written,
  // and retrying at once cannot help.
  VolumeAddressRefused: GrpcStatus.FAILED_PRECONDITION,
  UnsafeVolumeEntry: GrpcStatus.FAILED_PRECONDITION,
  // The CO did not create the directory that holds the target path.
  TargetParentMissing: GrpcStatus.FAILED_PRECONDITION,
  // Local filesystem trouble on the node, whatever its reason.
  VolumeTreeWriteFailed: GrpcStatus.INTERNAL,
  VolumeFsError: GrpcStatus.INTERNAL
} as const satisfies StatusByTag

export const statusByKubeApiReason = {
  // The PV, PVC, Pod or Listener is not there yet (or not in our cache yet): retry.
  NotFound: GrpcStatus.UNAVAILABLE,
  // Lost a race with another writer; a retry re-reads and converges. Not ALREADY_EXISTS:
  // to the CO that code means "this volume name is taken with other parameters".
  Conflict: GrpcStatus.ABORTED,
  AlreadyExists: GrpcStatus.ABORTED,
  // The API server refused an object we built from cluster data (e.g. a Pod's port
  // names), or RBAC refuses us: a human has to fix the cluster or the deployment.
  Invalid: GrpcStatus.FAILED_PRECONDITION,
  Forbidden: GrpcStatus.FAILED_PRECONDITION,
  // A request the API server cannot parse is our bug.
  BadRequest: GrpcStatus.INTERNAL,
  // Transient API trouble (credentials are refreshed, relists happen, servers recover).
  Unauthorized: GrpcStatus.UNAVAILABLE,
  Gone: GrpcStatus.UNAVAILABLE,
  TooManyRequests: GrpcStatus.UNAVAILABLE,
  Unavailable: GrpcStatus.UNAVAILABLE,
  Timeout: GrpcStatus.UNAVAILABLE,
  Internal: GrpcStatus.UNAVAILABLE
} as const satisfies StatusByKubeApiReason

const hasOwn = (table: object, key: string): boolean => Object.prototype.hasOwnProperty.call(table, key)

const statusOfReason = (reason: KubeApiErrorReason): GrpcStatus =>
  hasOwn(statusByKubeApiReason, reason) ? statusByKubeApiReason[reason] : GrpcStatus.INTERNAL

/** The gRPC code for a typed failure. An error outside the union (a cast gone wrong) is INTERNAL. */
export const statusOf = (error: CsiError): GrpcStatus => {
  switch (error._tag) {
    case "KubeApiError":
      return statusOfReason(error.reason)
    case "VolumeApiStepFailed":
      return statusOfReason(error.cause.reason)
    default:
      return hasOwn(statusByTag, error._tag) ? statusByTag[error._tag] : GrpcStatus.INTERNAL
  }
}

// gRPC carries the message in a header; keep it well below HTTP/2 header limits.
const MAX_DETAILS_LENGTH = 4000
const MAX_CHAIN_DEPTH = 16

const fieldsOf = (error: object): string => {
  const fields = Object.entries(error).filter(([key]) => key !== "_tag" && key !== "cause" && key !== "stack")
  return fields.length === 0 ? "" : ` ${safeJson(Object.fromEntries(fields))}`
}

const safeJson = (value: unknown): string => {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

/** One link of the chain: an error's message, or its tag and fields when it has no message. */
const describeLink = (link: unknown): string => {
  if (typeof link === "string") return link
  if (link instanceof Error) {
    if (link.message !== "") return link.message
    const tag = (link as { readonly _tag?: unknown })._tag
    return `${typeof tag === "string" ? tag : link.name}${fieldsOf(link)}`
  }
  return safeJson(link)
}

const causeOf = (link: unknown): unknown =>
  typeof link === "object" && link !== null && "cause" in link ? (link as { readonly cause?: unknown }).cause : undefined

/**
 * The error's message followed by each nested `cause`'s message, joined with ": "
 * (a link whose text the previous one already contains is skipped).
 */
export const causeChainMessage = (error: unknown): string => {
  const parts: string[] = []
  const seen = new Set<unknown>()
  let link: unknown = error
  while (link !== undefined && link !== null && !seen.has(link) && seen.size < MAX_CHAIN_DEPTH) {
    seen.add(link)
    const text = describeLink(link)
    const previous = parts.at(-1)
    if (text !== "" && (previous === undefined || !previous.includes(text))) parts.push(text)
    link = causeOf(link)
  }
  const message = parts.join(": ")
  return message.length > MAX_DETAILS_LENGTH ? `${message.slice(0, MAX_DETAILS_LENGTH - 1)}…` : message
}

/** What a failed call answers: its gRPC code and message. */
export interface CallStatus {
  readonly code: GrpcStatus
  readonly details: string
}

export const callStatusOf = (error: CsiError): CallStatus => ({ code: statusOf(error), details: causeChainMessage(error) })

/** A defect (a bug, a thrown exception) never escapes: it is INTERNAL with its cause chain. */
export const defectStatus = (defect: unknown): CallStatus => ({
  code: GrpcStatus.INTERNAL,
  details: `internal error: ${causeChainMessage(defect) || "unknown defect"}`
})

/** The readable name of a code, e.g. `INVALID_ARGUMENT`, for logs; an unknown number as itself. */
export const statusName = (code: number): string => GrpcStatus[code] ?? String(code)
