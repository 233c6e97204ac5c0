/**
 * The seam between the synchronous server core, which throws KubeApiError, and Effect:
 * a thrown KubeApiError becomes a typed failure, anything else is a defect (a bug here).
 */
import { Effect } from "effect"
import { KubeApiError } from "../../effects/shared/KubeApi.ts"

export const attempt = <A>(f: () => A): Effect.Effect<A, KubeApiError> =>
  Effect.suspend(() => {
    try {
      return Effect.succeed(f())
    } catch (error) {
      return error instanceof KubeApiError ? Effect.fail(error) : Effect.die(error)
    }
  })
