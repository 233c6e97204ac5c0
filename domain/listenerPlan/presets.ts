/**
 * The preset ListenerClasses (spec §5), as data: what `run controller` creates at start
 * when they are missing.
 */
import type { ListenerClassPreset } from "../constants.ts"
import { FieldManagers, LISTENER_API_VERSION } from "../constants.ts"
import type { ListenerClassEncoded } from "../listenerClass.ts"

export interface PresetListenerClass {
  readonly apiVersion: typeof LISTENER_API_VERSION
  readonly kind: "ListenerClass"
  readonly metadata: { readonly name: string; readonly labels: Readonly<Record<string, string>> }
  readonly spec: ListenerClassEncoded["spec"]
}

const presetClass = (name: string, spec: ListenerClassEncoded["spec"]): PresetListenerClass => ({
  apiVersion: LISTENER_API_VERSION,
  kind: "ListenerClass",
  metadata: { name, labels: { "app.kubernetes.io/managed-by": FieldManagers.presets } },
  spec
})

export const presetListenerClasses = (preset: ListenerClassPreset): ReadonlyArray<PresetListenerClass> => {
  switch (preset) {
    case "none":
      return []
    case "ephemeral-nodes":
      return [
        presetClass("cluster-internal", { serviceType: "ClusterIP" }),
        presetClass("external-unstable", { serviceType: "NodePort", pinnedNodePorts: false }),
        presetClass("external-stable", { serviceType: "LoadBalancer" })
      ]
    case "stable-nodes":
      return [
        presetClass("cluster-internal", { serviceType: "ClusterIP" }),
        presetClass("external-unstable", { serviceType: "NodePort", pinnedNodePorts: false }),
        presetClass("external-stable", { serviceType: "NodePort", pinnedNodePorts: true })
      ]
  }
}
