/**
 * ListenerView: what the Listener reconcile reads besides the Listener itself.
 *
 * Served from the controller's watch caches (`k8s/listenerCaches.ts`), so a reconcile sends
 * no GET or LIST; an implementation over something else must answer the same questions the
 * same way (the same objects for the same cluster state).
 *
 * Objects are returned as the API server sent them (undecoded) and must not be mutated.
 * Failure reasons: `KubeApiError` for an implementation whose reads can fail; cache reads
 * never fail.
 */
import { Context } from "effect"
import type { Effect, Option } from "effect"
import type { KubeApiError, KubeObject } from "../shared/KubeApi.ts"

export interface ListenerIdentity {
  readonly namespace: string
  readonly name: string
  readonly uid: string
}

export class ListenerView extends Context.Service<ListenerView, {
  listenerClass(name: string): Effect.Effect<Option.Option<KubeObject>, KubeApiError>
  service(namespace: string, name: string): Effect.Effect<Option.Option<KubeObject>, KubeApiError>
  /** Services whose controller owner reference is this Listener (any name). */
  servicesOwnedBy(listener: ListenerIdentity): Effect.Effect<ReadonlyArray<KubeObject>, KubeApiError>
  /** EndpointSlices labelled `kubernetes.io/service-name=<serviceName>` in the namespace. */
  endpointSlicesOf(namespace: string, serviceName: string): Effect.Effect<ReadonlyArray<KubeObject>, KubeApiError>
  /** PersistentVolumes labelled with the Listener's namespace and name. */
  volumesOf(namespace: string, listenerName: string): Effect.Effect<ReadonlyArray<KubeObject>, KubeApiError>
  node(name: string): Effect.Effect<Option.Option<KubeObject>, KubeApiError>
  /**
   * Tell the cache about an object the API returned from a write, so the next reconcile
   * sees it before the watch event arrives (and that event does not trigger another run).
   */
  written(object: KubeObject): Effect.Effect<void>
}>()("listener-operator/effects/ListenerView") {}
