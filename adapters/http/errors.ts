/**
 * The one place where API server answers become `KubeApiError` reasons: an HTTP status
 * plus the `Status` object the server sends (also inside watch ERROR events), and
 * transport failures (refused/reset connections, TLS, timeouts). Pure.
 */
import { requestError } from "../../effects/shared/KubeApi.ts"
import type { KubeApiError, KubeApiErrorCause, KubeApiErrorReason, RequestTarget } from "../../effects/shared/KubeApi.ts"

/** The fields of a `metav1.Status` we use; anything else in the body is ignored. */
export interface StatusBody {
  readonly kind: "Status"
  readonly code?: number | undefined
  readonly reason?: string | undefined
  readonly message?: string | undefined
  readonly details?: { readonly causes?: ReadonlyArray<KubeApiErrorCause> | undefined } | undefined
}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

export const isStatusBody = (u: unknown): u is StatusBody => isRecord(u) && u["kind"] === "Status"

/**
 * HTTP status (or `Status.code`) → reason. The Status `reason` only refines where one code
 * carries two meanings: 409 AlreadyExists vs Conflict, 500 ServerTimeout vs InternalError.
 */
export const reasonOf = (code: number, statusReason?: string | undefined): KubeApiErrorReason => {
  switch (code) {
    case 400:
      return "BadRequest"
    case 401:
      return "Unauthorized"
    case 403:
      return "Forbidden"
    case 404:
      return "NotFound"
    case 409:
      return statusReason === "AlreadyExists" ? "AlreadyExists" : "Conflict"
    case 410:
      return "Gone"
    case 422:
      return "Invalid"
    case 429:
      return "TooManyRequests"
    case 500:
      return statusReason === "ServerTimeout" || statusReason === "Timeout" ? "Timeout" : "Internal"
    case 502:
    case 503:
      return "Unavailable"
    case 504:
      return "Timeout"
    default:
      // 405/406/413/415 and friends: the request itself is wrong; unknown 5xx: server trouble.
      return code >= 500 ? "Internal" : "BadRequest"
  }
}

const causesOf = (status: StatusBody): ReadonlyArray<KubeApiErrorCause> | undefined => {
  const causes = status.details?.causes
  if (!Array.isArray(causes) || causes.length === 0) return undefined
  return causes.filter(isRecord).map((c) => ({
    field: typeof c["field"] === "string" ? c["field"] : undefined,
    // the API server calls the cause's reason `type` (e.g. FieldValueInvalid)
    reason: typeof c["type"] === "string" ? c["type"] : typeof c["reason"] === "string" ? c["reason"] : undefined,
    message: typeof c["message"] === "string" ? c["message"] : undefined
  }))
}

const describe = (target: RequestTarget): string => {
  const ref = target.name === undefined
    ? (target.namespace === undefined ? "" : ` in namespace ${target.namespace}`)
    : ` ${target.namespace === undefined ? "" : `${target.namespace}/`}${target.name}`
  return `${target.verb} ${target.kind.kind}${ref}`
}

const truncate = (text: string, max = 500): string => (text.length > max ? `${text.slice(0, max)}…` : text)

/**
 * An error answer: `httpStatus` is the response status (200 for a watch ERROR event, whose
 * Status carries the real code); `body` is the parsed JSON, or the raw text if it was not JSON.
 */
export const errorFromResponse = (target: RequestTarget, httpStatus: number, body: unknown): KubeApiError => {
  const status = isStatusBody(body) ? body : undefined
  const code = status?.code !== undefined && status.code >= 400 ? status.code : httpStatus
  const reason = reasonOf(code, status?.reason)
  const serverMessage = status?.message ??
    (typeof body === "string" && body.trim() !== "" ? truncate(body.trim()) : `HTTP ${code}`)
  return requestError(target, {
    reason,
    message: `${describe(target)}: ${serverMessage}`,
    status: code,
    causes: status === undefined ? undefined : causesOf(status)
  })
}

const errorCode = (cause: unknown): string | undefined =>
  isRecord(cause) && typeof cause["code"] === "string" ? cause["code"] : undefined

/** The request timed out on our side (no answer within the client's request timeout). */
export class RequestTimedOut extends Error {
  constructor(readonly afterMillis: number) {
    super(`no answer within ${afterMillis} ms`)
    this.name = "RequestTimedOut"
  }
}

/**
 * The request never got an answer: connection refused/reset, socket hang up, TLS failure,
 * DNS. All are Unavailable (retry later) except our own timeout; the cause is kept.
 */
export const errorFromTransport = (target: RequestTarget, cause: unknown): KubeApiError => {
  const detail = cause instanceof Error ? cause.message : String(cause)
  const code = errorCode(cause)
  return requestError(target, {
    reason: cause instanceof RequestTimedOut ? "Timeout" : "Unavailable",
    message: `${describe(target)}: ${code !== undefined && !detail.includes(code) ? `${code} ` : ""}${detail}`,
    cause
  })
}

/** The server answered 2xx with something that is not what the API promises. */
export const errorFromBadAnswer = (target: RequestTarget, detail: string, cause?: unknown): KubeApiError =>
  requestError(target, { reason: "Internal", message: `${describe(target)}: ${detail}`, cause })

/** A request we refuse to send because an argument is missing (no round trip). */
export const errorFromBadArgument = (target: RequestTarget, detail: string, field: string): KubeApiError =>
  requestError(target, {
    reason: "BadRequest",
    message: `${describe(target)}: ${detail}`,
    causes: [{ field, reason: "FieldValueRequired", message: detail }]
  })
