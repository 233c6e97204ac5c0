/**
 * Watch streams over the store's change history, with the watch cache's semantics:
 * resume strictly after a resourceVersion, 410 Gone when it is older than the retained
 * history (or than the last compaction), "" or "0" replay the current state as ADDED first, a watch-list
 * (`sendInitialEvents`) replays it and then sends the BOOKMARK annotated
 * `k8s.io/initial-events-end` (it needs `allowBookmarks`, as on the real server), and selector transitions
 * (an object that starts matching arrives as ADDED, one that stops matching as DELETED
 * with its previous content). The subscription lives as long as the stream.
 */
import { Duration, Effect, Queue, Stream } from "effect"
import type { ResourceKind } from "../../domain/kinds.ts"
import { apiVersionOf, resourceKeyOf } from "../../domain/kinds.ts"
import { INITIAL_EVENTS_END_ANNOTATION } from "../../effects/shared/KubeApi.ts"
import type { KubeApiError, KubeObject, WatchEvent, WatchOptions } from "../../effects/shared/KubeApi.ts"
import { attempt } from "./attempt.ts"
import { badRequest, gone, unprocessable } from "./errors.ts"
import { clone } from "./json.ts"
import type { ApiServer, Selection } from "./server.ts"
import type { ChangeEvent } from "./store.ts"

const toWatchEvent = (server: ApiServer, kind: ResourceKind, selection: Selection, event: ChangeEvent): WatchEvent | undefined => {
  if (event.resourceKey !== resourceKeyOf(kind)) return undefined
  const now = event.type !== "DELETED" && server.matches(kind, selection, event.object)
  const before = event.previous !== undefined && server.matches(kind, selection, event.previous)
  if (now && !before) return { type: "ADDED", object: clone(event.object) }
  if (now && before) return { type: "MODIFIED", object: clone(event.object) }
  if (!now && before) {
    if (event.type === "DELETED") return { type: "DELETED", object: clone(event.object) }
    const last: KubeObject = clone(event.previous!)
    last.metadata.resourceVersion = String(event.revision)
    return { type: "DELETED", object: last }
  }
  return undefined
}

const bookmark = (server: ApiServer, kind: ResourceKind, initialEventsEnd = false): WatchEvent => ({
  type: "BOOKMARK",
  object: {
    apiVersion: apiVersionOf(kind),
    kind: kind.kind,
    metadata: {
      resourceVersion: String(server.store.currentRevision),
      ...(initialEventsEnd ? { annotations: { [INITIAL_EVENTS_END_ANNOTATION]: "true" } } : {})
    }
  }
})

/** Registers the watcher and returns its unsubscribe function; replays what it must first. */
const subscribe = (
  server: ApiServer,
  kind: ResourceKind,
  options: WatchOptions,
  offer: (event: WatchEvent) => void
): (() => void) => {
  server.store.registerKind(kind)
  const target = { verb: "watch", kind, namespace: options.namespace }
  const selection = server.parseSelection(kind, "watch", options)
  const deliver = (event: ChangeEvent) => {
    const out = toWatchEvent(server, kind, selection, event)
    if (out !== undefined) offer(out)
  }
  const version = options.resourceVersion
  const watchList = options.sendInitialEvents === true
  if (watchList && options.allowBookmarks !== true) {
    throw unprocessable(target, "sendInitialEvents requires setting allowWatchBookmarks to true")
  }
  if (version === "" || version === "0" || watchList) {
    for (const stored of server.store.list(kind, selection.namespace)) {
      if (server.matches(kind, selection, stored.object)) offer({ type: "ADDED", object: clone(stored.object) })
    }
    if (watchList) offer(bookmark(server, kind, true))
  } else {
    if (!/^\d+$/.test(version)) throw badRequest(target, `invalid resource version: ${JSON.stringify(version)}`)
    const since = server.store.eventsSince(Number(version))
    if ("oldest" in since) {
      // the watch cache names the versions; a compacted etcd answers in its own words
      throw gone(
        target,
        since.compacted ? "The resourceVersion for the provided watch is too old." : `too old resource version: ${version} (${since.oldest})`
      )
    }
    for (const event of since.events) deliver(event)
  }
  return server.store.subscribe(deliver)
}

export const watchStream = (
  server: ApiServer,
  kind: ResourceKind,
  options: WatchOptions,
  bookmarkInterval: Duration.Duration
): Stream.Stream<WatchEvent, KubeApiError> =>
  Stream.callback<WatchEvent, KubeApiError>((queue) =>
    Effect.gen(function*() {
      const offer = (event: WatchEvent) => {
        Queue.offerUnsafe(queue, event)
      }
      yield* Effect.acquireRelease(
        attempt(() => subscribe(server, kind, options, offer)),
        (unsubscribe) => Effect.sync(unsubscribe)
      )
      const bookmarks = options.allowBookmarks === true
        ? Effect.forever(Effect.andThen(Effect.sleep(bookmarkInterval), Effect.sync(() => offer(bookmark(server, kind)))))
        : Effect.never
      if (options.timeoutSeconds === undefined) return yield* bookmarks
      yield* Effect.raceFirst(bookmarks, Effect.sleep(Duration.seconds(options.timeoutSeconds)))
      if (options.allowBookmarks === true) offer(bookmark(server, kind))
      yield* Queue.end(queue)
    })
  )
