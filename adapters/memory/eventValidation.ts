/**
 * ValidateEventCreate for events.k8s.io/v1 (pkg/apis/core/validation/events.go): the
 * strict rules new-style Events must pass, so an Event the operator would have refused
 * by a real API server is refused here too.
 */
import type { FieldError } from "./errors.ts"
import { invalid, required } from "./errors.ts"
import { isObject } from "./json.ts"
import type { JsonObject } from "./json.ts"
import { qualifiedNameProblems } from "./validation.ts"

const LIMIT_128 = 128
const NOTE_LIMIT = 1024

const text = (event: JsonObject, key: string): string => (typeof event[key] === "string" ? event[key] : "")

export const validateEvent = (event: JsonObject, old: JsonObject | undefined): Array<FieldError> => {
  const errors: Array<FieldError> = []
  const meta = isObject(event["metadata"]) ? event["metadata"] : {}
  const namespace = typeof meta["namespace"] === "string" ? meta["namespace"] : ""
  const regarding = isObject(event["regarding"]) ? event["regarding"] : {}
  const regardingNamespace = typeof regarding["namespace"] === "string" ? regarding["namespace"] : ""
  if (text(event, "eventTime") === "") errors.push(required("eventTime"))
  if (regardingNamespace === "" && namespace !== "default" && namespace !== "kube-system") {
    errors.push(invalid("involvedObject.namespace", regardingNamespace, "does not match event.namespace"))
  }
  const controller = text(event, "reportingController")
  if (controller === "") errors.push(required("reportingController"))
  for (const p of qualifiedNameProblems(controller)) errors.push(invalid("reportingController", controller, p))
  for (const key of ["reportingInstance", "action", "reason"]) {
    const value = text(event, key)
    if (value === "") errors.push(required(key))
    if (value.length > LIMIT_128) errors.push(invalid(key, "", `can have at most ${LIMIT_128} characters`))
  }
  if (text(event, "note").length > NOTE_LIMIT) {
    errors.push(invalid("message", "", `can have at most ${NOTE_LIMIT} characters`))
  }
  const type = text(event, "type")
  if (type !== "Normal" && type !== "Warning") errors.push(invalid("type", "", `has invalid value: ${type}`))
  if (old === undefined) {
    for (const [key, field] of [["deprecatedFirstTimestamp", "firstTimestamp"], ["deprecatedLastTimestamp", "lastTimestamp"]]) {
      if (event[key!] !== undefined) errors.push(invalid(field!, "", "needs to be unset"))
    }
    if (typeof event["deprecatedCount"] === "number" && event["deprecatedCount"] !== 0) {
      errors.push(invalid("count", "", "needs to be unset"))
    }
    if (isObject(event["deprecatedSource"]) && Object.keys(event["deprecatedSource"]).length > 0) {
      errors.push(invalid("source", "", "needs to be unset"))
    }
  }
  const series = event["series"]
  if (isObject(series)) {
    if (typeof series["count"] !== "number" || series["count"] < 2) errors.push(invalid("series.count", "", "should be at least 2"))
    if (typeof series["lastObservedTime"] !== "string" || series["lastObservedTime"] === "") {
      errors.push(required("series.lastObservedTime"))
    }
  }
  if (old !== undefined) {
    for (const key of ["regarding", "reason", "note", "type", "action", "related", "reportingController", "reportingInstance", "eventTime"]) {
      if (JSON.stringify(event[key]) !== JSON.stringify(old[key])) {
        errors.push(invalid(key === "regarding" ? "involvedObject" : key === "note" ? "message" : key, event[key] ?? "", "field is immutable"))
      }
    }
  }
  return errors
}
