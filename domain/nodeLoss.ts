/**
 * Node-loss recovery for pinned listener volumes (spec §7): whether the Node a volume is
 * pinned to counts as lost, and what to do about it. Pure: the controller
 * (k8s/nodeLossController.ts) feeds it what its caches and one confirming GET say.
 *
 * A Node counts as lost when it is deleted, or — only with a grace period — when its Ready
 * condition has not been True for longer than the grace period. A Ready Node, or one
 * whose Ready condition flipped within the grace period, is never acted on.
 */
import { parseDurationMillis } from "./duration.ts"

/** What is known of the pinned Node. */
export type PinnedNodeState =
  | { readonly _tag: "Deleted" }
  | {
    readonly _tag: "Present"
    /** The Ready condition is True (true), False or Unknown (false), or absent (undefined: no verdict yet). */
    readonly ready: boolean | undefined
    /** Epoch ms the Ready condition last changed; undefined if not reported. */
    readonly sinceMillis: number | undefined
  }

/** The class's policy (ListenerClass spec fields). */
export interface NodeLossPolicy {
  readonly pinnedNodeLossRecovery?: boolean | undefined
  readonly pinnedNodeLossGracePeriod?: string | undefined
}

export type NodeLossDecision =
  /** The Node is fine (or NotReady without a grace period): nothing to do. */
  | { readonly _tag: "Keep" }
  /** NotReady, grace period running: look again after `afterMillis`. */
  | { readonly _tag: "Wait"; readonly afterMillis: number }
  /** Lost, recovery on: release the volume. */
  | { readonly _tag: "Release"; readonly why: string }
  /** Lost, recovery off: tell the user what to do by hand. */
  | { readonly _tag: "Report"; readonly why: string }

export const decideNodeLoss = (args: {
  readonly nodeName: string
  readonly node: PinnedNodeState
  readonly policy: NodeLossPolicy
  readonly nowMillis: number
}): NodeLossDecision => {
  const { node, policy, nodeName } = args
  const recovery = policy.pinnedNodeLossRecovery === true
  if (node._tag === "Deleted") {
    const why = `Node ${nodeName} was deleted`
    return recovery ? { _tag: "Release", why } : { _tag: "Report", why }
  }
  // Ready, or no Ready condition at all (a Node still registering): never act.
  if (node.ready !== false) return { _tag: "Keep" }
  const graceMillis = policy.pinnedNodeLossGracePeriod === undefined ? undefined : parseDurationMillis(policy.pinnedNodeLossGracePeriod)
  // Without a grace period a NotReady Node is left to the kubelet coming back.
  if (!recovery || graceMillis === undefined) return { _tag: "Keep" }
  // Not knowing since when, leave it: the node lifecycle controller always stamps the transition.
  if (node.sinceMillis === undefined) return { _tag: "Keep" }
  const notReadyFor = Math.max(0, args.nowMillis - node.sinceMillis)
  if (notReadyFor < graceMillis) return { _tag: "Wait", afterMillis: graceMillis - notReadyFor }
  return {
    _tag: "Release",
    why: `Node ${nodeName} has not been Ready since ${new Date(node.sinceMillis).toISOString()}, longer than the grace period ${policy.pinnedNodeLossGracePeriod}`
  }
}
