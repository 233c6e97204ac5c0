import { Deferred, Effect } from "effect"

/**
 * A CSI handler that never answers, telling when it started and when it was interrupted:
 * what the cancellation and shutdown tests of the CSI server watch.
 */
export const hangingHandler = () => {
  const started = Effect.runSync(Deferred.make<void>())
  const interrupted = Effect.runSync(Deferred.make<void>())
  const handler = () =>
    Deferred.succeed(started, undefined).pipe(
      Effect.andThen(Effect.never),
      Effect.onInterrupt(() => Deferred.succeed(interrupted, undefined)),
      Effect.as({})
    )
  return { started, interrupted, handler }
}
