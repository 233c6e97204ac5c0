/**
 * Everything that can stop a Listener reconcile, and — in ONE table — what each means:
 * the Ready condition reason reported on the Listener, the Kubernetes Event recorded, and
 * the retry policy (wait for a change of the input, or retry with backoff).
 *
 * Configuration problems (no class, missing or malformed class, malformed Listener, a
 * Service that belongs to someone else, a Service the API server refuses) cannot heal by
 * retrying: they wait until a watched object changes. API trouble is transient and backs
 * off. Adding an error tag without a row here is a type error.
 */
import { Data } from "effect"
import type { ReadyReason } from "../../domain/listenerPlan/desiredStatus.ts"
import type { KubeApiError } from "../shared/KubeApi.ts"

export interface ListenerRef {
  readonly namespace: string
  readonly listener: string
}

/** `spec.className` is not set. */
export class NoClassName extends Data.TaggedError("NoClassName")<ListenerRef> {
  override get message() {
    return `Listener ${this.namespace}/${this.listener} has no spec.className; no Service is created until it names a ListenerClass`
  }
}

/** The named ListenerClass does not exist (yet). */
export class ListenerClassNotFound extends Data.TaggedError("ListenerClassNotFound")<ListenerRef & { readonly className: string }> {
  override get message() {
    return `ListenerClass ${this.className} (spec.className of Listener ${this.namespace}/${this.listener}) does not exist`
  }
}

/** The Listener object does not match the Listener schema. */
export class InvalidListener extends Data.TaggedError("InvalidListener")<ListenerRef & {
  /** Path of the first bad field, e.g. `spec.ports[0].port`. */
  readonly path: string
  readonly details: string
}> {
  override get message() {
    return `Listener ${this.namespace}/${this.listener} is invalid: ${this.details}`
  }
}

/** The Listener's ListenerClass does not match the ListenerClass schema. */
export class InvalidListenerClass extends Data.TaggedError("InvalidListenerClass")<ListenerRef & {
  readonly className: string
  readonly path: string
  readonly details: string
}> {
  override get message() {
    return `ListenerClass ${this.className} used by Listener ${this.namespace}/${this.listener} is invalid: ${this.details}`
  }
}

/** A Service with the Listener's name exists and is not controlled by this Listener. */
export class ServiceConflict extends Data.TaggedError("ServiceConflict")<ListenerRef & {
  readonly service: string
  /** `Kind/name` of the Service's controller, when it has one. */
  readonly controller: string | undefined
}> {
  override get message() {
    const owner = this.controller === undefined ? "has no controller owner reference" : `is controlled by ${this.controller}`
    return `Service ${this.namespace}/${this.service} already exists and ${owner}; it is left alone (delete or rename it to let Listener ${this.listener} create its own)`
  }
}

/** The API server refused the planned Service as invalid (422), e.g. because of an override. */
export class ServiceRejected extends Data.TaggedError("ServiceRejected")<ListenerRef & {
  readonly service: string
  readonly details: string
}> {
  override get message() {
    return `the API server refused Service ${this.namespace}/${this.service} planned for Listener ${this.listener}: ${this.details}`
  }
}

/**
 * The node ports the Listener had (remembered on its status) are taken by another Service,
 * so its re-created Service cannot get them back; nothing is changed silently.
 */
export class NodePortConflict extends Data.TaggedError("NodePortConflict")<ListenerRef & {
  readonly service: string
  readonly nodePorts: Readonly<Record<string, number>>
  readonly details: string
}> {
  override get message() {
    const ports = Object.entries(this.nodePorts).map(([name, port]) => `${name}=${port}`).join(", ")
    return `Service ${this.namespace}/${this.service} cannot get back the node ports Listener ${this.listener} had (${ports}): ${this.details}; ` +
      "free them, or remove status.nodePorts from the Listener to accept new ones"
  }
}

/** The class's hostnameTemplate cannot name this Listener (hostnameTemplate.ts says why). */
export class HostnameTemplateUnusable extends Data.TaggedError("HostnameTemplateUnusable")<ListenerRef & {
  readonly className: string
  readonly problem: string
}> {
  override get message() {
    return `ListenerClass ${this.className}: ${this.problem}; nothing is published for Listener ${this.namespace}/${this.listener} until the template or the name is fixed`
  }
}

/** The class's spec.allowedNamespaces does not match the Listener's namespace (classNamespaceRule.ts). */
export class ClassNotAllowed extends Data.TaggedError("ClassNotAllowed")<ListenerRef & {
  readonly className: string
  /** The rule as quoted, e.g. `spec.allowedNamespaces [kafka-*]`. */
  readonly rule: string
}> {
  override get message() {
    return `ListenerClass ${this.className} may not be used in namespace ${this.namespace} (its ${this.rule}); Listener ${this.listener} is not exposed and its Service is removed`
  }
}

/** A request to the API server failed in step `step` (apply Service, write status, …). */
export class ListenerApiFailure extends Data.TaggedError("ListenerApiFailure")<ListenerRef & {
  readonly step: "AdoptService" | "ApplyService" | "DeleteStaleService" | "WriteStatus" | "ReadCache"
  readonly cause: KubeApiError
}> {
  override get message() {
    return `${this.step} for Listener ${this.namespace}/${this.listener} failed: ${this.cause.reason}: ${this.cause.message}`
  }
}

export type ListenerError =
  | NoClassName
  | ListenerClassNotFound
  | InvalidListener
  | InvalidListenerClass
  | ServiceConflict
  | ServiceRejected
  | NodePortConflict
  | HostnameTemplateUnusable
  | ClassNotAllowed
  | ListenerApiFailure

export type FailedReadyReason = Exclude<ReadyReason, "Reconciled" | "AwaitingAddresses">

export interface ErrorPolicy {
  /** Ready=False with this reason is written to the Listener's status; undefined = status untouched. */
  readonly condition: FailedReadyReason | undefined
  /** Event reason and action (the event type is always Warning). */
  readonly eventReason: string
  readonly eventAction: string
  readonly retry: "awaitChange" | "backoff"
}

export const errorPolicies: { readonly [Tag in ListenerError["_tag"]]: ErrorPolicy } = {
  NoClassName: { condition: "NoClassName", eventReason: "NoClassName", eventAction: "ResolveListenerClass", retry: "awaitChange" },
  ListenerClassNotFound: { condition: "ListenerClassNotFound", eventReason: "ListenerClassNotFound", eventAction: "ResolveListenerClass", retry: "awaitChange" },
  InvalidListener: { condition: "InvalidSpec", eventReason: "InvalidListener", eventAction: "DecodeListener", retry: "awaitChange" },
  InvalidListenerClass: { condition: "InvalidSpec", eventReason: "InvalidListenerClass", eventAction: "DecodeListenerClass", retry: "awaitChange" },
  ServiceConflict: { condition: "ServiceConflict", eventReason: "ServiceConflict", eventAction: "ApplyService", retry: "awaitChange" },
  ServiceRejected: { condition: "InvalidSpec", eventReason: "ServiceRejected", eventAction: "ApplyService", retry: "awaitChange" },
  // The other Service may go away: retry with backoff.
  NodePortConflict: { condition: "NodePortConflict", eventReason: "NodePortConflict", eventAction: "ApplyService", retry: "backoff" },
  HostnameTemplateUnusable: { condition: "InvalidSpec", eventReason: "HostnameTemplateUnusable", eventAction: "RenderHostname", retry: "awaitChange" },
  ClassNotAllowed: { condition: "ClassNotAllowed", eventReason: "ClassNotAllowed", eventAction: "ResolveListenerClass", retry: "awaitChange" },
  ListenerApiFailure: { condition: undefined, eventReason: "ReconcileFailed", eventAction: "Reconcile", retry: "backoff" }
}

export const errorPolicyOf = (error: ListenerError): ErrorPolicy => errorPolicies[error._tag]
