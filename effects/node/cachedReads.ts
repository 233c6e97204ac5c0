/**
 * Reads of NodePublishVolume that a little staleness cannot hurt — the Listener's class and
 * this node's Node — served from the node's watch caches (NodeView.ts), and from a fresh
 * GET only when the cache misses (not listed yet, or no caches at all). What a cached read
 * returns can only be older than the API server by one watch round trip, and any newer
 * version that arrives is a change the address refresh acts on (addressRefresh.ts).
 */
import { Effect, Option } from "effect"
import type { Schema } from "effect"
import type { ResourceKind } from "../../domain/kinds.ts"
import { KubeApi } from "../shared/KubeApi.ts"
import type { KubeObject, ObjectRef } from "../shared/KubeApi.ts"
import { NodeView } from "./NodeView.ts"
import type { NodeViewShape } from "./NodeView.ts"
import type { VolumeApiStepFailed, VolumeObjectInvalid } from "../shared/volumeErrors.ts"
import { apiStepFailed, decodeObject } from "../shared/volumeObjects.ts"

/** Like `loadObject`, but the cached object first; a GET's answer is written into the cache. */
export const cachedOrLoad = <S extends Schema.ConstraintDecoder<unknown>>(
  step: string,
  kind: ResourceKind,
  schema: S,
  fromCache: (view: NodeViewShape, ref: ObjectRef) => Effect.Effect<Option.Option<KubeObject>>
) => {
  const decode = decodeObject(kind, schema)
  return (ref: ObjectRef): Effect.Effect<S["Type"], VolumeApiStepFailed | VolumeObjectInvalid, KubeApi> =>
    Effect.gen(function*() {
      const view = yield* NodeView
      const cached = yield* fromCache(view, ref)
      if (Option.isSome(cached)) return yield* decode(cached.value, ref)
      const api = yield* KubeApi
      const object = yield* Effect.mapError(api.get(kind, ref), apiStepFailed(step, kind, ref))
      yield* view.written(object)
      return yield* decode(object, ref)
    })
}
