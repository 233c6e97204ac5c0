/**
 * The label that marks a Listener as published on a node: the node plugin of that node puts
 * it on every Listener one of its volumes uses, and watches only the Listeners that carry
 * it (effects/node/NodeView.ts) — so a node learns of the changes to its own Listeners and no
 * others, and neither its watch nor its cache grows with the cluster.
 *
 * One key per node (`listeners.stackable.tech/on.<node>`), so that the nodes of a shared
 * Listener each add and remove their own with a merge patch that touches no other node's.
 * A label name is at most 63 characters; a longer node name (a Node name may have 253) is
 * replaced by a fingerprint of it — two nodes sharing one would only see each other's
 * Listener events, which their refresh ignores.
 */
import { BOUND_NODE_LABEL } from "./constants.ts"
import { fingerprint } from "./listenerPlan/json.ts"

const PREFIX = "listeners.stackable.tech/"
const NAME_PREFIX = "on."
const MAX_NAME = 63
const LABEL_NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/

/** The label key of `nodeName`; its value is `PUBLISHED_ON_NODE_VALUE`. */
export const publishedOnNodeLabel = (nodeName: string): string => {
  const readable = `${NAME_PREFIX}${nodeName}`
  const name = readable.length <= MAX_NAME && LABEL_NAME.test(nodeName) ? readable : `${NAME_PREFIX}${fingerprint(nodeName)}`
  return `${PREFIX}${name}`
}

export const PUBLISHED_ON_NODE_VALUE = "true"

/** Whether `key` is a node's published-on label (any node's). */
export const isPublishedOnNodeLabel = (key: string): boolean => key.startsWith(`${PREFIX}${NAME_PREFIX}`)

/**
 * `labels` without the published-on labels and the node binding: what the Listener's
 * Service inherits. They describe where the node plugins publish the Listener (and which
 * node may update it), not the Service, and a node joining or leaving a shared Listener, or
 * a replica moving to another node, must not re-apply its Service.
 */
export const withoutPublishedOnNodeLabels = (labels: Readonly<Record<string, string>> | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(labels ?? {}).filter(([key]) => !isPublishedOnNodeLabel(key) && key !== BOUND_NODE_LABEL))
