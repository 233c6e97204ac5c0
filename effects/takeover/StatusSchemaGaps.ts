/**
 * Status fields the installed Listener CRD does not declare.
 *
 * Taking over from the upstream operator without replacing its CRDs (what `helm install`
 * does: it never touches CRDs that exist), or running a newer controller against older
 * CRDs, makes every status write that carries our additions (`conditions`,
 * `observedGeneration`) fail: server-side apply answers 500 "failed to create typed patch
 * object … .status.conditions: field not declared in schema". Retrying the same write
 * can never succeed, and the Listener would never get its addresses. Instead the
 * controller learns which top-level status fields are undeclared, says so once (a log
 * line and one Event on the CRD, with the command that fixes it), and writes the status
 * without them — the addresses reach the Listener and the node plugins, as upstream's
 * status would. After `recheckAfter` one write tries the full status again, so updating
 * the CRDs is picked up without a restart, at the cost of one refused write.
 */
import { Clock, Context, Duration, Effect } from "effect"
import type { ListenerStatus } from "../../domain/listenerPlan/desiredStatus.ts"
import { EventRecorder } from "../shared/EventRecorder.ts"
import type { KubeApiError } from "../shared/KubeApi.ts"

export interface StatusSchemaGapsState {
  /** Undeclared top-level status fields, with the time they were learned. */
  readonly missing: Map<string, number>
  reported: boolean
}

export const makeStatusSchemaGaps = (): StatusSchemaGapsState => ({ missing: new Map(), reported: false })

/**
 * What one Listener controller has learned about the installed CRD. No default: each
 * controller provides its own (k8s/listenerController.ts), so nothing is shared across
 * controllers or tests by accident.
 */
export class StatusSchemaGaps extends Context.Service<StatusSchemaGaps, StatusSchemaGapsState>()("listener-operator/effects/StatusSchemaGaps") {}

const recheckAfter = Duration.minutes(10)

export const LISTENER_CRD_NAME = "listeners.listeners.stackable.tech"

/** The top-level status fields a refused apply names as undeclared (nested ones cannot be left out safely). */
export const undeclaredStatusFields = (error: KubeApiError): ReadonlyArray<string> => {
  if (error.reason !== "Internal" || !/failed to create typed patch object/u.test(error.message)) return []
  return [...new Set([...error.message.matchAll(/\.status\.([A-Za-z0-9_]+): field not declared in schema/gu)].map((m) => m[1]!))]
}

/** The fields currently known to be undeclared (forgetting those learned longer than `recheckAfter` ago). */
export const currentGaps = Effect.gen(function*() {
  const gaps = yield* StatusSchemaGaps
  const now = yield* Clock.currentTimeMillis
  for (const [field, learned] of gaps.missing) {
    if (now - learned > Duration.toMillis(recheckAfter)) gaps.missing.delete(field)
  }
  return new Set(gaps.missing.keys())
})

/** `status` without the undeclared fields; `conditions` stays an (empty) list for comparisons. */
export const withoutUndeclared = (status: ListenerStatus, missing: ReadonlySet<string>): ListenerStatus => {
  if (missing.size === 0) return status
  const kept = Object.fromEntries(Object.entries(status).filter(([key]) => !missing.has(key)))
  return { ...kept, conditions: missing.has("conditions") ? [] : status.conditions } as ListenerStatus
}

/** The status as it goes on the wire: undeclared fields (an emptied `conditions` too) left out. */
export const wireStatus = (status: ListenerStatus, missing: ReadonlySet<string>): Record<string, unknown> => {
  if (missing.size === 0) return { ...status }
  return Object.fromEntries(Object.entries(status).filter(([key]) => !missing.has(key)))
}

/**
 * Learn the fields `error` names; the first time any are learned, say so once. True when
 * the error names a field the failed write carried (`sentWithout` were already left out),
 * i.e. a write without the fields now known is worth trying; concurrent reconciles that
 * failed on the same fields all get true, and only one of them reports it.
 */
export const learnGaps = (error: KubeApiError, sentWithout: ReadonlySet<string>) =>
  Effect.gen(function*() {
    const fields = undeclaredStatusFields(error)
    if (fields.length === 0) return false
    const gaps = yield* StatusSchemaGaps
    const now = yield* Clock.currentTimeMillis
    for (const field of fields) gaps.missing.set(field, now)
    if (fields.every((field) => sentWithout.has(field))) return false
    if (!gaps.reported) {
      gaps.reported = true
      const note = `the installed Listener CRD (${LISTENER_CRD_NAME}) does not declare ${fields.map((f) => `status.${f}`).join(", ")} ` +
        "(an older CRD, or the upstream operator's): Listener statuses are written without them until the CRDs are updated. " +
        "Apply this operator's CRDs — `listener-operator crd | kubectl apply --server-side --force-conflicts -f -` — " +
        "or let the controller keep them current (docs/migration.md)"
      yield* Effect.logWarning(note)
      const events = yield* EventRecorder
      yield* events.record({
        regarding: { apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", name: LISTENER_CRD_NAME },
        type: "Warning",
        reason: "CrdOutdated",
        action: "WriteListenerStatus",
        note
      })
    }
    return true
  })
