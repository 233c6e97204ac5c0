/**
 * Taking over from a predecessor operator (serviceAdoption.ts) and from a CRD older than
 * this build (StatusSchemaGaps.ts), as one step the Listener reconcile calls around its
 * writes, as kube-rs's `finalizer` wraps a reconcile: `writeListener` adopts a
 * predecessor's Service before comparing it, applies it when it differs, and writes the
 * status the reconcile plans from it as far as the installed CRD holds it. The everyday
 * reconcile — our own Service, our own CRD — passes through without a request.
 */
import { Effect, Option } from "effect"
import { LISTENER_API_VERSION } from "../../domain/constants.ts"
import { Kinds } from "../../domain/kinds.ts"
import { serviceUpToDate, statusUpToDate } from "../../domain/listenerPlan/index.ts"
import type { DesiredService, ListenerStatus } from "../../domain/listenerPlan/index.ts"
import { ListenerApiFailure } from "../controller/listenerErrors.ts"
import type { ListenerRef } from "../controller/listenerErrors.ts"
import { ListenerView } from "../controller/ListenerView.ts"
import type { EventRecorder } from "../shared/EventRecorder.ts"
import { KubeApi } from "../shared/KubeApi.ts"
import type { KubeApiError, KubeObject } from "../shared/KubeApi.ts"
import { ListenerSettings } from "../shared/ListenerSettings.ts"
import { adoptListenerStatus, adoptService, dropsStatusKeys } from "./serviceAdoption.ts"
import { currentGaps, learnGaps, wireStatus, withoutUndeclared } from "./StatusSchemaGaps.ts"
import type { StatusSchemaGaps } from "./StatusSchemaGaps.ts"

/** The Service to compare with `desired`: the cached one, or — a predecessor's — the one handed over to us. */
const serviceAfterTakeover = Effect.fn("serviceAfterTakeover")(function*(desired: DesiredService, cached: Option.Option<KubeObject>) {
  if (Option.isNone(cached) || serviceUpToDate(desired, cached.value)) return cached
  const adopted = yield* adoptService(desired, cached.value)
  if (Option.isNone(adopted)) return cached
  yield* (yield* ListenerView).written(adopted.value.written)
  return Option.some(adopted.value.written)
})

/** Up to date as far as the installed CRD can hold it. */
const statusCurrent = (status: ListenerStatus, liveStatus: unknown) =>
  Effect.map(currentGaps, (missing) => statusUpToDate(withoutUndeclared(status, missing), liveStatus))

/**
 * Apply the status, leaving out what the installed CRD does not declare (StatusSchemaGaps.ts):
 * a refusal that names undeclared fields is learned and the write is retried without them.
 */
const applyStatus = Effect.fn("applyStatus")(function*(raw: KubeObject, status: ListenerStatus) {
  const api = yield* KubeApi
  const view = yield* ListenerView
  const { fieldManager } = yield* ListenerSettings
  const metadata = { name: raw.metadata.name!, namespace: raw.metadata.namespace! }
  if (dropsStatusKeys(status, raw["status"])) yield* adoptListenerStatus(metadata)
  const apply = (missing: ReadonlySet<string>) =>
    api.applyStatus(Kinds.Listener, { apiVersion: LISTENER_API_VERSION, kind: "Listener", metadata, status: wireStatus(status, missing) }, {
      fieldManager,
      force: true
    })
  // The API server may name one undeclared field per refusal: learn them one by one (a
  // status has only a few fields of its own, so this ends), then write what the CRD holds.
  const attempt = (missing: ReadonlySet<string>, tries: number): Effect.Effect<Option.Option<KubeObject>, KubeApiError, EventRecorder | StatusSchemaGaps> =>
    apply(missing).pipe(
      Effect.map(Option.some),
      Effect.catch((error) =>
        Effect.gen(function*() {
          if (tries <= 0 || !(yield* learnGaps(error, missing))) return yield* Effect.fail(error)
          // Without the undeclared fields there may be nothing left to change.
          if (yield* statusCurrent(status, raw["status"])) return Option.none<KubeObject>()
          return yield* attempt(yield* currentGaps, tries - 1)
        })
      )
    )
  const written = yield* attempt(yield* currentGaps, 4)
  if (Option.isSome(written)) yield* view.written(written.value)
})

/**
 * Write `status` unless the Listener already has it (as far as the CRD holds it); `beforeWrite`
 * runs only when a write follows. True when the status differed, i.e. a write was made.
 */
export const writeStatus = <E = never, R = never>(raw: KubeObject, status: ListenerStatus, beforeWrite?: Effect.Effect<void, E, R>) =>
  Effect.gen(function*() {
    if (yield* statusCurrent(status, raw["status"])) return false
    if (beforeWrite !== undefined) yield* beforeWrite
    yield* applyStatus(raw, status)
    return true
  })

/** The reconcile's side of its writes: the Service it wants and how, the status it plans from the result. */
export interface ListenerWrites<EA, RA, EP, RP> {
  readonly desired: DesiredService
  readonly cached: Option.Option<KubeObject>
  /** Apply `desired` (its refusals typed by the reconcile); run only when the Service differs. */
  readonly applyService: Effect.Effect<KubeObject, EA, RA>
  /** What the reconcile does between the two writes: the status planned from the Service as it now is, and what to report once it is written. */
  readonly afterService: (service: KubeObject) => Effect.Effect<{ readonly status: ListenerStatus; readonly report: Effect.Effect<void, never, EventRecorder> }, EP, RP>
}

/** A Listener's Service and status written, with a predecessor's fields and an older CRD taken over on the way. */
export const writeListener = <EA, RA, EP, RP>(raw: KubeObject, ref: ListenerRef, writes: ListenerWrites<EA, RA, EP, RP>) =>
  Effect.gen(function*() {
    const current = yield* serviceAfterTakeover(writes.desired, writes.cached).pipe(
      Effect.mapError((cause) => new ListenerApiFailure({ ...ref, step: "AdoptService", cause }))
    )
    const service = Option.isSome(current) && serviceUpToDate(writes.desired, current.value) ? current.value : yield* writes.applyService
    const { status, report } = yield* writes.afterService(service)
    const written = yield* writeStatus(raw, status).pipe(Effect.mapError((cause) => new ListenerApiFailure({ ...ref, step: "WriteStatus", cause })))
    if (written) yield* report
  })
