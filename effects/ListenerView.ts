/**
 * ListenerView: what the Listener reconcile reads besides the Listener itself.
 *
 * In the controller every read is served from the watch caches (`k8s/listenerView.ts`), so a
 * reconcile sends no GET or LIST. `layerKubeApi` reads straight from the API instead, for
 * one-off tools and tests that do not run watchers.
 *
 * Objects are returned as the API server sent them (undecoded) and must not be mutated.
 * Failure reasons: only the API-backed view fails (`KubeApiError` of its reads); cache
 * reads never fail.
 */
import { Context, Effect, Layer, Option } from "effect"
import { Kinds } from "../domain/kinds.ts"
import { LABEL_APP_INSTANCE, LABEL_APP_MANAGED_BY, MANAGED_BY, PV_LABEL_LISTENER_NAME, PV_LABEL_LISTENER_NAMESPACE } from "../domain/constants.ts"
import { ENDPOINTSLICE_SERVICE_NAME_LABEL } from "../domain/core/endpointSlice.ts"
import { getOption, KubeApi } from "./KubeApi.ts"
import type { KubeApiError, KubeObject } from "./KubeApi.ts"

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
}>()("listener-operator/effects/ListenerView") {
  /** Reads through the API on every call (GET/LIST): for tools and tests, not the controller. */
  static readonly layerKubeApi = Layer.effect(ListenerView, Effect.gen(function*() {
    const api = yield* KubeApi
    const controlledBy = (uid: string) => (object: KubeObject) =>
      (object.metadata.ownerReferences ?? []).some((owner) => owner.controller === true && owner.uid === uid)
    return ListenerView.of({
      listenerClass: (name) => getOption(api.get(Kinds.ListenerClass, { name })),
      service: (namespace, name) => getOption(api.get(Kinds.Service, { namespace, name })),
      servicesOwnedBy: (listener) =>
        api.list(Kinds.Service, {
          namespace: listener.namespace,
          labelSelector: `${LABEL_APP_INSTANCE}=${listener.name},${LABEL_APP_MANAGED_BY}=${MANAGED_BY}`
        }).pipe(Effect.map((result) => result.items.filter(controlledBy(listener.uid)))),
      endpointSlicesOf: (namespace, serviceName) =>
        api.list(Kinds.EndpointSlice, { namespace, labelSelector: `${ENDPOINTSLICE_SERVICE_NAME_LABEL}=${serviceName}` })
          .pipe(Effect.map((result) => result.items)),
      volumesOf: (namespace, listenerName) =>
        api.list(Kinds.PersistentVolume, {
          labelSelector: `${PV_LABEL_LISTENER_NAMESPACE}=${namespace},${PV_LABEL_LISTENER_NAME}=${listenerName}`
        }).pipe(Effect.map((result) => result.items)),
      node: (name) => getOption(api.get(Kinds.Node, { name })),
      written: () => Effect.void
    })
  }))
}
