/**
 * NodeView: what the node plugin reads about the Listeners it publishes, their classes and
 * its own Node — served from watch caches in the node role (`k8s/nodeCaches.ts`), so that
 * neither the live address refresh nor a repeated NodePublishVolume sends a GET for them.
 *
 * The caches are narrowed so that their cost does not grow with the cluster: the node's own
 * Node (field selector), every ListenerClass (few), and only the Listeners that carry this
 * node's label (`publishedOnNodeLabel`, put there by the node plugin when it publishes one
 * of their volumes). See docs/performance.md for why.
 *
 * A read that misses (`Option.none()`) means "not in the cache": not labelled for this node
 * yet, not listed yet, or gone. NodePublishVolume then reads the API (a fresh GET); the
 * refresh never does (at rest it sends nothing).
 *
 * The default (`NodeView.uncached`, when no node role provides one: tests, tools) misses
 * every read and never reports a change, which is exactly the behaviour before caches:
 * every read is a GET, no Listener is labelled, a publish waits for nothing.
 */
import { Context, Duration, Effect, Option } from "effect"
import type { KubeObject } from "../shared/KubeApi.ts"

/** Something the published volumes' addresses depend on changed. */
export type NodeViewChange =
  | { readonly _tag: "Listener"; readonly namespace: string; readonly name: string }
  | { readonly _tag: "ListenerClass"; readonly name: string }
  | { readonly _tag: "Node" }

export interface NodeViewShape {
  /** The Node whose label narrows the Listener cache; undefined: no caches (every read misses). */
  readonly nodeName: string | undefined
  listener(ref: { readonly namespace: string; readonly name: string }): Effect.Effect<Option.Option<KubeObject>>
  listenerClass(name: string): Effect.Effect<Option.Option<KubeObject>>
  node(name: string): Effect.Effect<Option.Option<KubeObject>>
  /** Whether the Listener cache has been listed (a miss then means "not labelled for this node", or gone). */
  readonly listenersReady: Effect.Effect<boolean>
  /** Puts an object a write (or a fallback GET) returned into its cache, if newer than the cached one. */
  written(object: KubeObject): Effect.Effect<void>
  /** Waits for at least one change, then returns all that arrived since the last call (one consumer: the refresh). */
  readonly nextChanges: Effect.Effect<ReadonlyArray<NodeViewChange>>
  /**
   * Queues `change` for the refresh as if the caches had seen it: after a publish records
   * its volume, so a change that arrived while the publish ran is not missed.
   */
  recheck(change: NodeViewChange): Effect.Effect<void>
  /** How many changes the caches applied so far; with `awaitChange`, a wait that misses none. */
  readonly changeCount: Effect.Effect<number>
  /** Completes once `changeCount` exceeds `after`. */
  awaitChange(after: number): Effect.Effect<void>
  /**
   * How long NodePublishVolume waits, watching, for a Listener that has no address only
   * because the controller has not caught up yet (listenerCatchUp.ts). Zero: fail at once.
   */
  readonly publishWait: Duration.Duration
}

const uncached: NodeViewShape = {
  nodeName: undefined,
  listener: () => Effect.succeed(Option.none()),
  listenerClass: () => Effect.succeed(Option.none()),
  node: () => Effect.succeed(Option.none()),
  listenersReady: Effect.succeed(false),
  written: () => Effect.void,
  nextChanges: Effect.never,
  recheck: () => Effect.void,
  changeCount: Effect.succeed(0),
  awaitChange: () => Effect.never,
  publishWait: Duration.zero
}

export const NodeView = Context.Reference<NodeViewShape>("listener-operator/effects/NodeView", {
  defaultValue: () => uncached
})

/** The view of no caches (see the module header). */
export const uncachedNodeView: NodeViewShape = uncached
