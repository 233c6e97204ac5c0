/**
 * The node role's NodeView (effects/node/NodeView.ts) over the controller runtime's watcher and
 * store: three watches per node, whatever the number of volumes it publishes —
 *
 * - Listeners labelled `publishedOnNodeLabel(node)` (label selector): only the Listeners
 *   this node publishes; the node plugin labels a Listener when it publishes a volume of it;
 * - every ListenerClass (a cluster has a handful);
 * - its own Node (field selector `metadata.name=<node>`), kept as name, addresses and the
 *   address override annotation.
 *
 * Each change that can move a published volume's addresses (a Listener's spec or status, a
 * class's spec, the Node's addresses or override; an object appearing or going) is queued
 * for the address refresh and wakes NodePublishVolumes waiting for a Listener's addresses.
 * Changes that cannot (resourceVersion-only updates, label edits, the Node's heartbeats)
 * are not. The caches' own writes (write-through) are not changes either: the watch event
 * that follows them is recognised as already known.
 */
import { Deferred, Duration, Effect } from "effect"
import type { Scope } from "effect"
import { Kinds } from "../domain/kinds.ts"
import { jsonEquals } from "../domain/listenerPlan/json.ts"
import { publishedOnNodeLabel } from "../domain/publishedOnNode.ts"
import type { KubeApi, KubeObject } from "../effects/shared/KubeApi.ts"
import type { NodeViewChange, NodeViewShape } from "../effects/node/NodeView.ts"
import { slimNode } from "./listenerCaches.ts"
import { makeStore } from "./runtime/store.ts"
import type { Change, StoreWriter } from "./runtime/store.ts"
import { runWatcher } from "./runtime/watcher.ts"
import type { WatcherEvent } from "./runtime/watcher.ts"

export interface NodeCachesConfig {
  readonly nodeName: string
  /** NodePublishVolume's wait for a Listener the controller has not caught up with (default 5 seconds). */
  readonly publishWait?: Duration.Input | undefined
  /** The server ends each watch after this long and it is renewed (default 600 s, as client-go's upper bound). */
  readonly watchTimeoutSeconds?: number | undefined
}

/** The parts of an object the published addresses depend on; a change elsewhere is no change. */
const relevant = (object: KubeObject | undefined): unknown => {
  if (object === undefined) return undefined
  switch (object.kind) {
    case Kinds.Node.kind: {
      const { metadata, ...rest } = slimNode(object)
      return { annotations: metadata.annotations, ...rest, apiVersion: undefined, kind: undefined }
    }
    default:
      return { spec: object["spec"], status: object["status"] }
  }
}

const changeOf = (change: Change): NodeViewChange | undefined => {
  if (jsonEquals(relevant(change.previous), relevant(change.current))) return undefined
  const object = (change.current ?? change.previous)!
  switch (object.kind) {
    case Kinds.Listener.kind:
      return { _tag: "Listener", namespace: object.metadata.namespace ?? "", name: object.metadata.name ?? "" }
    case Kinds.ListenerClass.kind:
      return { _tag: "ListenerClass", name: object.metadata.name ?? "" }
    default:
      return { _tag: "Node" }
  }
}

export const makeNodeCaches = (config: NodeCachesConfig): Effect.Effect<NodeViewShape, never, KubeApi | Scope.Scope> =>
  Effect.gen(function*() {
    const listeners = yield* makeStore(Kinds.Listener)
    const classes = yield* makeStore(Kinds.ListenerClass)
    const nodes = yield* makeStore(Kinds.Node, { transform: slimNode })
    const watchTimeoutSeconds = config.watchTimeoutSeconds ?? 600

    // Mutated only inside Effect.sync: the queue of changes for the refresh, a counter for
    // waiters, and the Deferred every waiter awaits (replaced after each batch of changes).
    let pending: Array<NodeViewChange> = []
    let count = 0
    let changed = Deferred.makeUnsafe<void>()
    const publish = (batch: ReadonlyArray<NodeViewChange>) =>
      Effect.suspend(() => {
        if (batch.length === 0) return Effect.void
        pending.push(...batch)
        count += batch.length
        const wake = changed
        changed = Deferred.makeUnsafe<void>()
        return Deferred.succeed(wake, undefined)
      })

    const feed = (writer: StoreWriter<never>) => (events: ReadonlyArray<WatcherEvent>) =>
      Effect.forEach(events, (event) => writer.apply(event)).pipe(
        Effect.flatMap((applied) =>
          publish(applied.flat().map(changeOf).filter((change): change is NodeViewChange => change !== undefined))
        )
      )
    yield* Effect.forkScoped(runWatcher(Kinds.Listener, { labelSelector: publishedOnNodeLabel(config.nodeName), watchTimeoutSeconds }, feed(listeners)))
    yield* Effect.forkScoped(runWatcher(Kinds.ListenerClass, { watchTimeoutSeconds }, feed(classes)))
    yield* Effect.forkScoped(runWatcher(Kinds.Node, { fieldSelector: `metadata.name=${config.nodeName}`, watchTimeoutSeconds }, feed(nodes)))

    const nextChanges: Effect.Effect<ReadonlyArray<NodeViewChange>> = Effect.suspend(() => {
      if (pending.length > 0) {
        const batch = pending
        pending = []
        return Effect.succeed(batch)
      }
      return Effect.andThen(Deferred.await(changed), nextChanges)
    })

    const writtenTo = (object: KubeObject) => {
      switch (object.kind) {
        case Kinds.Listener.kind:
          return listeners.store.writeThrough(object)
        case Kinds.ListenerClass.kind:
          return classes.store.writeThrough(object)
        case Kinds.Node.kind:
          return object.metadata.name === config.nodeName ? nodes.store.writeThrough(object) : Effect.succeed(false)
        default:
          return Effect.succeed(false)
      }
    }

    return {
      nodeName: config.nodeName,
      listener: (ref) => listeners.store.get(ref),
      listenerClass: (name) => classes.store.get({ name }),
      node: (name) => nodes.store.get({ name }),
      listenersReady: listeners.store.isReady,
      written: (object) => Effect.asVoid(writtenTo(object)),
      nextChanges,
      recheck: (change) =>
        Effect.suspend(() => {
          pending.push(change)
          const wake = changed
          changed = Deferred.makeUnsafe<void>()
          return Deferred.succeed(wake, undefined)
        }),
      changeCount: Effect.sync(() => count),
      awaitChange: (after) =>
        Effect.suspend(function loop(): Effect.Effect<void> {
          return count > after ? Effect.void : Effect.andThen(Deferred.await(changed), Effect.suspend(loop))
        }),
      publishWait: Duration.fromInputUnsafe(config.publishWait ?? "5 seconds")
    } satisfies NodeViewShape
  })
