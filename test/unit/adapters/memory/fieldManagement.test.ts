/**
 * Server-side apply internals: field sets with list-map keys and defaults, the merge
 * order of structured-merge-diff, pruning and conflicts between managers.
 */
import assert from "node:assert/strict"
import { test } from "node:test"
import { applyConfiguration, recordUpdate } from "../../../../adapters/memory/fieldManagement.ts"
import type { ManagedEntry } from "../../../../adapters/memory/fieldManagement.ts"
import { merge, pathString, toFieldSet } from "../../../../adapters/memory/fieldSet.ts"
import type { JsonObject } from "../../../../adapters/memory/json.ts"
import { typeDefFor } from "../../../../adapters/memory/schemas.ts"

const services = typeDefFor("services")
const listeners = typeDefFor("listeners.listeners.stackable.tech")

test("field sets key list-map items, filling defaulted keys", () => {
  const set = toFieldSet({ spec: { ports: [{ port: 80, name: "http" }, { port: 53, protocol: "UDP" }] } }, services)
  assert.deepEqual(set.toArray().map(pathString).sort(), [
    ".spec.ports[port=53,protocol=\"UDP\"]",
    ".spec.ports[port=53,protocol=\"UDP\"].port",
    ".spec.ports[port=53,protocol=\"UDP\"].protocol",
    ".spec.ports[port=80,protocol=\"TCP\"]",
    ".spec.ports[port=80,protocol=\"TCP\"].name",
    ".spec.ports[port=80,protocol=\"TCP\"].port"
  ])
})

test("merging list maps follows structured-merge-diff's order", () => {
  const live = { spec: { ports: [{ name: "a", port: 1 }, { name: "b", port: 2 }, { name: "c", port: 3 }] } }
  const config = { spec: { ports: [{ name: "c", port: 30 }, { name: "new", port: 4 }, { name: "a", port: 10 }] } }
  const merged = merge(live, config, listeners) as { spec: { ports: Array<{ name: string; port: number }> } }
  assert.deepEqual(merged.spec.ports.map((p) => `${p.name}:${p.port}`), ["b:2", "c:30", "new:4", "a:10"])
  const atomic = merge({ status: { ingressAddresses: [1, 2] } }, { status: { ingressAddresses: [3] } }, listeners)
  assert.deepEqual(atomic, { status: { ingressAddresses: [3] } }, "lists without a list type are atomic")
})

const apply = (
  live: JsonObject | undefined,
  config: JsonObject,
  entries: ReadonlyArray<ManagedEntry>,
  manager: string,
  force = false
) =>
  applyConfiguration({
    live,
    config,
    type: listeners,
    entries,
    manager,
    apiVersion: "listeners.stackable.tech/v1alpha1",
    force,
    ignored: [["status"]],
    now: "2026-01-01T00:00:00Z"
  })

test("apply prunes list items and whole objects the manager stopped applying", () => {
  const first = apply(undefined, { spec: { ports: [{ name: "a", port: 1 }, { name: "b", port: 2 }], extra: { x: 1 } } }, [], "m")
  assert.equal(first._tag, "Applied")
  if (first._tag !== "Applied") return
  const withDefault = { ...first.object, spec: { ...(first.object["spec"] as object), extra: { x: 1, defaulted: true } } }
  const second = apply(withDefault, { spec: { ports: [{ name: "b", port: 2 }] } }, first.entries, "m")
  assert.equal(second._tag, "Applied")
  if (second._tag !== "Applied") return
  assert.deepEqual(second.object, { spec: { ports: [{ name: "b", port: 2 }] } }, "unowned content of a pruned object goes too")
})

test("conflicts name every contested field; status is never contested on the main resource", () => {
  const first = apply(undefined, { spec: { className: "a", ports: [{ name: "p", port: 1 }] }, status: { s: 1 } }, [], "one")
  if (first._tag !== "Applied") return assert.fail("first apply failed")
  assert.ok(first.entries[0]!.set.toArray().every((p) => !("f" in p[0]! && p[0].f === "status")))
  const second = apply(first.object, { spec: { className: "b", ports: [{ name: "p", port: 2 }] }, status: { s: 2 } }, first.entries, "two")
  assert.equal(second._tag, "Conflicts")
  if (second._tag !== "Conflicts") return
  assert.deepEqual(second.conflicts.map((c) => `${c.owner.manager} ${pathString(c.path)}`).sort(), [
    "one .spec.className",
    "one .spec.ports[name=\"p\"].port"
  ])
})

test("updates take ownership of what they change", () => {
  const created = recordUpdate({
    live: undefined,
    next: { spec: { className: "a" } },
    type: listeners,
    entries: [],
    manager: "creator",
    apiVersion: "v1",
    ignored: [],
    now: "t1"
  })
  const updated = recordUpdate({
    live: { spec: { className: "a" } },
    next: { spec: { className: "b", other: 1 } },
    type: listeners,
    entries: created,
    manager: "editor",
    apiVersion: "v1",
    ignored: [],
    now: "t2"
  })
  assert.deepEqual(updated.map((e) => [e.manager, e.operation, e.set.toArray().map(pathString).sort()]), [
    ["editor", "Update", [".spec.className", ".spec.other"]]
  ])
})
