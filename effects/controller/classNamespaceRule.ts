/**
 * The controller's half of "who may use which ListenerClass" (docs/security.md): a
 * Listener in a namespace its class's `spec.allowedNamespaces` does not match is not
 * served. Admission (the chart's class-namespaces policy) refuses new ones; this catches
 * Listeners made before the rule or while the policy was off. The exposure is withdrawn —
 * the Services this Listener controls are deleted — and the refusal names the class and
 * the rule (Ready=False ClassNotAllowed, Warning Event).
 */
import { Effect } from "effect"
import { allowedNamespacesRule, classAllowsNamespace } from "../../domain/classNamespaces.ts"
import { Kinds } from "../../domain/kinds.ts"
import { KubeApi } from "../shared/KubeApi.ts"
import { ClassNotAllowed, ListenerApiFailure } from "./listenerErrors.ts"
import type { ListenerRef } from "./listenerErrors.ts"
import { ListenerView } from "./ListenerView.ts"
import type { ListenerIdentity } from "./ListenerView.ts"

export const refuseClassOutsideNamespaces = Effect.fn("refuseClassOutsideNamespaces")(function*(
  ref: ListenerRef,
  identity: ListenerIdentity,
  className: string,
  allowedNamespaces: ReadonlyArray<string> | undefined
) {
  if (allowedNamespaces === undefined || classAllowsNamespace(allowedNamespaces, identity.namespace)) return
  const view = yield* ListenerView
  const api = yield* KubeApi
  const owned = yield* view.servicesOwnedBy(identity).pipe(
    Effect.mapError((cause) => new ListenerApiFailure({ ...ref, step: "ReadCache", cause }))
  )
  for (const service of owned) {
    if (!(service.metadata.ownerReferences ?? []).some((owner) => owner.controller === true && owner.uid === identity.uid)) continue
    yield* api.delete(Kinds.Service, { namespace: identity.namespace, name: service.metadata.name ?? "" }, {
      preconditions: { uid: service.metadata.uid }
    }).pipe(
      Effect.catchIf((error) => error.reason === "NotFound", () => Effect.void),
      Effect.mapError((cause) => new ListenerApiFailure({ ...ref, step: "DeleteStaleService", cause }))
    )
  }
  return yield* new ClassNotAllowed({ ...ref, className, rule: allowedNamespacesRule(allowedNamespaces) })
})
