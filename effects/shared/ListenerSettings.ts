/**
 * Settings of the Listener controller, as a Context.Reference with defaults so programs
 * read them from the environment of the effect (never globals) and tests override them.
 */
import { Context } from "effect"
import { DEFAULT_CLUSTER_DOMAIN, FieldManagers } from "../../domain/constants.ts"
import { isUpstreamFieldManager } from "../../domain/managedFields.ts"

export interface ListenerSettingsShape {
  /** DNS domain of the cluster (`KUBERNETES_CLUSTER_DOMAIN`): ClusterIP hostnames end in `.svc.<domain>`. */
  readonly clusterDomain: string
  /** Server-side apply field manager for the Service and the Listener status. */
  readonly fieldManager: string
  /**
   * Field managers whose ownership of our Services and Listener statuses passes to
   * `fieldManager` when we first write them (taking over from another operator, see
   * domain/managedFields.ts). Default: the upstream listener-operator's.
   */
  readonly isPredecessorFieldManager?: ((manager: string | undefined) => boolean) | undefined
}

export const predecessorFieldManagers = (settings: ListenerSettingsShape) => settings.isPredecessorFieldManager ?? isUpstreamFieldManager

export const ListenerSettings = Context.Reference<ListenerSettingsShape>("listener-operator/effects/ListenerSettings", {
  defaultValue: () => ({ clusterDomain: DEFAULT_CLUSTER_DOMAIN, fieldManager: FieldManagers.controller })
})
