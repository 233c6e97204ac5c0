/**
 * The request handling of the in-memory API server: create, update, patch, apply (each
 * also on the status subresource), delete, get and list, with the real server's order of
 * checks (namespace lifecycle, preconditions, defaulting, strategy, field management,
 * validation, storage) and its errors. Synchronous and single-threaded: every request is
 * atomic with respect to the store. Failures are thrown as KubeApiError and turned into
 * the Effect error channel by the adapter.
 */
import type { ResourceKind } from "../../domain/kinds.ts"
import { apiVersionOf, resourceKeyOf } from "../../domain/kinds.ts"
import { KubeApiError, requestError } from "../../effects/shared/KubeApi.ts"
import { errorFromBadArgument } from "../http/errors.ts"
import type {
  ApplyOptions,
  DeleteOptions,
  KubeObject,
  ListOptions,
  ListResult,
  ObjectRef,
  PatchOptions,
  WriteOptions
} from "../../effects/shared/KubeApi.ts"
import type { FieldError, FieldErrorType, Target } from "./errors.ts"
import {
  alreadyExists,
  badRequest,
  conflict,
  forbidden,
  invalid,
  invalidObject,
  namespaceNotFound,
  notFound,
  OPTIMISTIC_LOCK_MESSAGE,
  qualifiedResource,
  unprocessable
} from "./errors.ts"
import { applyConfiguration, conflictCauses, conflictMessage, forgetRemoved, recordUpdate, requestedManagedFields } from "./fieldManagement.ts"
import type { ManagedEntry } from "./fieldManagement.ts"
import { ListKeyError } from "./fieldSet.ts"
import { clone, deepEqual, dropNulls, isObject } from "./json.ts"
import type { JsonObject } from "./json.ts"
import { jsonPatch, mergePatch } from "./patches.ts"
import type { PatchResult } from "./patches.ts"
import { typeDefFor } from "./schemas.ts"
import {
  fieldSelectorSupportOf,
  matchesFields,
  matchesLabels,
  parseFieldSelector,
  parseLabelSelector
} from "./selectors.ts"
import type { FieldSelector, LabelSelector } from "./selectors.ts"
import { allocateService, allocationsOf } from "./serviceDefaults.ts"
import type { Store, StoredObject } from "./store.ts"
import { strategyFor } from "./strategies.ts"
import type { KindStrategy } from "./strategies.ts"
import { validateMetadataForCreate, validateMetadataForUpdate } from "./validation.ts"

/** Extra admission validation for a kind, e.g. the CRD schema of Listener. */
export type Validator = (
  object: KubeObject
) => ReadonlyArray<{ readonly field: string; readonly message: string; readonly type?: FieldErrorType | undefined }>

/** Extra defaulting for a kind, e.g. the CRD schema defaults. Must not mutate its input. */
export type Defaulter = (object: KubeObject) => KubeObject

export interface ServerOptions {
  /** Keyed by resource key (`resourceKeyOf(kind)`, e.g. `listeners.listeners.stackable.tech`). */
  readonly validators?: Readonly<Record<string, Validator>> | undefined
  readonly defaulters?: Readonly<Record<string, Defaulter>> | undefined
  /** The manager recorded for writes without `fieldManager` (the real server uses the user agent). */
  readonly defaultFieldManager?: string | undefined
}

type Endpoint = "main" | "status"

/** Namespaces the server will not delete (NamespaceLifecycle admission). */
const IMMORTAL_NAMESPACES = new Set(["default", "kube-system", "kube-public"])

const NAME_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"
const randomSuffix = (): string => {
  let out = ""
  for (let i = 0; i < 5; i++) out += NAME_ALPHABET[Math.floor(Math.random() * NAME_ALPHABET.length)]
  return out
}

export const rfc3339 = (millis: number): string => new Date(millis).toISOString().replace(/\.\d{3}Z$/, "Z")

const NamespaceKind: ResourceKind = { group: "", version: "v1", kind: "Namespace", plural: "namespaces", namespaced: false }

const TOP_LEVEL_IDENTITY = new Set(["apiVersion", "kind", "metadata"])

/** The selectors of a list or watch request, parsed (or a 400). */
export interface Selection {
  readonly namespace: string | undefined
  readonly labels: LabelSelector
  readonly fields: FieldSelector
}

/** `managedFields: [{}]` in a request clears all ownership (the server's reset convention). */
const isResetManagedFields = (value: unknown): boolean =>
  Array.isArray(value) && value.length === 1 && isObject(value[0]) && Object.keys(value[0]).length === 0

/**
 * A request without a name or namespace is refused before any round trip, as the HTTP
 * adapter refuses it: the same error from both.
 */
const missingArgument = errorFromBadArgument

/**
 * Ownership tracking of non-apply writes never fails a request: an object whose lists
 * cannot be keyed just loses its managed fields (the server's UpdateNoErrors).
 */
const trackOrClear = (f: () => ReadonlyArray<ManagedEntry>): ReadonlyArray<ManagedEntry> => {
  try {
    return f()
  } catch (error) {
    if (error instanceof ListKeyError) return []
    throw error
  }
}

export class ApiServer {
  private readonly validators: Readonly<Record<string, Validator>>
  private readonly defaulters: Readonly<Record<string, Defaulter>>
  private readonly defaultFieldManager: string

  constructor(readonly store: Store, options: ServerOptions = {}) {
    this.validators = options.validators ?? {}
    this.defaulters = options.defaulters ?? {}
    this.defaultFieldManager = options.defaultFieldManager ?? "unknown"
  }

  // --- reads -----------------------------------------------------------------------

  get(kind: ResourceKind, ref: ObjectRef): KubeObject {
    const { namespace } = this.locate("get", kind, ref.namespace, ref.name)
    const stored = this.store.get(kind, namespace, ref.name)
    if (stored === undefined) throw notFound({ verb: "get", kind, namespace, name: ref.name })
    return clone(stored.object)
  }

  parseSelection(kind: ResourceKind, verb: string, options: ListOptions | undefined): Selection {
    const target: Target = { verb, kind, namespace: options?.namespace }
    const labels = parseLabelSelector(options?.labelSelector ?? "")
    if ("error" in labels) throw badRequest(target, labels.error)
    const fields = parseFieldSelector(options?.fieldSelector ?? "")
    if ("error" in fields) throw badRequest(target, fields.error)
    const support = fieldSelectorSupportOf(kind)
    const normalized = fields.map((r) => {
      const field = Object.hasOwn(support.labels, r.field) ? support.labels[r.field] : undefined
      if (field === undefined) throw badRequest(target, support.unsupported(r.field))
      return { ...r, field }
    })
    return { namespace: kind.namespaced ? options?.namespace : undefined, labels, fields: normalized }
  }

  matches(kind: ResourceKind, selection: Selection, object: KubeObject): boolean {
    if (selection.namespace !== undefined && object.metadata.namespace !== selection.namespace) return false
    if (!matchesLabels(selection.labels, object.metadata.labels)) return false
    if (selection.fields.length === 0) return true
    return matchesFields(selection.fields, fieldSelectorSupportOf(kind).extract(object))
  }

  list(kind: ResourceKind, options?: ListOptions): ListResult {
    this.store.registerKind(kind)
    const selection = this.parseSelection(kind, "list", options)
    const items = this.store.list(kind, selection.namespace)
      .map((s) => s.object)
      .filter((o) => this.matches(kind, selection, o))
      .map(clone)
    return { items, resourceVersion: String(this.store.currentRevision) }
  }

  // --- writes ----------------------------------------------------------------------

  create(kind: ResourceKind, body: KubeObject, options: WriteOptions | undefined, now: number): KubeObject {
    const { namespace } = this.locate("create", kind, body.metadata?.namespace, body.metadata?.name ?? body.metadata?.generateName)
    const target: Target = { verb: "create", kind, namespace, name: body.metadata?.name }
    const object = this.decode(kind, body, target)
    if (object.metadata.resourceVersion !== undefined && object.metadata.resourceVersion !== "") {
      throw new KubeApiError({
        reason: "Internal",
        verb: "create",
        kind: kind.kind,
        namespace,
        objectName: object.metadata.name,
        message: "resourceVersion should not be set on objects to be created",
        status: 500
      })
    }
    return this.createObject(kind, object, target, now, this.creatorOwns(kind, options?.fieldManager ?? this.defaultFieldManager, now))
  }

  /** A created object's managed fields: all of it, the creator's. */
  private creatorOwns(kind: ResourceKind, manager: string, now: number) {
    return (created: JsonObject) =>
      recordUpdate({
        live: undefined,
        next: created,
        type: typeDefFor(resourceKeyOf(kind)),
        entries: [],
        manager,
        apiVersion: apiVersionOf(kind),
        ignored: this.ignoredFields(kind, "main"),
        now: rfc3339(now)
      })
  }

  update(
    kind: ResourceKind,
    body: KubeObject,
    options: WriteOptions | undefined,
    now: number,
    endpoint: Endpoint
  ): KubeObject {
    const verb = endpoint === "main" ? "update" : "updateStatus"
    const { namespace, name } = this.locate(verb, kind, body.metadata?.namespace, body.metadata?.name)
    const target: Target = { verb, kind, namespace, name }
    const reset = isResetManagedFields(body.metadata?.managedFields)
    const object = this.decode(kind, body, target)
    this.checkNamespaceExists(kind, namespace, target)
    const existing = this.store.get(kind, namespace, name)
    const strategy = strategyFor(kind)
    const manager = options?.fieldManager ?? this.defaultFieldManager
    if (existing === undefined) {
      if (endpoint === "main" && strategy.allowCreateOnUpdate) {
        delete object.metadata.resourceVersion
        return this.createObject(kind, object, { ...target, verb: "create" }, now, this.creatorOwns(kind, manager, now))
      }
      throw notFound(target)
    }
    this.checkPreconditions(kind, object, existing, target)
    return this.writeAsUpdate(kind, existing, object, target, endpoint, manager, body.metadata?.managedFields, reset, now)
  }

  patch(
    kind: ResourceKind,
    ref: ObjectRef,
    patch: unknown,
    options: PatchOptions,
    now: number,
    endpoint: Endpoint
  ): KubeObject {
    const verb = endpoint === "main" ? "patch" : "patchStatus"
    const { namespace } = this.locate(verb, kind, ref.namespace, ref.name)
    const target: Target = { verb, kind, namespace, name: ref.name }
    this.checkNamespaceExists(kind, namespace, target)
    const existing = this.store.get(kind, namespace, ref.name)
    if (existing === undefined) throw notFound(target)
    if (options.type !== "merge" && options.type !== "json") {
      throw badRequest(target, `unsupported patch type: ${String(options.type)}`)
    }
    const result: PatchResult = options.type === "merge"
      ? mergePatch(existing.object, patch)
      : jsonPatch(existing.object, patch)
    if (result._tag === "BadRequest") throw badRequest(target, result.message)
    if (result._tag === "Unprocessable") throw unprocessable(target, result.message)
    if (!isObject(result.value) || !isObject(result.value["metadata"])) {
      throw invalidObject(target, [invalid("patch", result.value, "the patched object is not an object with metadata")])
    }
    const patched = result.value as KubeObject
    const reset = isResetManagedFields(patched.metadata.managedFields)
    if (patched.metadata.name !== ref.name) {
      throw badRequest(target, `the name of the object (${String(patched.metadata.name)}) does not match the name on the URL (${ref.name})`)
    }
    if (kind.namespaced && patched.metadata.namespace !== namespace) {
      throw badRequest(target, "the namespace of the provided object does not match the namespace sent on the request")
    }
    const object = this.decode(kind, patched, target)
    this.checkPreconditions(kind, object, existing, target)
    const manager = options.fieldManager ?? this.defaultFieldManager
    return this.writeAsUpdate(kind, existing, object, target, endpoint, manager, patched.metadata.managedFields, reset, now)
  }

  apply(kind: ResourceKind, body: KubeObject, options: ApplyOptions, now: number, endpoint: Endpoint): KubeObject {
    const verb = endpoint === "main" ? "apply" : "applyStatus"
    const { namespace, name } = this.locate(verb, kind, body.metadata?.namespace, body.metadata?.name)
    const target: Target = { verb, kind, namespace, name }
    const raw = JSON.stringify(body)
    if (typeof body.apiVersion !== "string" || body.apiVersion === "") {
      throw badRequest(target, `Object 'apiVersion' is missing in '${raw}'`)
    }
    if (typeof body.kind !== "string" || body.kind === "") throw badRequest(target, `Object 'Kind' is missing in '${raw}'`)
    if (body.apiVersion !== apiVersionOf(kind) || body.kind !== kind.kind) {
      throw badRequest(
        target,
        `invalid object type: ${body.apiVersion}, Kind=${body.kind} (expected ${apiVersionOf(kind)}, Kind=${kind.kind})`
      )
    }
    if (options.fieldManager === undefined || options.fieldManager === "") {
      throw badRequest(target, "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch")
    }
    const appliedManagedFields: unknown = body.metadata.managedFields
    if (Array.isArray(appliedManagedFields) && appliedManagedFields.length > 0) {
      throw badRequest(target, "metadata.managedFields must be nil")
    }
    const config = dropNulls(clone(body)) as KubeObject
    config.metadata.namespace = namespace
    if (namespace === undefined) delete config.metadata.namespace
    const requestedVersion = config.metadata.resourceVersion
    for (const key of ["resourceVersion", "uid", "creationTimestamp", "generation", "managedFields"] as const) {
      delete config.metadata[key]
    }
    const type = typeDefFor(resourceKeyOf(kind))
    this.checkNamespaceExists(kind, namespace, target)
    const existing = this.store.get(kind, namespace, name)
    const run = (live: StoredObject | undefined) => {
      const liveObject = live === undefined ? undefined : this.withoutServerMetadata(live.object)
      // An object nobody owns fields of is first attributed whole to "before-first-apply",
      // so applying to it conflicts like on the server (skipnonapplied.go).
      const entries = live === undefined || live.managed.length > 0 ? live?.managed ?? [] : trackOrClear(() =>
        recordUpdate({
          live: undefined,
          next: liveObject!,
          type,
          entries: [],
          manager: "before-first-apply",
          apiVersion: apiVersionOf(kind),
          ignored: this.ignoredFields(kind, endpoint),
          now: rfc3339(now)
        })
      )
      const outcome = this.withListKeys(target, () =>
        applyConfiguration({
          live: liveObject,
          config,
          type,
          entries,
          manager: options.fieldManager,
          subresource: endpoint === "status" ? "status" : undefined,
          apiVersion: apiVersionOf(kind),
          force: options.force === true,
          ignored: this.ignoredFields(kind, endpoint),
          now: rfc3339(now)
        })
      )
      if (outcome._tag === "Conflicts") {
        throw new KubeApiError({
          reason: "Conflict",
          verb,
          kind: kind.kind,
          namespace,
          objectName: name,
          message: conflictMessage(outcome.conflicts),
          status: 409,
          causes: conflictCauses(outcome.conflicts)
        })
      }
      return outcome
    }
    if (existing === undefined) {
      if (endpoint === "status") throw notFound(target)
      const outcome = run(undefined)
      const created = outcome.object as KubeObject
      return this.createObject(kind, created, { ...target, verb }, now, () => outcome.entries)
    }
    if (requestedVersion !== undefined && requestedVersion !== "" && requestedVersion !== existing.object.metadata.resourceVersion) {
      throw conflict(target, OPTIMISTIC_LOCK_MESSAGE)
    }
    const outcome = run(existing)
    const merged = outcome.object as KubeObject
    return this.writeExisting(kind, existing, merged, target, endpoint, () => outcome.entries)
  }

  delete(kind: ResourceKind, ref: ObjectRef, options: DeleteOptions | undefined, now: number): void {
    const { namespace } = this.locate("delete", kind, ref.namespace, ref.name)
    const target: Target = { verb: "delete", kind, namespace, name: ref.name }
    this.checkNamespaceExists(kind, namespace, target)
    const existing = this.store.get(kind, namespace, ref.name)
    if (existing === undefined) throw notFound(target)
    const meta = existing.object.metadata
    const preconditions = options?.preconditions
    const preconditionResource = kind.group === "" ? kind.kind : `${kind.kind}.${kind.group}`
    if (preconditions?.uid !== undefined && preconditions.uid !== meta.uid) {
      throw conflict(
        target,
        `the UID in the precondition (${preconditions.uid}) does not match the UID in record (${meta.uid}). The object might have been deleted and then recreated`,
        preconditionResource
      )
    }
    if (preconditions?.resourceVersion !== undefined && preconditions.resourceVersion !== meta.resourceVersion) {
      throw conflict(
        target,
        `the ResourceVersion in the precondition (${preconditions.resourceVersion}) does not match the ResourceVersion in record (${meta.resourceVersion}). The object might have been modified`,
        preconditionResource
      )
    }
    if (resourceKeyOf(kind) === "namespaces" && IMMORTAL_NAMESPACES.has(ref.name)) {
      throw forbidden(target, "this namespace may not be deleted")
    }
    this.deleteObject(kind, existing, options ?? {}, now)
  }

  /** The deletion flow of the generic registry (graceful deletion, GC finalizers, removal). */
  deleteObject(kind: ResourceKind, existing: StoredObject, options: DeleteOptions, now: number): void {
    const strategy = strategyFor(kind)
    const object = clone(existing.object)
    const meta = object.metadata
    let graceful = false
    if (strategy.gracefulDeletion) {
      const pending = meta.deletionTimestamp !== undefined
      const currentGrace = meta.deletionGracePeriodSeconds
      if (pending && currentGrace !== undefined && currentGrace > 0) {
        const requested = options.gracePeriodSeconds
        if (requested === undefined || requested >= currentGrace) return // graceful deletion already pending
        const period = Math.max(0, requested)
        const shortened = Date.parse(meta.deletionTimestamp!) - currentGrace * 1000 + period * 1000
        meta.deletionTimestamp = rfc3339(Math.max(shortened, now))
        meta.deletionGracePeriodSeconds = shortened < now && period !== 0 ? 1 : period
        graceful = true
      } else if (!pending) {
        const period = this.podGracePeriod(object, options)
        meta.deletionTimestamp = rfc3339(now + period * 1000)
        meta.deletionGracePeriodSeconds = period
        if ((meta.generation ?? 0) > 0) meta.generation = (meta.generation ?? 0) + 1
        graceful = true
      }
    }
    const finalizers = this.gcFinalizers(meta.finalizers ?? [], options.propagationPolicy)
    if (finalizers.length !== (meta.finalizers ?? []).length || finalizers.some((f, i) => f !== meta.finalizers?.[i])) {
      meta.finalizers = finalizers
    }
    if (meta.finalizers !== undefined && meta.finalizers.length === 0) delete meta.finalizers
    if (resourceKeyOf(kind) === "namespaces") {
      const spec = isObject(object["spec"]) ? object["spec"] : {}
      const nsFinalizers = Array.isArray(spec["finalizers"]) ? spec["finalizers"] : []
      if (nsFinalizers.length > 0 || (meta.finalizers ?? []).length > 0) {
        if (meta.deletionTimestamp === undefined) meta.deletionTimestamp = rfc3339(now)
        meta.deletionGracePeriodSeconds = 0
        object["status"] = { ...(isObject(object["status"]) ? object["status"] : {}), phase: "Terminating" }
        this.writeIfChanged(kind, existing, object, forgetRemoved(existing.object, object, typeDefFor("namespaces"), existing.managed))
        return
      }
    }
    const pendingFinalizers = (meta.finalizers ?? []).length > 0
    if (pendingFinalizers) {
      if (!graceful) {
        if (meta.deletionTimestamp === undefined && (meta.generation ?? 0) > 0) meta.generation = (meta.generation ?? 0) + 1
        if (meta.deletionTimestamp === undefined || Date.parse(meta.deletionTimestamp) > now) meta.deletionTimestamp = rfc3339(now)
        meta.deletionGracePeriodSeconds = 0
      }
      this.writeIfChanged(kind, existing, object, existing.managed)
      return
    }
    if (graceful) {
      // The server writes the graceful-deletion state first (MODIFIED), then removes the
      // object at once when the grace period is zero.
      this.writeIfChanged(kind, existing, object, existing.managed)
      if ((meta.deletionGracePeriodSeconds ?? 0) > 0) return
    }
    this.store.remove(kind, meta.namespace, meta.name ?? "")
  }

  /**
   * A server-internal write (garbage collector, namespace controller): no admission, no
   * field ownership for the writer; finalizers emptied on a deleted object remove it.
   */
  writeInternal(kind: ResourceKind, existing: StoredObject, next: KubeObject): void {
    const type = typeDefFor(resourceKeyOf(kind))
    const managed = forgetRemoved(this.withoutServerMetadata(existing.object), this.withoutServerMetadata(next), type, existing.managed)
    if (this.removesOnUpdate(existing.object, next)) {
      this.store.remove(kind, next.metadata.namespace, next.metadata.name ?? "")
      return
    }
    this.writeIfChanged(kind, existing, next, managed)
  }

  // --- shared steps ----------------------------------------------------------------

  /**
   * The namespace and name an object-level request addresses. Like the HTTP adapter, a
   * request without a name (or, for a namespaced kind, without a namespace) is refused
   * before it reaches the "server".
   */
  locate(
    verb: string,
    kind: ResourceKind,
    namespace: string | undefined,
    name: string | undefined
  ): { readonly namespace: string | undefined; readonly name: string } {
    this.store.registerKind(kind)
    const ns = kind.namespaced ? namespace : undefined
    const target: Target = { verb, kind, namespace: ns, name }
    if (name === undefined || name === "") throw missingArgument(target, "metadata.name is required", "metadata.name")
    if (kind.namespaced && (ns === undefined || ns === "")) {
      throw missingArgument(target, `metadata.namespace is required for the namespaced kind ${kind.kind}`, "metadata.namespace")
    }
    return { namespace: ns, name }
  }

  /** Reset fields of an endpoint: written by the other endpoint, so never owned here. */
  private ignoredFields(kind: ResourceKind, endpoint: Endpoint): ReadonlyArray<ReadonlyArray<string>> {
    const strategy = strategyFor(kind)
    if (!strategy.statusSubresource) return []
    if (endpoint === "main") return [["status"]]
    return strategy.customResource ? [["metadata"], ["spec"]] : [["spec"]]
  }

  /** Apply fails like the server when the configuration cannot be typed (500, as upstream). */
  private withListKeys<A>(target: Target, f: () => A): A {
    try {
      return f()
    } catch (error) {
      if (!(error instanceof ListKeyError)) throw error
      throw requestError(target, {
        reason: "Internal",
        message: `failed to create typed patch object (${apiVersionOf(target.kind)}, Kind=${target.kind.kind}) ${
          target.namespace ?? ""
        }/${target.name ?? ""}: ${error.message}`,
        status: 500
      })
    }
  }

  private withoutServerMetadata(object: KubeObject): JsonObject {
    const copy = clone(object)
    delete copy.metadata.managedFields
    delete copy.metadata.resourceVersion
    return copy as JsonObject
  }

  /** Checks apiVersion/kind, fills them in and normalizes the namespace of a request body. */
  private decode(kind: ResourceKind, body: KubeObject, target: Target): KubeObject {
    if (!isObject(body) || !isObject(body.metadata)) {
      throw badRequest(target, "the request body is not a Kubernetes object (metadata is missing)")
    }
    const expected = apiVersionOf(kind)
    if (body.apiVersion !== undefined && body.apiVersion !== expected) {
      throw badRequest(target, `the API version in the data (${String(body.apiVersion)}) does not match the expected API version (${expected})`)
    }
    if (body.kind !== undefined && body.kind !== kind.kind) {
      throw badRequest(target, `the kind in the data (${String(body.kind)}) does not match the expected kind (${kind.kind})`)
    }
    const object = dropNulls(clone(body)) as KubeObject
    object.apiVersion = expected
    object.kind = kind.kind
    if (kind.namespaced) object.metadata.namespace = target.namespace
    else delete object.metadata.namespace
    delete object.metadata.managedFields
    return object
  }

  private applyDefaults(kind: ResourceKind, strategy: KindStrategy, object: KubeObject): KubeObject {
    strategy.applyDefaults?.(object as JsonObject)
    const custom = this.defaulters[resourceKeyOf(kind)]
    return custom === undefined ? object : (dropNulls(clone(custom(clone(object)))) as KubeObject)
  }

  private validate(
    kind: ResourceKind,
    strategy: KindStrategy,
    object: KubeObject,
    old: KubeObject | undefined,
    endpoint: Endpoint = "main"
  ): Array<FieldError> {
    const meta = old === undefined
      ? validateMetadataForCreate(object, { nameRule: strategy.nameRule, namespaced: kind.namespaced })
      : validateMetadataForUpdate(object, old, { nameRule: strategy.nameRule, namespaced: kind.namespaced })
    // A status write is checked for metadata and by admission; the spec is the stored one.
    const own = endpoint === "status" ? [] : strategy.validate?.(object as JsonObject, old as JsonObject | undefined) ?? []
    const custom = (this.validators[resourceKeyOf(kind)]?.(clone(object)) ?? []).map((e): FieldError => ({
      type: e.type ?? "Invalid",
      field: e.field,
      detail: e.message
    }))
    return [...own, ...custom, ...meta]
  }

  private checkNamespaceForCreate(kind: ResourceKind, namespace: string | undefined, target: Target): void {
    if (!kind.namespaced || namespace === undefined) return
    const ns = this.store.get(NamespaceKind, undefined, namespace)
    if (ns === undefined) throw namespaceNotFound(target, namespace)
    if (ns.object.metadata.deletionTimestamp !== undefined) {
      throw forbidden(target, `unable to create new content in namespace ${namespace} because it is being terminated`)
    }
  }

  private createObject(
    kind: ResourceKind,
    object: KubeObject,
    target: Target,
    now: number,
    ownership: (created: JsonObject) => ReadonlyArray<ManagedEntry>
  ): KubeObject {
    const strategy = strategyFor(kind)
    const namespace = object.metadata.namespace
    this.checkNamespaceForCreate(kind, namespace, target)
    const generated = (object.metadata.name === undefined || object.metadata.name === "") &&
      typeof object.metadata.generateName === "string" && object.metadata.generateName !== ""
    const defaulted = this.applyDefaults(kind, strategy, object)
    const managed = trackOrClear(() => ownership(this.withoutServerMetadata(defaulted)))
    for (let attempt = 0;; attempt++) {
      const candidate = clone(defaulted)
      const meta = candidate.metadata
      if (generated) meta.name = `${meta.generateName!.slice(0, 58)}${randomSuffix()}`
      const created = { ...target, name: meta.name }
      meta.uid = crypto.randomUUID()
      meta.creationTimestamp = rfc3339(now)
      delete meta.resourceVersion
      delete meta.deletionTimestamp
      delete meta.deletionGracePeriodSeconds
      delete (meta as Record<string, unknown>)["selfLink"]
      strategy.prepareForCreate?.(candidate as JsonObject, rfc3339(now))
      if (strategy.statusSubresource && strategy.customResource) delete candidate["status"]
      if (strategy.generation === "none") delete meta.generation
      else meta.generation = 1
      const errors: Array<FieldError> = []
      if (resourceKeyOf(kind) === "services") {
        errors.push(...allocateService(candidate as JsonObject, undefined, this.serviceAllocations(undefined)))
      }
      errors.push(...this.validate(kind, strategy, candidate, undefined))
      if (errors.length > 0) throw invalidObject(created, errors)
      if (this.store.get(kind, namespace, meta.name ?? "") !== undefined) {
        if (generated && attempt < 8) continue
        throw alreadyExists(created)
      }
      return clone(this.store.put(kind, candidate, managed).object)
    }
  }

  /** NamespaceLifecycle admission: every write into a namespace that does not exist is NotFound. */
  private checkNamespaceExists(kind: ResourceKind, namespace: string | undefined, target: Target): void {
    if (!kind.namespaced || namespace === undefined) return
    if (this.store.get(NamespaceKind, undefined, namespace) === undefined) throw namespaceNotFound(target, namespace)
  }

  private checkPreconditions(kind: ResourceKind, object: KubeObject, existing: StoredObject, target: Target): void {
    const strategy = strategyFor(kind)
    const requested = object.metadata.resourceVersion
    if (requested === undefined || requested === "") {
      if (!strategy.allowUnconditionalUpdate) {
        throw invalidObject(
          target,
          [invalid("metadata.resourceVersion", "0x0", "must be specified for an update")],
          qualifiedResource(kind)
        )
      }
    } else if (requested !== existing.object.metadata.resourceVersion) {
      throw conflict(target, OPTIMISTIC_LOCK_MESSAGE)
    }
    const uid = object.metadata.uid
    if (uid !== undefined && uid !== "" && uid !== existing.object.metadata.uid) {
      throw conflict(target, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${existing.object.metadata.uid}`)
    }
  }

  /** Everything after the body is known: the strategy, ownership, validation, storage. */
  /**
   * An update or a patch of an existing object: ownership as the real server records it
   * for those verbs (managedFields the request sends replace the recorded ones on the
   * main resource; the empty list resets them).
   */
  private writeAsUpdate(
    kind: ResourceKind,
    existing: StoredObject,
    object: KubeObject,
    target: Target,
    endpoint: Endpoint,
    manager: string,
    sentManagedFields: unknown,
    reset: boolean,
    now: number
  ): KubeObject {
    const requested = endpoint === "main" ? requestedManagedFields(sentManagedFields) : undefined
    return this.writeExisting(kind, existing, object, target, endpoint, (live, next) =>
      recordUpdate({
        live,
        next,
        type: typeDefFor(resourceKeyOf(kind)),
        entries: reset ? [] : requested ?? existing.managed,
        manager,
        subresource: endpoint === "status" ? "status" : undefined,
        apiVersion: apiVersionOf(kind),
        ignored: this.ignoredFields(kind, endpoint),
        now: rfc3339(now)
      }))
  }

  private writeExisting(
    kind: ResourceKind,
    existing: StoredObject,
    candidate: KubeObject,
    target: Target,
    endpoint: Endpoint,
    ownership: (live: JsonObject, next: JsonObject) => ReadonlyArray<ManagedEntry>
  ): KubeObject {
    const strategy = strategyFor(kind)
    const old = existing.object
    let next = this.applyDefaults(kind, strategy, clone(candidate))
    next = this.separateSubresources(strategy, old, next, endpoint)
    const meta = next.metadata
    meta.name = old.metadata.name
    if (kind.namespaced) meta.namespace = old.metadata.namespace
    if (meta.uid === undefined || meta.uid === "") meta.uid = old.metadata.uid
    meta.creationTimestamp = old.metadata.creationTimestamp
    if (old.metadata.deletionTimestamp !== undefined) meta.deletionTimestamp = old.metadata.deletionTimestamp
    else delete meta.deletionTimestamp
    if (old.metadata.deletionGracePeriodSeconds !== undefined && meta.deletionGracePeriodSeconds === undefined) {
      meta.deletionGracePeriodSeconds = old.metadata.deletionGracePeriodSeconds
    }
    if (old.metadata.generation === undefined) delete meta.generation
    else meta.generation = old.metadata.generation
    if (meta.finalizers !== undefined && meta.finalizers.length === 0) delete meta.finalizers
    if (endpoint === "main") this.bumpGeneration(strategy, old, next)
    const errors: Array<FieldError> = []
    if (resourceKeyOf(kind) === "services" && endpoint === "main") {
      errors.push(...allocateService(next as JsonObject, old as JsonObject, this.serviceAllocations(old)))
    }
    errors.push(...this.validate(kind, strategy, next, old, endpoint))
    if (errors.length > 0) throw invalidObject({ ...target, name: old.metadata.name }, errors)
    const managed = trackOrClear(() => ownership(this.withoutServerMetadata(old), this.withoutServerMetadata(next)))
    if (this.removesOnUpdate(old, next)) {
      this.store.remove(kind, meta.namespace, meta.name ?? "")
      return next
    }
    return clone(this.writeIfChanged(kind, existing, next, managed).object)
  }

  /** Main endpoint keeps the stored status; the status endpoint keeps everything else. */
  private separateSubresources(strategy: KindStrategy, old: KubeObject, next: KubeObject, endpoint: Endpoint): KubeObject {
    if (!strategy.statusSubresource) return next
    if (endpoint === "main") {
      if (old["status"] === undefined) delete next["status"]
      else next["status"] = clone(old["status"])
      return next
    }
    if (strategy.customResource) {
      const out = clone(old)
      if (next["status"] === undefined) delete out["status"]
      else out["status"] = next["status"]
      return out
    }
    for (const key of Object.keys(next)) {
      if (!TOP_LEVEL_IDENTITY.has(key) && key !== "status" && !(key in old)) delete next[key]
    }
    for (const key of Object.keys(old)) {
      if (!TOP_LEVEL_IDENTITY.has(key) && key !== "status") next[key] = clone(old[key])
    }
    if (old.kind === "Pod") {
      if (old.metadata.ownerReferences === undefined) delete next.metadata.ownerReferences
      else next.metadata.ownerReferences = clone(old.metadata.ownerReferences)
    }
    return next
  }

  private bumpGeneration(strategy: KindStrategy, old: KubeObject, next: KubeObject): void {
    if (strategy.generation === "none" || old.metadata.generation === undefined) return
    const without = (o: KubeObject): JsonObject => {
      const { metadata: _, ...rest } = o
      return rest as JsonObject
    }
    const changed = strategy.generation === "spec"
      ? !deepEqual(old["spec"], next["spec"])
      : strategy.generation === "nonMetadata"
      ? !deepEqual(without(old), without(next))
      : !deepEqual(without(old), without(next)) || !deepEqual(old.metadata.labels ?? {}, next.metadata.labels ?? {})
    if (changed) next.metadata.generation = old.metadata.generation + 1
  }

  /** ShouldDeleteDuringUpdate: a deleted object whose last finalizer went away disappears. */
  private removesOnUpdate(old: KubeObject, next: KubeObject): boolean {
    if ((next.metadata.finalizers ?? []).length > 0) return false
    if (old.metadata.deletionTimestamp === undefined) return false
    if (old.kind === "Namespace") {
      const spec = isObject(next["spec"]) ? next["spec"] : {}
      if (Array.isArray(spec["finalizers"]) && spec["finalizers"].length > 0) return false
    }
    return (old.metadata.deletionGracePeriodSeconds ?? 0) === 0
  }

  /** Stores `next` unless it equals the stored state (the server skips no-op writes). */
  private writeIfChanged(
    kind: ResourceKind,
    existing: StoredObject,
    next: KubeObject,
    managed: ReadonlyArray<ManagedEntry>
  ): StoredObject {
    const sameObject = deepEqual(this.withoutServerMetadata(existing.object), this.withoutServerMetadata(next))
    const sameOwnership = managed.length === existing.managed.length &&
      managed.every((m, i) => {
        const e = existing.managed[i]!
        return m === e || (m.manager === e.manager && m.operation === e.operation && m.subresource === e.subresource &&
          m.set.equals(e.set))
      })
    if (sameObject && sameOwnership) return existing
    return this.store.put(kind, next, managed)
  }

  private serviceAllocations(except: KubeObject | undefined) {
    const ServiceKind: ResourceKind = { group: "", version: "v1", kind: "Service", plural: "services", namespaced: true }
    return allocationsOf(
      this.store.list(ServiceKind)
        .map((s) => s.object)
        .filter((o) => except === undefined || o.metadata.uid !== except.metadata.uid) as Array<JsonObject>
    )
  }

  private podGracePeriod(pod: KubeObject, options: DeleteOptions): number {
    const spec = isObject(pod["spec"]) ? pod["spec"] : {}
    const status = isObject(pod["status"]) ? pod["status"] : {}
    let period = options.gracePeriodSeconds ??
      (typeof spec["terminationGracePeriodSeconds"] === "number" ? spec["terminationGracePeriodSeconds"] : 30)
    if (period < 0) period = 1
    if (typeof spec["nodeName"] !== "string" || spec["nodeName"] === "") period = 0
    if (status["phase"] === "Failed" || status["phase"] === "Succeeded") period = 0
    return period
  }

  /** deletionFinalizersForGarbageCollection: the orphan/foreground finalizers a delete sets. */
  private gcFinalizers(finalizers: ReadonlyArray<string>, policy: DeleteOptions["propagationPolicy"]): Array<string> {
    const orphan = policy === "Orphan" || (policy === undefined && finalizers.includes("orphan"))
    const foreground = policy === "Foreground" || (policy === undefined && !orphan && finalizers.includes("foregroundDeletion"))
    const out = finalizers.filter((f) => f !== "orphan" && f !== "foregroundDeletion")
    if (orphan) out.push("orphan")
    if (foreground) out.push("foregroundDeletion")
    return out
  }
}
