/**
 * Taking over what a predecessor operator wrote (the upstream listener-operator, or any
 * field manager `ListenerSettings.isPredecessorFieldManager` names): its field managers'
 * ownership passes to ours, so our server-side applies can change and remove those fields
 * as they do their own (domain/managedFields.ts says why that is needed).
 *
 * - Services: when the cache shows a Service we never applied (no fingerprint of ours),
 *   one GET (caches drop managedFields) and, if a predecessor owns fields, one JSON patch
 *   (domain/listenerPlan/adoption.ts). A Service built from the same Listener is then
 *   already what we would apply: adopted with that single write.
 * - Listener status: only when our status would drop a key the live status has (a
 *   renamed port's `nodePorts` entry), since a predecessor's ownership would keep it.
 */
import { Effect, Option } from "effect"
import { Kinds } from "../../domain/kinds.ts"
import { foldManagedFields, predecessorEntries } from "../../domain/managedFields.ts"
import type { ManagedFieldsEntryInput } from "../../domain/managedFields.ts"
import { APPLIED_FINGERPRINT_ANNOTATION, isJsonObject, mayNeedAdoption, planServiceAdoption } from "../../domain/listenerPlan/index.ts"
import type { DesiredService, ListenerStatus } from "../../domain/listenerPlan/index.ts"
import { getOption, KubeApi } from "../shared/KubeApi.ts"
import type { KubeObject } from "../shared/KubeApi.ts"
import { ListenerSettings, predecessorFieldManagers } from "../shared/ListenerSettings.ts"

export interface ServiceAdoption {
  /** The Service after the adoption write. */
  readonly written: KubeObject
  /** Nothing left to apply: the write also brought our labels and annotations. */
  readonly complete: boolean
}

/** Hand a predecessor's Service over to us; `none` when there is nothing to hand over. */
export const adoptService = Effect.fn("adoptService")(function*(desired: DesiredService, cached: KubeObject) {
  if (!mayNeedAdoption(cached, APPLIED_FINGERPRINT_ANNOTATION)) return Option.none<ServiceAdoption>()
  const api = yield* KubeApi
  const settings = yield* ListenerSettings
  const ref = { namespace: desired.metadata.namespace, name: desired.metadata.name }
  const live = yield* getOption(api.get(Kinds.Service, ref))
  if (Option.isNone(live) || live.value.metadata.uid !== cached.metadata.uid) return Option.none<ServiceAdoption>()
  const plan = planServiceAdoption({
    live: live.value as Parameters<typeof planServiceAdoption>[0]["live"],
    desired,
    fieldManager: settings.fieldManager,
    isPredecessor: predecessorFieldManagers(settings)
  })
  if (plan._tag === "NothingToHandOver") return Option.none<ServiceAdoption>()
  const written = yield* api.patch(Kinds.Service, ref, plan.operations, { type: "json", fieldManager: settings.fieldManager })
  yield* Effect.logInfo(`adopted Service ${ref.namespace}/${ref.name}: its predecessor's fields are now ours`)
  return Option.some<ServiceAdoption>({ written, complete: plan.complete })
})

const keysOf = (value: unknown): ReadonlyArray<string> => (isJsonObject(value) ? Object.keys(value) : [])

/** Would writing `status` leave out a `nodePorts` key the live status has? */
export const dropsStatusKeys = (status: ListenerStatus, liveStatus: unknown): boolean => {
  const live = isJsonObject(liveStatus) ? liveStatus : {}
  const planned = new Set(keysOf(status.nodePorts))
  return keysOf(live["nodePorts"]).some((key) => !planned.has(key))
}

/** Hand a predecessor's ownership of the Listener's status over to us (before a status write that drops keys). */
export const adoptListenerStatus = Effect.fn("adoptListenerStatus")(function*(ref: { readonly namespace: string; readonly name: string }) {
  const api = yield* KubeApi
  const settings = yield* ListenerSettings
  const live = yield* getOption(api.get(Kinds.Listener, ref))
  if (Option.isNone(live)) return
  const entries: ReadonlyArray<ManagedFieldsEntryInput> = live.value.metadata.managedFields ?? []
  const options = { manager: settings.fieldManager, isPredecessor: predecessorFieldManagers(settings), subresource: "status" }
  if (predecessorEntries(entries, options).length === 0) return
  yield* api.patch(Kinds.Listener, ref, [
    { op: "test", path: "/metadata/resourceVersion", value: live.value.metadata.resourceVersion },
    { op: "replace", path: "/metadata/managedFields", value: foldManagedFields(entries, options) }
  ], { type: "json", fieldManager: settings.fieldManager })
  yield* Effect.logInfo(`adopted the status of Listener ${ref.namespace}/${ref.name}: its predecessor's fields are now ours`)
})
