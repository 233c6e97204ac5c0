/**
 * The Pod's PodListeners record (spec §2, §4 step 6): which addresses each listener volume
 * of a Pod was published with, keyed by the Pod's volume name.
 */
import { Effect, Option } from "effect"
import { FieldManagers, podListenersName } from "../../domain/constants.ts"
import type { Pod } from "../../domain/core/pod.ts"
import { Kinds } from "../../domain/kinds.ts"
import { jsonEquals } from "../../domain/listenerPlan/json.ts"
import { PodListeners } from "../../domain/podListeners.ts"
import type { PodListener } from "../../domain/podListeners.ts"
import { getOption, KubeApi } from "./KubeApi.ts"
import { awaitBound } from "../node/awaitBinding.ts"
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
 * Listener — it lacked the mount label — so there is nothing to compare with: patch at once
 * and save the read, one round trip of the Pod's start).
 */
export type PodListenerEntryState = "new" | "maybeRecorded"

/**
 * spec §4 step 6: merge-patch just this volume's key into `spec.listeners` of `pod-<uid>`.
 * The node plugin never creates it: the controller's volume binder creates it bound to the
 * Pod's node (`listeners.stackable.tech/bound-node`) once the Pod is marked, and the
 * admission policy lets a node update only what is bound to it. So the record is waited for
 * (effects/node/awaitBinding.ts) when it is not there, or not bound to `nodeName`, yet.
 * Why a merge patch and not a read-modify-write update or one shared apply: the Pod's other
 * listener volumes are published concurrently by the same plugin; a JSON merge patch of one
 * map key is applied atomically by the API server and cannot drop or overwrite another
 * volume's entry, and needs no resourceVersion retry loop.
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
  const nodeName = pod.spec?.nodeName ?? ""
  const ref = { namespace, name: podListenersName(podUid) }
  const failed = (step: string) => apiStepFailed(step, Kinds.PodListeners, ref)
  const patchEntry = mergePodListenerEntry(namespace, podUid, volumeName, entry)
  if (state === "new") {
    // Usually bound already (the binder acts on the mark, several round trips ago): one patch.
    // Missing (404) or not bound to this node yet (the policy's 403): wait for the binder below.
    const patched = yield* Effect.result(patchEntry)
    if (patched._tag === "Success") return
    const reason = patched.failure.cause.reason
    if (reason !== "NotFound" && reason !== "Forbidden") return yield* Effect.fail(patched.failure)
  }
  const read = Effect.mapError(getOption(api.get(Kinds.PodListeners, ref)), failed("load PodListeners"))
  const existing = yield* awaitBound({ kind: Kinds.PodListeners.kind, namespace, name: ref.name, nodeName }, read)
  const current = yield* Effect.option(decodePodListeners(existing, ref))
  if (Option.isSome(current) && jsonEquals(current.value.spec.listeners[volumeName], entry)) return
  yield* patchEntry
})
