/**
 * Reading the objects behind a listener volume (PV, PVC, Pod, Node, Listener,
 * ListenerClass) through the KubeApi port, decoded with the domain Schemas. Each read is
 * named after its step so a failure says which object the volume program was waiting for.
 */
import { Effect, Option } from "effect"
import type { Schema } from "effect"
import { CSI_DRIVER_NAME } from "../../domain/constants.ts"
import { decodeWith } from "../../domain/decode.ts"
import { isObjectName } from "../../domain/fields.ts"
import type { DecodeError } from "../../domain/decode.ts"
import type { ResourceKind } from "../../domain/kinds.ts"
import { Kinds } from "../../domain/kinds.ts"
import { PersistentVolume } from "../../domain/core/persistentVolume.ts"
import { getOption, KubeApi, KubeApiError } from "./KubeApi.ts"
import type { KubeObject, ObjectRef } from "./KubeApi.ts"
import { VolumeApiStepFailed, VolumeObjectInvalid } from "./volumeErrors.ts"

export const decodeErrorToInvalid = (kind: string, ref: ObjectRef) => (error: DecodeError): VolumeObjectInvalid =>
  new VolumeObjectInvalid({ kind, namespace: ref.namespace, name: ref.name, problem: error.message, cause: error })

export const apiStepFailed = (step: string, kind: ResourceKind, ref: ObjectRef) => (cause: KubeApiError): VolumeApiStepFailed =>
  new VolumeApiStepFailed({ step, kind: kind.kind, namespace: ref.namespace, name: ref.name, cause })

/** Decode `object` as `kind` with `schema`; a mismatch is a configuration problem of that object. */
export const decodeObject = <S extends Schema.ConstraintDecoder<unknown>>(kind: ResourceKind, schema: S) => {
  const decode = decodeWith(kind.kind, schema)
  return (object: KubeObject, ref: ObjectRef): Effect.Effect<S["Type"], VolumeObjectInvalid> =>
    Effect.mapError(decode(object), decodeErrorToInvalid(kind.kind, ref))
}

/** GET and decode one object; NotFound and every API failure become `VolumeApiStepFailed` (retryable). */
export const loadObject = <S extends Schema.ConstraintDecoder<unknown>>(step: string, kind: ResourceKind, schema: S) => {
  const decode = decodeObject(kind, schema)
  return (ref: ObjectRef): Effect.Effect<S["Type"], VolumeApiStepFailed | VolumeObjectInvalid, KubeApi> =>
    Effect.gen(function*() {
      const api = yield* KubeApi
      const object = yield* Effect.mapError(api.get(kind, ref), apiStepFailed(step, kind, ref))
      return yield* decode(object, ref)
    })
}

const isOurVolume = (pv: PersistentVolume, volumeId: string): boolean =>
  pv.spec?.csi?.driver === CSI_DRIVER_NAME && pv.spec.csi.volumeHandle === volumeId

const decodePersistentVolume = decodeObject(Kinds.PersistentVolume, PersistentVolume)

/**
 * The PV whose CSI volume handle is `volumeId`, if any.
 *
 * Lookup by name first: the external provisioner names the PV `pvc-<uid>` and sends that
 * same string as the CreateVolume name, which we return verbatim as the volume id — so
 * for every volume we provisioned, PV name = volume id and one GET finds it. Only if that
 * misses (a PV created by hand or by another provisioner naming scheme) do we list PVs and
 * match `spec.csi.volumeHandle`; PVs are cluster-scoped and few, and this path is rare.
 * A handle that cannot be an object name (`..`, `a/b`) is never sent as one.
 */
export const findPersistentVolume = (
  volumeId: string
): Effect.Effect<Option.Option<PersistentVolume>, VolumeApiStepFailed, KubeApi> =>
  Effect.gen(function*() {
    const api = yield* KubeApi
    const ref = { name: volumeId }
    const failed = apiStepFailed("load PersistentVolume", Kinds.PersistentVolume, ref)
    const byName = isObjectName(volumeId)
      ? yield* Effect.mapError(getOption(api.get(Kinds.PersistentVolume, ref)), failed)
      : Option.none()
    if (Option.isSome(byName)) {
      const pv = yield* Effect.option(decodePersistentVolume(byName.value, ref))
      if (Option.isSome(pv) && isOurVolume(pv.value, volumeId)) return pv
    }
    const all = yield* Effect.mapError(api.list(Kinds.PersistentVolume), failed)
    for (const item of all.items) {
      const pv = yield* Effect.option(decodePersistentVolume(item, { name: item.metadata.name ?? "" }))
      if (Option.isSome(pv) && isOurVolume(pv.value, volumeId)) return pv
    }
    return Option.none()
  })

/** Like `findPersistentVolume`, but a missing PV is "not there yet" (UNAVAILABLE: the kubelet retries). */
export const loadPersistentVolume = (
  volumeId: string
): Effect.Effect<PersistentVolume, VolumeApiStepFailed, KubeApi> =>
  Effect.flatMap(findPersistentVolume(volumeId), Option.match({
    onSome: Effect.succeed,
    onNone: () =>
      Effect.fail(apiStepFailed("load PersistentVolume", Kinds.PersistentVolume, { name: volumeId })(
        new KubeApiError({
          reason: "NotFound",
          verb: "get",
          kind: Kinds.PersistentVolume.kind,
          objectName: volumeId,
          message: `no PersistentVolume of driver ${CSI_DRIVER_NAME} has volume handle ${JSON.stringify(volumeId)}`
        })
      ))
  }))
