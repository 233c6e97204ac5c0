/**
 * "The next build" of the upgrade tests: this build's CRDs with one more optional field,
 * `spec.upgradeNote` of ListenerClass — what a release that adds a field ships. The
 * upgrade end-to-end test bundles an operator whose `k8s/crds.ts` is this module
 * (test/upgrade/nextBuild.ts); the integration test applies it directly. Nothing of the
 * product changes: the field is only declared (no code reads it).
 */
import * as current from "../../k8s/crds.ts"
import type { CustomResourceDefinition } from "../../k8s/crds.ts"
import { stringify } from "yaml"

export * from "../../k8s/crds.ts"

export const NEXT_FIELD = "upgradeNote"

type Mutable<T> = { -readonly [K in keyof T]: Mutable<T[K]> }

/** `crds` with `spec.upgradeNote` (an optional string) added to ListenerClass's schema. */
export const withNextField = (crds: ReadonlyArray<CustomResourceDefinition>): ReadonlyArray<CustomResourceDefinition> =>
  crds.map((crd) => {
    if (crd.spec.names.kind !== "ListenerClass") return crd
    const next = structuredClone(crd) as Mutable<CustomResourceDefinition>
    for (const version of next.spec.versions) {
      const spec = (version.schema.openAPIV3Schema["properties"] as Record<string, { properties: Record<string, unknown> }>)["spec"]!
      spec.properties[NEXT_FIELD] = { description: "A note an administrator keeps on the class (added by the next build).", type: "string" }
    }
    return next
  })

export const crdManifests = (): ReadonlyArray<CustomResourceDefinition> => withNextField(current.crdManifests())

export const crdYaml = (): string => crdManifests().map((crd) => `---\n${stringify(crd, { lineWidth: 0 })}`).join("")
