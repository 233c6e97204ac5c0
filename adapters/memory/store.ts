/**
 * The storage of the in-memory API server, standing in for etcd plus the watch cache:
 * objects by resource and `namespace/name`, one cluster-wide revision counter (the
 * resourceVersion of every write), and a bounded history of change events that watches
 * replay from and that decides when a resourceVersion is "too old".
 */
import type { ResourceKind } from "../../domain/kinds.ts"
import { resourceKeyOf } from "../../domain/kinds.ts"
import type { KubeObject } from "../../effects/shared/KubeApi.ts"
import type { ManagedEntry } from "./fieldManagement.ts"
import { renderManagedFields } from "./fieldManagement.ts"
import { clone } from "./json.ts"

export interface StoredObject {
  readonly kind: ResourceKind
  /** The object as the server returns it, `metadata.managedFields` rendered from `managed`. */
  readonly object: KubeObject
  readonly managed: ReadonlyArray<ManagedEntry>
}

export type ChangeType = "ADDED" | "MODIFIED" | "DELETED"

/** One write, as the watch cache keeps it: the new state and the one before. */
export interface ChangeEvent {
  readonly type: ChangeType
  readonly resourceKey: string
  readonly revision: number
  /** The new state; for DELETED the last state, carrying the deletion's resourceVersion. */
  readonly object: KubeObject
  readonly previous: KubeObject | undefined
}

export type ChangeListener = (event: ChangeEvent) => void

export const objectKey = (namespace: string | undefined, name: string): string => `${namespace ?? ""}/${name}`

const withoutManagedFields = (object: KubeObject): KubeObject => {
  const { managedFields: _, ...metadata } = object.metadata
  return { ...object, metadata }
}

/** apiVersion, kind, metadata, spec first, status last: the order the server serializes in. */
const canonicalOrder = (object: KubeObject): KubeObject => {
  const { apiVersion, kind, metadata, spec, status, ...rest } = object
  const out: KubeObject = { apiVersion, kind, metadata }
  if (spec !== undefined) out["spec"] = spec
  Object.assign(out, rest)
  if (status !== undefined) out["status"] = status
  return out
}

export class Store {
  private revision = 0
  private readonly byResource = new Map<string, Map<string, StoredObject>>()
  private readonly history: Array<ChangeEvent> = []
  private historyStart = 0
  private startRevision = 0
  private evicted = false
  /** The revision of the last compaction: resuming from before it is Gone. */
  private compactedRevision = 0
  private readonly listeners = new Set<ChangeListener>()
  private watchers = 0
  /** Every kind ever stored or asked for, so owner references can be resolved by apiVersion+kind. */
  readonly kinds = new Map<string, ResourceKind>()

  constructor(private readonly historyCapacity: number) {}

  get currentRevision(): number {
    return this.revision
  }

  /** After seeding: the history starts here (like a freshly initialised watch cache). */
  markStart(): void {
    this.startRevision = this.revision
  }

  registerKind(kind: ResourceKind): void {
    const key = `${kind.group}/${kind.kind}`
    if (!this.kinds.has(key)) this.kinds.set(key, kind)
  }

  kindFor(apiVersion: string, kindName: string): ResourceKind | undefined {
    const group = apiVersion.includes("/") ? apiVersion.slice(0, apiVersion.indexOf("/")) : ""
    return this.kinds.get(`${group}/${kindName}`)
  }

  get(kind: ResourceKind, namespace: string | undefined, name: string): StoredObject | undefined {
    return this.byResource.get(resourceKeyOf(kind))?.get(objectKey(namespace, name))
  }

  /** Objects of a resource in key order (etcd returns them sorted by key). */
  list(kind: ResourceKind, namespace?: string | undefined): Array<StoredObject> {
    const all = this.byResource.get(resourceKeyOf(kind))
    if (all === undefined) return []
    return [...all.entries()]
      .filter(([, s]) => namespace === undefined || s.object.metadata.namespace === namespace)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, s]) => s)
  }

  all(): Array<StoredObject> {
    return [...this.byResource.values()].flatMap((m) => [...m.values()])
  }

  /** Writes a new state with the next resourceVersion and records the change. */
  put(kind: ResourceKind, object: KubeObject, managed: ReadonlyArray<ManagedEntry>): StoredObject {
    this.registerKind(kind)
    const resourceKey = resourceKeyOf(kind)
    const key = objectKey(object.metadata.namespace, object.metadata.name ?? "")
    let objects = this.byResource.get(resourceKey)
    if (objects === undefined) {
      objects = new Map()
      this.byResource.set(resourceKey, objects)
    }
    const previous = objects.get(key)
    this.revision++
    const rendered = canonicalOrder(withoutManagedFields(clone(object)))
    rendered.metadata.resourceVersion = String(this.revision)
    if (managed.length > 0) rendered.metadata.managedFields = renderManagedFields(managed)
    const stored: StoredObject = { kind, object: rendered, managed }
    objects.set(key, stored)
    this.record({
      type: previous === undefined ? "ADDED" : "MODIFIED",
      resourceKey,
      revision: this.revision,
      object: rendered,
      previous: previous?.object
    })
    return stored
  }

  /** Removes an object; the DELETED event carries its last state at a new resourceVersion. */
  remove(kind: ResourceKind, namespace: string | undefined, name: string): KubeObject | undefined {
    const resourceKey = resourceKeyOf(kind)
    const objects = this.byResource.get(resourceKey)
    const key = objectKey(namespace, name)
    const previous = objects?.get(key)
    if (objects === undefined || previous === undefined) return undefined
    objects.delete(key)
    this.revision++
    const last = clone(previous.object)
    last.metadata.resourceVersion = String(this.revision)
    this.record({ type: "DELETED", resourceKey, revision: this.revision, object: last, previous: previous.object })
    return last
  }

  private record(event: ChangeEvent): void {
    this.history.push(event)
    if (this.history.length - this.historyStart > this.historyCapacity) {
      this.historyStart++
      this.evicted = true
      if (this.historyStart > 1024 && this.historyStart * 2 > this.history.length) {
        this.history.splice(0, this.historyStart)
        this.historyStart = 0
      }
    }
    for (const listener of this.listeners) listener(event)
  }

  /**
   * Forgets every change recorded so far, like etcd compacting at the current revision:
   * a watch may resume from this revision on, not from before it.
   */
  compact(): void {
    this.history.splice(0)
    this.historyStart = 0
    this.evicted = true
    this.compactedRevision = this.revision
  }

  /**
   * The events after `revision`, or the oldest revision one may resume from when they are
   * no longer all retained (the watch cache's rule: resuming is possible from one before
   * the oldest retained event); `compacted` says whether compaction dropped them rather
   * than the history window.
   */
  eventsSince(
    revision: number
  ): { readonly events: ReadonlyArray<ChangeEvent> } | { readonly oldest: number; readonly compacted: boolean } {
    if (revision < this.compactedRevision) return { oldest: this.compactedRevision, compacted: true }
    const oldest = this.evicted
      ? (this.history[this.historyStart]?.revision ?? this.revision + 1)
      : this.startRevision + 1
    if (revision < oldest - 1) return { oldest: oldest - 1, compacted: false }
    const events: Array<ChangeEvent> = []
    for (let i = this.historyStart; i < this.history.length; i++) {
      const event = this.history[i]!
      if (event.revision > revision) events.push(event)
    }
    return { events }
  }

  /** Calls `listener` synchronously after every write; `watch` subscriptions are counted. */
  subscribe(listener: ChangeListener, purpose: "watch" | "internal" = "watch"): () => void {
    this.listeners.add(listener)
    if (purpose === "watch") this.watchers++
    return () => {
      if (this.listeners.delete(listener) && purpose === "watch") this.watchers--
    }
  }

  /** Open watch subscriptions (a leak shows up here). */
  get activeWatches(): number {
    return this.watchers
  }
}
