/**
 * The controller's volume binder (k8s/volumeBinder.ts) running beside a test, on whatever
 * KubeApi the test provides (the in-memory API server): it creates and binds PodListeners
 * and per-volume Listeners as in a cluster, so NodePublishVolume's wait for them ends as it
 * does there (effects/node/awaitBinding.ts).
 */
import { Effect, Layer } from "effect"
import type { KubeApi } from "../../../../effects/shared/KubeApi.ts"
import { makeVolumeBinder } from "../../../../k8s/volumeBinder.ts"

/** Runs the binder for the life of the layer. */
export const VolumeBinderRunning: Layer.Layer<never, never, KubeApi> = Layer.effectDiscard(
  Effect.forkScoped(Effect.scoped(Effect.flatMap(makeVolumeBinder, (binder) => binder.run)))
)
