/**
 * Settings of the Listener controller, as a Context.Reference with defaults so programs
 * read them from the environment of the effect (never globals) and tests override them.
 */
import { Context } from "effect"
import { DEFAULT_CLUSTER_DOMAIN, FieldManagers } from "../domain/constants.ts"

export interface ListenerSettingsShape {
  /** DNS domain of the cluster (`KUBERNETES_CLUSTER_DOMAIN`): ClusterIP hostnames end in `.svc.<domain>`. */
  readonly clusterDomain: string
  /** Server-side apply field manager for the Service and the Listener status. */
  readonly fieldManager: string
}

export const ListenerSettings = Context.Reference<ListenerSettingsShape>("listener-operator/effects/ListenerSettings", {
  defaultValue: () => ({ clusterDomain: DEFAULT_CLUSTER_DOMAIN, fieldManager: FieldManagers.controller })
})
