/**
 * The Pod's PodListeners record (spec §2, §4 step 6): which addresses each listener volume
 * of a Pod was published with, keyed by the Pod's volume name.
 */
import { Effect, Option } from "effect"
import { FieldManagers, LISTENER_API_VERSION, podListenersName } from "../../domain/constants.ts"
import type { Pod } from "../../domain/core/pod.ts"
import { Kinds } from "../../domain/kinds.ts"
import { jsonEquals } from "../../domain/listenerPlan/json.ts"
import { PodListeners } from "../../domain/podListeners.ts"
import type { PodListener } from "../../domain/podListeners.ts"
import { getOption, KubeApi } from "./KubeApi.ts"
import type { KubeObject } from "./KubeApi.ts"
import { apiStepFailed, decodeObject } from "./volumeObjects.ts"

const decodePodListeners = decodeObject(Kinds.PodListeners, PodListeners)

/** spec §4 step 6: the name of the Pod volume that uses PVC `claimName`, if any. */
export const podVolumeNameFor = (pod: Pod, claimName: string): string | undefined =>
  (pod.spec?.volumes ?? []).find((volume) =>
    volume.persistentVolumeClaim?.claimName === claimName ||
    (volume.ephemeral !== undefined && `${pod.metadata.name}-${volume.name}` === claimName)
  )?.name

/**
 * Merge this volume's entry into an existing `pod-<uid>`: a JSON merge patch of one map key,
 * applied atomically by the API server, that cannot drop another volume's entry.
 */
export const mergePodListenerEntry = (namespace: string, podUid: string, volumeName: string, entry: PodListener) =>
  Effect.gen(function*() {
    const api = yield* KubeApi
    const ref = { namespace, name: podListenersName(podUid) }
    return yield* Effect.mapError(
      api.patch(Kinds.PodListeners, ref, { spec: { listeners: { [volumeName]: entry } } }, {
        type: "merge",
        fieldManager: FieldManagers.csiNode
      }),
      apiStepFailed("record in PodListeners", Kinds.PodListeners, ref)
    )
  })

/**
 * Whether the entry may already be recorded: `"maybeRecorded"` (a publish again: read
 * first, so a converged entry costs no write) or `"new"` (the Pod's first publish for this
 * Listener — it lacked the mount label — so there is nothing to compare with: create at
 * once and save the read, one round trip of the Pod's start).
 */
export type PodListenerEntryState = "new" | "maybeRecorded"

/**
 * spec §4 step 6. Create `pod-<uid>` (owned by the Pod), or merge-patch just this volume's
 * key into `spec.listeners`. Why a merge patch and not a read-modify-write update or one
 * shared apply: the Pod's other listener volumes are published concurrently by the same
 * plugin; a JSON merge patch of one map key is applied atomically by the API server and
 * cannot drop or overwrite another volume's entry, and needs no resourceVersion retry loop.
 */
export const recordPodListener = Effect.fn("recordPodListener")(function*(
  pod: Pod,
  podUid: string,
  volumeName: string,
  entry: PodListener,
  state: PodListenerEntryState = "maybeRecorded"
) {
  const api = yield* KubeApi
  const namespace = pod.metadata.namespace ?? ""
  const ref = { namespace, name: podListenersName(podUid) }
  const failed = (step: string) => apiStepFailed(step, Kinds.PodListeners, ref)
  const patchEntry = mergePodListenerEntry(namespace, podUid, volumeName, entry)
  const existing = state === "new"
    ? Option.none()
    : yield* Effect.mapError(getOption(api.get(Kinds.PodListeners, ref)), failed("load PodListeners"))
  if (Option.isSome(existing)) {
    const current = yield* Effect.option(decodePodListeners(existing.value, ref))
    if (Option.isSome(current) && jsonEquals(current.value.spec.listeners[volumeName], entry)) return
    yield* patchEntry
    return
  }
  const created: KubeObject = {
    apiVersion: LISTENER_API_VERSION,
    kind: Kinds.PodListeners.kind,
    metadata: {
      name: ref.name,
      namespace,
      ownerReferences: [{ apiVersion: "v1", kind: Kinds.Pod.kind, name: pod.metadata.name, uid: podUid }]
    },
    spec: { listeners: { [volumeName]: entry } }
  }
  yield* api.create(Kinds.PodListeners, created, { fieldManager: FieldManagers.csiNode }).pipe(
    Effect.asVoid,
    // Another volume of the same Pod created it first: merge ours in.
    Effect.catchIf((e) => e.reason === "AlreadyExists", () => patchEntry),
    Effect.mapError((e) => (e._tag === "KubeApiError" ? failed("create PodListeners")(e) : e))
  )
})

