/**
 * The controllers of kube-controller-manager that the API semantics depend on, reduced to
 * one sweep over the store: the garbage collector (owner references, background,
 * foreground and orphan deletion) and the namespace controller (a deleted namespace
 * empties itself, then goes). The adapter runs sweeps on its own fiber after writes, so
 * cascades happen shortly after the request that caused them, as in a real cluster.
 */
import type { ResourceKind } from "../../domain/kinds.ts"
import type { DeleteOptions, KubeObject, OwnerReference } from "../../effects/shared/KubeApi.ts"
import { clone, isObject } from "./json.ts"
import type { ApiServer } from "./server.ts"
import type { StoredObject } from "./store.ts"

type OwnerState = "solid" | "waiting" | "dangling"

const isDeleting = (o: KubeObject): boolean => o.metadata.deletionTimestamp !== undefined
const hasFinalizer = (o: KubeObject, f: string): boolean => (o.metadata.finalizers ?? []).includes(f)

const ownerState = (server: ApiServer, dependent: StoredObject, ref: OwnerReference): OwnerState => {
  const ownerKind = server.store.kindFor(ref.apiVersion, ref.kind)
  // A kind this server never saw cannot be looked up; the real collector would keep
  // retrying the lookup, so the dependent stays.
  if (ownerKind === undefined) return "solid"
  if (ownerKind.namespaced && !dependent.kind.namespaced) return "dangling"
  const owner = server.store.get(ownerKind, ownerKind.namespaced ? dependent.object.metadata.namespace : undefined, ref.name)
  if (owner === undefined || owner.object.metadata.uid !== ref.uid) return "dangling"
  return isDeleting(owner.object) && hasFinalizer(owner.object, "foregroundDeletion") ? "waiting" : "solid"
}

const withoutFinalizer = (o: KubeObject, finalizer: string): KubeObject => {
  const next = clone(o)
  next.metadata.finalizers = (next.metadata.finalizers ?? []).filter((f) => f !== finalizer)
  if (next.metadata.finalizers.length === 0) delete next.metadata.finalizers
  return next
}

const withoutOwners = (o: KubeObject, uids: ReadonlySet<string>): KubeObject => {
  const next = clone(o)
  next.metadata.ownerReferences = (next.metadata.ownerReferences ?? []).filter((r) => !uids.has(r.uid))
  if (next.metadata.ownerReferences.length === 0) delete next.metadata.ownerReferences
  return next
}

/** attemptToDeleteItem: delete dependents without a live owner, drop dangling references of the rest. */
const collectDependents = (server: ApiServer, objects: ReadonlyArray<StoredObject>, now: number): void => {
  const ownerUids = new Set(objects.flatMap((s) => (s.object.metadata.ownerReferences ?? []).map((r) => r.uid)))
  const hasDependents = (o: KubeObject) => o.metadata.uid !== undefined && ownerUids.has(o.metadata.uid)
  for (const stored of objects) {
    const refs = stored.object.metadata.ownerReferences ?? []
    if (refs.length === 0) continue
    const current = server.store.get(stored.kind, stored.object.metadata.namespace, stored.object.metadata.name ?? "")
    if (current === undefined || current.object.metadata.uid !== stored.object.metadata.uid) continue
    const states = refs.map((r) => ({ ref: r, state: ownerState(server, current, r) }))
    const stale = new Set(states.filter((s) => s.state !== "solid").map((s) => s.ref.uid))
    if (stale.size === 0) continue
    if (states.some((s) => s.state === "solid")) {
      server.writeInternal(current.kind, current, withoutOwners(current.object, stale))
      continue
    }
    const waiting = states.some((s) => s.state === "waiting")
    const policy: DeleteOptions["propagationPolicy"] = waiting && hasDependents(current.object)
      ? "Foreground"
      : hasFinalizer(current.object, "orphan")
      ? "Orphan"
      : hasFinalizer(current.object, "foregroundDeletion")
      ? "Foreground"
      : "Background"
    server.deleteObject(current.kind, current, { propagationPolicy: policy }, now)
  }
}

/** Owners being deleted with the orphan or foregroundDeletion finalizer. */
const finalizeOwners = (server: ApiServer): void => {
  for (const owner of server.store.all()) {
    const o = owner.object
    if (!isDeleting(o) || o.metadata.uid === undefined) continue
    const uid = o.metadata.uid
    const dependents = server.store.all().filter((d) => (d.object.metadata.ownerReferences ?? []).some((r) => r.uid === uid))
    if (hasFinalizer(o, "orphan")) {
      for (const d of dependents) server.writeInternal(d.kind, d, withoutOwners(d.object, new Set([uid])))
      const latest = server.store.get(owner.kind, o.metadata.namespace, o.metadata.name ?? "")
      if (latest !== undefined) server.writeInternal(latest.kind, latest, withoutFinalizer(latest.object, "orphan"))
      continue
    }
    if (hasFinalizer(o, "foregroundDeletion")) {
      const blocking = dependents.some((d) =>
        (d.object.metadata.ownerReferences ?? []).some((r) => r.uid === uid && r.blockOwnerDeletion === true)
      )
      if (!blocking) server.writeInternal(owner.kind, owner, withoutFinalizer(o, "foregroundDeletion"))
    }
  }
}

const NamespaceKind: ResourceKind = { group: "", version: "v1", kind: "Namespace", plural: "namespaces", namespaced: false }

/** The namespace controller: delete the content of a terminating namespace, then finalize it. */
const finalizeNamespaces = (server: ApiServer, now: number): void => {
  for (const ns of server.store.list(NamespaceKind)) {
    if (!isDeleting(ns.object)) continue
    const name = ns.object.metadata.name
    const content = server.store.all().filter((s) => s.kind.namespaced && s.object.metadata.namespace === name)
    for (const item of content) {
      if (!isDeleting(item.object)) server.deleteObject(item.kind, item, {}, now)
    }
    if (server.store.all().some((s) => s.kind.namespaced && s.object.metadata.namespace === name)) continue
    const latest = server.store.get(NamespaceKind, undefined, name ?? "")
    if (latest === undefined) continue
    const next = clone(latest.object)
    const spec = isObject(next["spec"]) ? next["spec"] : {}
    if (Array.isArray(spec["finalizers"]) && spec["finalizers"].length > 0) {
      next["spec"] = { ...spec, finalizers: spec["finalizers"].filter((f) => f !== "kubernetes") }
      if ((next["spec"] as { finalizers: Array<unknown> }).finalizers.length === 0) delete (next["spec"] as Record<string, unknown>)["finalizers"]
    }
    server.writeInternal(NamespaceKind, latest, next)
  }
}

/**
 * Runs the controllers until nothing changes any more (or a generous bound is hit).
 * Returns how many writes the sweep made.
 */
export const collectGarbage = (server: ApiServer, now: number): number => {
  const start = server.store.currentRevision
  for (let round = 0; round < 100; round++) {
    const before = server.store.currentRevision
    collectDependents(server, server.store.all(), now)
    finalizeOwners(server)
    finalizeNamespaces(server, now)
    if (server.store.currentRevision === before) break
  }
  return server.store.currentRevision - start
}
