/**
 * Adding and removing this node's label on a Listener (domain/publishedOnNode.ts) outside a
 * publish: removed when the node's last volume of the Listener is unpublished, restored by
 * the address refresh when a race removed it. One merge patch of the one key: other nodes'
 * keys and every other label stay. Best effort — a failure is logged; a missing Listener is
 * nothing to do.
 */
import { Effect } from "effect"
import { FieldManagers } from "../../domain/constants.ts"
import { Kinds } from "../../domain/kinds.ts"
import { PUBLISHED_ON_NODE_VALUE, publishedOnNodeLabel } from "../../domain/publishedOnNode.ts"
import { KubeApi } from "../shared/KubeApi.ts"
import { NodeView } from "./NodeView.ts"

const setNodeLabel = (listener: { readonly namespace: string; readonly name: string }, value: string | null) =>
  Effect.gen(function*() {
    const view = yield* NodeView
    if (view.nodeName === undefined) return
    const api = yield* KubeApi
    const patched = yield* api.patch(
      Kinds.Listener,
      listener,
      { metadata: { labels: { [publishedOnNodeLabel(view.nodeName)]: value } } },
      { type: "merge", fieldManager: FieldManagers.csiNode }
    )
    yield* view.written(patched)
  }).pipe(
    Effect.catch((error) =>
      error.reason === "NotFound"
        ? Effect.void
        : Effect.logWarning(`could not ${value === null ? "remove" : "restore"} this node's label on Listener ${listener.namespace}/${listener.name}: ${error.message}`)
    )
  )

/** Put this node's label back on a Listener it publishes. */
export const relabelListener = (listener: { readonly namespace: string; readonly name: string }): Effect.Effect<void, never, KubeApi> =>
  setNodeLabel(listener, PUBLISHED_ON_NODE_VALUE)

/** Take this node's label off a Listener it no longer publishes. */
export const unlabelListener = (listener: { readonly namespace: string; readonly name: string }): Effect.Effect<void, never, KubeApi> =>
  setNodeLabel(listener, null)
