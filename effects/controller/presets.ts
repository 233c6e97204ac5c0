/**
 * Preset ListenerClasses (spec §5): at controller start, create each class of the selected
 * preset that does not exist. An existing class is never touched — not even one the
 * preset created earlier — so an administrator's edits survive restarts and upgrades.
 *
 * `create` (not apply) is what makes "never overwrite" hold: it fails with AlreadyExists
 * instead of merging, and costs one request per class whether or not it exists.
 */
import { Effect } from "effect"
import type { ListenerClassPreset } from "../../domain/constants.ts"
import { FieldManagers } from "../../domain/constants.ts"
import { Kinds } from "../../domain/kinds.ts"
import { presetListenerClasses } from "../../domain/listenerPlan/presets.ts"
import { KubeApi } from "../shared/KubeApi.ts"
import type { KubeApiError, KubeObject } from "../shared/KubeApi.ts"

export interface PresetOutcome {
  readonly created: ReadonlyArray<string>
  readonly kept: ReadonlyArray<string>
}

export const applyPresets = Effect.fn("applyPresets")(function*(preset: ListenerClassPreset) {
  const api = yield* KubeApi
  const created: string[] = []
  const kept: string[] = []
  for (const listenerClass of presetListenerClasses(preset)) {
    const name = listenerClass.metadata.name
    const outcome = yield* api.create(Kinds.ListenerClass, listenerClass as unknown as KubeObject, { fieldManager: FieldManagers.presets }).pipe(
      Effect.as("created" as const),
      Effect.catchIf((error: KubeApiError) => error.reason === "AlreadyExists", () => Effect.succeed("kept" as const))
    )
    ;(outcome === "created" ? created : kept).push(name)
  }
  yield* Effect.logInfo(`ListenerClass preset ${preset}: created [${created.join(", ")}], kept existing [${kept.join(", ")}]`)
  return { created, kept } satisfies PresetOutcome
})
