/**
 * KubeApiError values shaped like the real API server's Status responses: same reason,
 * HTTP code, message wording and field causes (k8s.io/apimachinery/pkg/api/errors and
 * pkg/util/validation/field), so code tested against the memory adapter sees what it
 * would see from a cluster.
 */
import type { ResourceKind } from "../../domain/kinds.ts"
import { requestError } from "../../effects/shared/KubeApi.ts"
import type { KubeApiError, KubeApiErrorCause, RequestTarget } from "../../effects/shared/KubeApi.ts"

/** Who failed: the verb and object the error is reported for. */
export type Target = RequestTarget

/** `pods`, `listeners.listeners.stackable.tech`: how the server names a resource in messages. */
export const qualifiedResource = (kind: ResourceKind): string =>
  kind.group === "" ? kind.plural : `${kind.plural}.${kind.group}`

/** `Pod`, `Listener.listeners.stackable.tech`: how the server names a kind in Invalid messages. */
export const qualifiedKind = (kind: ResourceKind): string => (kind.group === "" ? kind.kind : `${kind.kind}.${kind.group}`)

const make = (
  target: Target,
  reason: KubeApiError["reason"],
  status: number,
  message: string,
  causes?: ReadonlyArray<KubeApiErrorCause>
): KubeApiError =>
  requestError(target, { reason, message, status, causes })

export const notFound = (target: Target, resource = qualifiedResource(target.kind), name = target.name ?? ""): KubeApiError =>
  make(target, "NotFound", 404, `${resource} "${name}" not found`)

export const namespaceNotFound = (target: Target, namespace: string): KubeApiError =>
  make(target, "NotFound", 404, `namespaces "${namespace}" not found`)

export const alreadyExists = (target: Target): KubeApiError =>
  make(target, "AlreadyExists", 409, `${qualifiedResource(target.kind)} "${target.name ?? ""}" already exists`)

export const OPTIMISTIC_LOCK_MESSAGE =
  "the object has been modified; please apply your changes to the latest version and try again"

export const conflict = (target: Target, detail: string, resource = qualifiedResource(target.kind)): KubeApiError =>
  make(target, "Conflict", 409, `Operation cannot be fulfilled on ${resource} "${target.name ?? ""}": ${detail}`)

export const badRequest = (target: Target, message: string): KubeApiError => make(target, "BadRequest", 400, message)

export const forbidden = (target: Target, detail: string): KubeApiError =>
  make(
    target,
    "Forbidden",
    403,
    target.name === undefined || target.name === ""
      ? `${qualifiedResource(target.kind)} is forbidden: ${detail}`
      : `${qualifiedResource(target.kind)} "${target.name}" is forbidden: ${detail}`
  )

export const gone = (target: Target, message: string): KubeApiError => make(target, "Gone", 410, message)

/** A 422 without field causes, as the server answers a failed JSON patch. */
export const unprocessable = (target: Target, detail: string): KubeApiError =>
  make(target, "Invalid", 422, "the server rejected our request due to an error in our request", [{ message: detail }])

// --- field errors (k8s.io/apimachinery/pkg/util/validation/field) ---------------------

export type FieldErrorType = "Required" | "Invalid" | "Duplicate" | "NotSupported" | "Forbidden" | "TooLong" | "TooMany"

export interface FieldError {
  readonly type: FieldErrorType
  readonly field: string
  readonly value?: unknown
  readonly detail?: string | undefined
}

const typeText: Record<FieldErrorType, string> = {
  Required: "Required value",
  Invalid: "Invalid value",
  Duplicate: "Duplicate value",
  NotSupported: "Unsupported value",
  Forbidden: "Forbidden",
  TooLong: "Too long",
  TooMany: "Too many"
}

const causeType: Record<FieldErrorType, string> = {
  Required: "FieldValueRequired",
  Invalid: "FieldValueInvalid",
  Duplicate: "FieldValueDuplicate",
  NotSupported: "FieldValueNotSupported",
  Forbidden: "FieldValueForbidden",
  TooLong: "FieldValueTooLong",
  TooMany: "FieldValueTooMany"
}

const formatValue = (value: unknown): string => {
  if (typeof value === "string") return JSON.stringify(value)
  if (typeof value === "number" || typeof value === "boolean") return String(value)
  return JSON.stringify(value) ?? "null"
}

/** The error text after the field path, e.g. `Invalid value: "Foo": a lowercase RFC 1123 …`. */
export const fieldErrorBody = (error: FieldError): string => {
  const showsValue = error.type !== "Required" && error.type !== "Forbidden" && error.type !== "TooLong" &&
    "value" in error
  const head = showsValue ? `${typeText[error.type]}: ${formatValue(error.value)}` : typeText[error.type]
  return error.detail === undefined || error.detail === "" ? head : `${head}: ${error.detail}`
}

export const fieldErrorText = (error: FieldError): string => `${error.field}: ${fieldErrorBody(error)}`

export const required = (field: string, detail?: string): FieldError => ({ type: "Required", field, detail })
export const invalid = (field: string, value: unknown, detail: string): FieldError => ({ type: "Invalid", field, value, detail })
export const duplicate = (field: string, value: unknown): FieldError => ({ type: "Duplicate", field, value })
export const notSupported = (field: string, value: unknown, supported: ReadonlyArray<string>): FieldError => ({
  type: "NotSupported",
  field,
  value,
  detail: `supported values: ${supported.map((s) => JSON.stringify(s)).join(", ")}`
})
export const forbiddenField = (field: string, detail: string): FieldError => ({ type: "Forbidden", field, detail })

/** 422 Invalid naming every field, worded like `Service "web" is invalid: [a, b]`. */
export const invalidObject = (
  target: Target,
  errors: ReadonlyArray<FieldError>,
  kindName = qualifiedKind(target.kind)
): KubeApiError => {
  const texts = errors.map(fieldErrorText)
  const aggregated = texts.length === 1 ? texts[0] : `[${texts.join(", ")}]`
  return make(
    target,
    "Invalid",
    422,
    `${kindName} "${target.name ?? ""}" is invalid: ${aggregated}`,
    errors.map((e) => ({ field: e.field, reason: causeType[e.type], message: fieldErrorBody(e) }))
  )
}
