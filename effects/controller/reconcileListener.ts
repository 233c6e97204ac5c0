/**
 * The Listener reconcile (spec §3): keep the Listener's Service in sync and report where
 * the Listener is reachable.
 *
 *     Listener ──decode──▶ load (ListenerView: caches) ──▶ plan (domain/listenerPlan)
 *              ──▶ apply (only what differs) ──▶ status (only when it changes)
 *                  └─ both writes in one step, writeListener (takeover/listenerTakeover.ts) ─┘
 *
 * Level-based: it never sees which event triggered it, so running it twice is harmless.
 * Guarantees:
 * - Nothing changed → no request at all: the Service is applied only when the cached one
 *   lacks a field we apply or carries a different applied-fingerprint, stale Services are
 *   deleted only when they exist, and the status is written only when it differs.
 * - A Service not controlled by this Listener is never written (ServiceConflict).
 * - Writes are server-side apply (field manager from ListenerSettings, force) and the
 *   returned objects go into the caches (`ListenerView.written`).
 * Caveats:
 * - A Listener being deleted is left alone: garbage collection removes its Service.
 * - Failures are typed (`ListenerError`); `listenerErrorPolicy` turns each into a
 *   condition, an Event and an Action (see listenerErrors.ts).
 */
import { Clock, Effect, Option, Result } from "effect"
import { DecodeResult } from "../../domain/decode.ts"
import type { DecodeError } from "../../domain/decode.ts"
import { Kinds } from "../../domain/kinds.ts"
import { LABEL_APP_INSTANCE, LABEL_APP_MANAGED_BY, LISTENER_API_VERSION, listenerNameProblem, MANAGED_BY } from "../../domain/constants.ts"
import {
  awaitingAddressesHint,
  backingNodeNames,
  nodeAddressOverride,
  nodePortNumbers,
  planAddresses,
  planFailedStatus,
  planService,
  planStatus,
  refusedAddresses,
  rememberedNodePorts,
  renderHostname,
  templatedAddresses,
  withRememberedNodePorts
} from "../../domain/listenerPlan/index.ts"
import type { NodeInput, ServiceInput } from "../../domain/listenerPlan/index.ts"
import type { Listener } from "../../domain/listener.ts"
import { Action } from "../shared/action.ts"
import { EventRecorder } from "../shared/EventRecorder.ts"
import { KubeApi } from "../shared/KubeApi.ts"
import type { KubeApiError, KubeObject } from "../shared/KubeApi.ts"
import {
  errorPolicyOf,
  HostnameTemplateUnusable,
  InvalidListener,
  InvalidListenerClass,
  ListenerApiFailure,
  ListenerClassNotFound,
  NoClassName,
  ServiceConflict,
  NodePortConflict,
  ServiceRejected
} from "./listenerErrors.ts"
import type { ListenerError, ListenerRef } from "./listenerErrors.ts"
import { ListenerSettings } from "../shared/ListenerSettings.ts"
import { ListenerView } from "./ListenerView.ts"
import { refuseClassOutsideNamespaces } from "./classNamespaceRule.ts"
import type { ListenerIdentity } from "./ListenerView.ts"
import { writeListener, writeStatus } from "../takeover/listenerTakeover.ts"

const refOfRaw = (raw: KubeObject): ListenerRef => ({
  namespace: raw.metadata.namespace ?? "",
  listener: raw.metadata.name ?? ""
})

/** metav1.Time has second precision; anything finer would not survive a round trip and would look like a change. */
const nowTimestamp = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis).toISOString().replace(/\.\d{3}Z$/, "Z"))

const invalidListener = (ref: ListenerRef, error: DecodeError) =>
  new InvalidListener({ ...ref, path: error.path, details: error.issues.map((i) => (i.path === "" ? i.message : `${i.path}: ${i.message}`)).join("; ") })

/**
 * Server-side apply answers 500 "failed to create typed patch object" when the object does
 * not fit the kind's schema (an override adding an unknown field, a list entry without its
 * key): the request is at fault, and retrying the same object can never succeed.
 */
const isUntypableApply = (error: KubeApiError): boolean =>
  error.reason === "Internal" && /failed to create typed patch object/u.test(error.message)

const apiFailure = (ref: ListenerRef, step: ListenerApiFailure["step"]) => (cause: KubeApiError) =>
  new ListenerApiFailure({ ...ref, step, cause })

const controllerOf = (object: KubeObject) => object.metadata.ownerReferences?.find((owner) => owner.controller === true)

const isOurs = (listener: ListenerIdentity) => (object: KubeObject): boolean =>
  controllerOf(object)?.uid === listener.uid &&
  object.metadata.labels?.[LABEL_APP_INSTANCE] === listener.name &&
  object.metadata.labels?.[LABEL_APP_MANAGED_BY] === MANAGED_BY

/** Decoded, or undefined (with a warning) for a cached core object that does not decode. */
const decodedOrSkip = <A>(result: Result.Result<A, DecodeError>): Effect.Effect<A | undefined> =>
  Result.match(result, {
    onSuccess: (value) => Effect.succeed<A | undefined>(value),
    onFailure: (error) => Effect.as(Effect.logWarning(`ignoring an undecodable object: ${error.message}`), undefined)
  })

const decodeAll = <A>(objects: ReadonlyArray<KubeObject>, decode: (u: unknown) => Result.Result<A, DecodeError>) =>
  Effect.map(Effect.forEach(objects, (object) => decodedOrSkip(decode(object))), (all) => all.filter((a): a is Exclude<typeof a, undefined> => a !== undefined))

/** Decode the Listener and make sure it has what a namespaced, stored object always has. */
const decodeListener = (raw: KubeObject, ref: ListenerRef) =>
  Effect.gen(function*() {
    const decoded = DecodeResult.Listener(raw)
    if (Result.isFailure(decoded)) return yield* invalidListener(ref, decoded.failure)
    const listener: Listener = decoded.success
    const { namespace, uid } = listener.metadata
    if (namespace === undefined || namespace === "") {
      return yield* new InvalidListener({ ...ref, path: "metadata.namespace", details: "metadata.namespace: missing" })
    }
    if (uid === undefined || uid === "") {
      return yield* new InvalidListener({ ...ref, path: "metadata.uid", details: "metadata.uid: missing" })
    }
    const nameProblem = listenerNameProblem(listener.metadata.name)
    if (nameProblem !== undefined) {
      return yield* new InvalidListener({ ...ref, path: "metadata.name", details: `metadata.name: ${nameProblem}` })
    }
    return { listener, identity: { namespace, name: listener.metadata.name, uid } satisfies ListenerIdentity }
  })

/** The addresses' inputs for a NodePort Listener: its backing nodes, as far as the cache knows them. */
const backingNodes = Effect.fn("reconcileListener.backingNodes")(function*(identity: ListenerIdentity, serviceName: string) {
  const view = yield* ListenerView
  const volumes = yield* decodeAll(yield* view.volumesOf(identity.namespace, identity.name), DecodeResult.PersistentVolume)
  const slices = yield* decodeAll(yield* view.endpointSlicesOf(identity.namespace, serviceName), DecodeResult.EndpointSlice)
  const names = backingNodeNames(volumes, slices)
  const nodes = yield* Effect.forEach(names, (name) => view.node(name))
  const decoded: ReadonlyArray<NodeInput> = yield* decodeAll(nodes.flatMap(Option.toArray), DecodeResult.Node)
  return { names, nodes: decoded }
})

/** A Warning Event on each Node whose address override annotation has unusable entries. */
const reportRefusedOverrides = (nodes: ReadonlyArray<NodeInput>) =>
  Effect.gen(function*() {
    const events = yield* EventRecorder
    for (const node of nodes) {
      const refused = nodeAddressOverride(node)?.refused ?? []
      if (refused.length === 0) continue
      yield* events.record({
        regarding: { apiVersion: "v1", kind: "Node", name: node.metadata.name },
        type: "Warning",
        reason: "InvalidNodeAddressOverride",
        action: "PublishAddresses",
        note: `ignored ${refused.map((r) => `${JSON.stringify(r.address)} ${r.problem}`).join(", ")}: use IP addresses or DNS names, separated by commas`
      })
    }
  })

/**
 * Reconcile one Listener, given as the cache holds it. Succeeds with the next Action;
 * fails with a `ListenerError` for `listenerErrorPolicy` to report.
 */
export const reconcileListener = Effect.fn("reconcileListener")(function*(raw: KubeObject) {
  const ref = refOfRaw(raw)
  if (raw.metadata.deletionTimestamp !== undefined) return Action.awaitChange
  const { listener, identity } = yield* decodeListener(raw, ref)
  const className = listener.spec.className
  if (className === undefined || className === "") return yield* new NoClassName(ref)

  const api = yield* KubeApi
  const view = yield* ListenerView
  const settings = yield* ListenerSettings
  const classRaw = yield* view.listenerClass(className).pipe(Effect.mapError(apiFailure(ref, "ReadCache")))
  if (Option.isNone(classRaw)) return yield* new ListenerClassNotFound({ ...ref, className })
  const decodedClass = DecodeResult.ListenerClass(classRaw.value)
  if (Result.isFailure(decodedClass)) {
    const error = decodedClass.failure
    return yield* new InvalidListenerClass({ ...ref, className, path: error.path, details: error.message })
  }
  const listenerClass = decodedClass.success
  yield* refuseClassOutsideNamespaces(ref, identity, className, listenerClass.spec.allowedNamespaces)

  // The Service: never take over someone else's; apply only when the cache says it differs.
  const serviceName = identity.name
  const cached = yield* view.service(identity.namespace, serviceName).pipe(Effect.mapError(apiFailure(ref, "ReadCache")))
  if (Option.isSome(cached) && controllerOf(cached.value)?.uid !== identity.uid) {
    const owner = controllerOf(cached.value)
    return yield* new ServiceConflict({ ...ref, service: serviceName, controller: owner === undefined ? undefined : `${owner.kind}/${owner.name}` })
  }
  // NodePort classes ask for the node ports remembered on the status (stableNodePorts.ts).
  const remembered = listenerClass.spec.serviceType === "NodePort" ? rememberedNodePorts(raw["status"]) : undefined
  // A templated hostname (hostnameTemplate.ts) is rendered first: the Service may carry it.
  const template = listenerClass.spec.hostnameTemplate
  const rendered = template == null ? undefined : renderHostname(template, { listener: identity.name, namespace: identity.namespace, className })
  if (rendered?._tag === "Unusable") return yield* new HostnameTemplateUnusable({ ...ref, className, problem: rendered.problem })
  const hostname = rendered?.hostname
  const desired = withRememberedNodePorts(
    planService({ metadata: { ...identity, labels: listener.metadata.labels }, spec: listener.spec }, listenerClass, hostname),
    remembered
  )
  // Both writes in one step that takes over a predecessor's Service and an older CRD on the way.
  yield* writeListener(raw, ref, {
    desired,
    cached,
    applyService: api.apply(Kinds.Service, desired as unknown as KubeObject, { fieldManager: settings.fieldManager, force: true }).pipe(
      Effect.mapError((error) =>
        remembered !== undefined && error.reason === "Invalid" && /provided port is already allocated/.test(error.message)
          ? new NodePortConflict({ ...ref, service: serviceName, nodePorts: remembered, details: error.message })
          : error.reason === "Invalid" || error.reason === "BadRequest" || isUntypableApply(error)
          ? new ServiceRejected({ ...ref, service: serviceName, details: error.message })
          : apiFailure(ref, "ApplyService")(error)
      ),
      Effect.tap((service) => view.written(service))
    ),
    afterService: (service) =>
      Effect.gen(function*() {
        // Objects we created for this Listener that this plan no longer produces.
        const owned = yield* view.servicesOwnedBy(identity).pipe(Effect.mapError(apiFailure(ref, "ReadCache")))
        for (const stale of owned.filter((s) => s.metadata.name !== serviceName && isOurs(identity)(s))) {
          yield* api.delete(Kinds.Service, { namespace: identity.namespace, name: stale.metadata.name! }, {
            preconditions: { uid: stale.metadata.uid }
          }).pipe(
            Effect.catchIf((error) => error.reason === "NotFound", () => Effect.void),
            Effect.mapError(apiFailure(ref, "DeleteStaleService"))
          )
        }

        // Addresses and status.
        const serviceType = listenerClass.spec.serviceType
        const decodedService = yield* decodedOrSkip(DecodeResult.Service(service))
        const serviceInput: ServiceInput | undefined = decodedService === undefined ? undefined : {
          ...decodedService,
          metadata: { name: serviceName, namespace: identity.namespace }
        }
        const backing = serviceType === "NodePort"
          ? yield* backingNodes(identity, serviceName).pipe(Effect.mapError(apiFailure(ref, "ReadCache")))
          : { names: [], nodes: [] }
        const addressInputs = serviceInput === undefined ? undefined : {
          serviceType,
          preferred: listenerClass.spec.preferredAddressType,
          service: serviceInput,
          clusterDomain: settings.clusterDomain,
          nodes: backing.nodes,
          nodeAddressTypes: listenerClass.spec.nodeAddressTypes,
          nodeAddressSelection: listenerClass.spec.nodeAddressSelection
        }
        const found = addressInputs === undefined ? [] : planAddresses(addressInputs)
        const status = planStatus({
          serviceName,
          addresses: hostname === undefined ? found : templatedAddresses(hostname, found),
          refused: addressInputs === undefined ? [] : refusedAddresses(addressInputs),
          awaiting: addressInputs === undefined || found.length > 0 ? undefined : awaitingAddressesHint({
            ...addressInputs,
            backingNodeNames: backing.names,
            loadBalancerClass: listenerClass.spec.loadBalancerClass
          }),
          nodePorts: serviceType === "NodePort" && serviceInput !== undefined ? nodePortNumbers(serviceInput) : undefined,
          generation: listener.metadata.generation,
          liveStatus: raw["status"],
          now: yield* nowTimestamp
        })
        // Reported with the status change that names them, not on every reconcile.
        return { status, report: reportRefusedOverrides(backing.nodes) }
      })
  })
  return Action.awaitChange
})

/**
 * The error policy: report `error` on the Listener (Ready condition, only when it changes,
 * and then a Warning Event) and say what to do next. API failures are not written to the
 * status (the status write would likely fail too); they get an aggregated Event and backoff.
 */
export const listenerErrorPolicy = Effect.fn("listenerErrorPolicy")(function*(raw: KubeObject, error: ListenerError) {
  const policy = errorPolicyOf(error)
  const events = yield* EventRecorder
  const recordEvent = events.record({
    regarding: {
      apiVersion: LISTENER_API_VERSION,
      kind: "Listener",
      name: raw.metadata.name ?? "",
      namespace: raw.metadata.namespace,
      uid: raw.metadata.uid
    },
    type: "Warning",
    reason: policy.eventReason,
    action: policy.eventAction,
    note: error.message
  })
  yield* Effect.logWarning(error.message).pipe(Effect.annotateLogs({ listener: `${raw.metadata.namespace}/${raw.metadata.name}`, reason: error._tag }))
  if (policy.condition !== undefined && raw.metadata.deletionTimestamp === undefined) {
    const status = planFailedStatus({
      reason: policy.condition,
      message: error.message,
      generation: raw.metadata.generation,
      liveStatus: raw["status"],
      now: yield* nowTimestamp
    })
    // Already reported (e.g. a resync of a still-broken Listener): send nothing.
    const written = yield* Effect.result(writeStatus(raw, status, recordEvent))
    if (Result.isFailure(written)) {
      yield* Effect.logWarning(`could not report ${error._tag} on the Listener: ${written.failure.message}`)
      return Action.retryWithBackoff
    }
  } else {
    yield* recordEvent
  }
  return policy.retry === "awaitChange" ? Action.awaitChange : Action.retryWithBackoff
})

/** Reconcile and apply the error policy: what the controller runs per Listener. Never fails. */
export const runListenerReconcile = (raw: KubeObject) =>
  reconcileListener(raw).pipe(Effect.catch((error) => listenerErrorPolicy(raw, error)))
