/**
 * "The Kubernetes client is usable": one authorised round trip to the API server. A
 * NotFound answer proves it as well as a hit does, so the check reads a name that need
 * not exist and costs one cheap GET.
 */
import { Effect } from "effect"
import { Kinds } from "../../domain/kinds.ts"
import { hasReason, KubeApi } from "../../effects/shared/KubeApi.ts"
import type { KubeApiError } from "../../effects/shared/KubeApi.ts"

export const kubeApiUsable: Effect.Effect<void, KubeApiError, KubeApi> = Effect.gen(function*() {
  const api = yield* KubeApi
  yield* api.get(Kinds.ListenerClass, { name: "listener-operator-readiness-probe" }).pipe(
    Effect.asVoid,
    Effect.catchIf(hasReason("NotFound"), () => Effect.void)
  )
})
