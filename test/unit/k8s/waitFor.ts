/** Polls `probe` every 10 ms (real time) until it answers something other than undefined or false; dies naming `what` after `timeout`. */
import { Duration, Effect } from "effect"

export const waitFor = <A>(what: string, probe: () => A | undefined | false, timeout = Duration.seconds(5)): Effect.Effect<A> =>
  Effect.gen(function*() {
    for (let i = 0; i < Duration.toMillis(timeout) / 10; i++) {
      const value = probe()
      if (value !== undefined && value !== false) return value
      yield* Effect.sleep("10 millis")
    }
    return yield* Effect.die(new Error(`timed out waiting for ${what}`))
  })
