import { Effect } from "effect"
export const runDemo = Effect.logInfo("demo: not yet")
