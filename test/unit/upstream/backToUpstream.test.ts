/**
 * The way back to upstream (docs/migration.md, "Back to upstream"), as far as the recordings
 * of the upstream operator (test/e2e/fixtures/upstream/) allow: what our operator leaves in
 * the cluster is what upstream's controller and node plugin accept as their own, without
 * re-creating or changing anything a client sees.
 *
 * - Services: for each recorded Listener, the Service ours applies has, in every field
 *   upstream's controller applies (its managedFields entry), the value upstream applied —
 *   so upstream's first forced apply over ours changes none of them — and it carries the
 *   name, controller owner reference and labels upstream's orphan cleanup keys on.
 * - Preset ListenerClasses: ours are upstream's (upstream creates only missing ones).
 * - Pods and PersistentVolumes: the mount label and the listener labels ours derives for a
 *   recorded volume are the ones upstream wrote.
 */
import { test } from "node:test"
import assert from "node:assert/strict"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { parseAllDocuments } from "yaml"
import { PV_LABEL_LISTENER_NAME, PV_LABEL_LISTENER_NAMESPACE, mountLabelKey, operatorLabels } from "../../../domain/constants.ts"
import { planService } from "../../../domain/listenerPlan/desiredService.ts"
import { presetListenerClasses } from "../../../domain/listenerPlan/presets.ts"
import type { ListenerClassInput, ListenerInput } from "../../../domain/listenerPlan/inputs.ts"
import { loadFixtures } from "../../upstream/fixtures.ts"
import { ownedPart } from "../../upstream/managedFields.ts"
import type { FieldSet, ManagedFieldsEntry } from "../../upstream/managedFields.ts"

const fixtures = loadFixtures()
const UPSTREAM_SERVICE_MANAGER = "listeners.stackable.tech/listeners.stackable.tech_listener"

interface Recorded {
  readonly metadata: {
    readonly name: string
    readonly namespace?: string
    readonly uid?: string
    readonly labels?: Record<string, string>
    readonly managedFields?: ReadonlyArray<ManagedFieldsEntry>
  }
  readonly spec?: Record<string, unknown>
}

const byName = (objects: ReadonlyArray<unknown>, name: string): Recorded => {
  const found = (objects as ReadonlyArray<Recorded>).find((o) => o.metadata.name === name)
  assert.ok(found !== undefined, `no recorded object ${name}`)
  return found
}

const upstreamApplied = (service: Recorded): FieldSet => {
  const entry = service.metadata.managedFields?.find((m) => m.manager === UPSTREAM_SERVICE_MANAGER && m.operation === "Apply")
  assert.ok(entry?.fieldsV1 !== undefined, `${service.metadata.name}: no Apply entry of ${UPSTREAM_SERVICE_MANAGER}`)
  return entry.fieldsV1
}

test("the recording holds Services to compare (one per Listener)", () => {
  assert.ok(fixtures.services.length >= 5, `${fixtures.services.length} recorded Services`)
  assert.equal(fixtures.services.length, fixtures.listeners.length)
})

for (const service of fixtures.services as ReadonlyArray<Recorded>) {
  test(`Service ${service.metadata.name}: every field upstream applies has upstream's value in ours; its orphan cleanup keeps ours`, () => {
    const listener = byName(fixtures.listeners, service.metadata.name) as unknown as ListenerInput
    const className = (listener.spec as { className?: string }).className
    assert.ok(className !== undefined, `${service.metadata.name} names a class`)
    const listenerClass = byName(fixtures.listenerClasses, className) as unknown as ListenerClassInput
    const ours = planService(listener, listenerClass)
    const { "f:annotations": annotations, ...metadataFields } = upstreamApplied(service)["f:metadata"] ?? {}
    // Upstream applies an empty annotations map (its class has none): it owns no key, so
    // ours (the applied fingerprint, owned by our field manager) stay untouched.
    assert.deepEqual(Object.keys(annotations ?? {}).filter((k) => k !== "."), [], `${service.metadata.name}: upstream applies annotations`)
    const fields = { ...upstreamApplied(service), "f:metadata": metadataFields }
    // Upstream's forced apply sets exactly these fields; equal values mean no change a client sees.
    assert.deepEqual(ownedPart(ours, fields), ownedPart(service, fields))
    // What upstream's orphan cleanup and owner checks look at.
    assert.equal(ours.metadata.name, service.metadata.name)
    for (const [key, value] of Object.entries(operatorLabels(service.metadata.name))) {
      assert.equal(service.metadata.labels?.[key], value, `upstream labels its Service ${key}=${value}`)
      assert.equal(ours.metadata.labels[key], value, `ours carries ${key}=${value}`)
    }
    const owner = ours.metadata.ownerReferences[0]
    assert.deepEqual({ kind: owner?.kind, uid: owner?.uid, controller: owner?.controller }, { kind: "Listener", uid: (listener.metadata as { uid: string }).uid, controller: true })
  })
}

test("our preset ListenerClasses are upstream's (upstream creates only missing ones and leaves ours as they are)", () => {
  const ours = presetListenerClasses("ephemeral-nodes")
  assert.deepEqual(ours.map((c) => c.metadata.name).sort(), ["cluster-internal", "external-stable", "external-unstable"])
  // What the API server stores for ours: the preset's fields over our CRD's defaults.
  const crd = parseAllDocuments(readFileSync(join(import.meta.dirname, "..", "..", "..", "k8s", "crds.yaml"), "utf8"))
    .map((d) => d.toJS() as { metadata: { name: string }; spec: { versions: ReadonlyArray<{ schema: { openAPIV3Schema: { properties: { spec: { properties: Record<string, { default?: unknown }> } } } } }> } })
    .find((d) => d.metadata.name === "listenerclasses.listeners.stackable.tech")
  assert.ok(crd !== undefined)
  const defaults = Object.fromEntries(
    Object.entries(crd.spec.versions[0]!.schema.openAPIV3Schema.properties.spec.properties)
      .filter(([, field]) => field.default !== undefined)
      .map(([key, field]) => [key, field.default])
  )
  // null and absent mean the same to both (an unset optional field); upstream's empty
  // serviceOverrides is a Service's apiVersion, kind and empty metadata: merged over the
  // generated Service it changes nothing, as our {} does.
  const noOp = (overrides: unknown) => {
    const { apiVersion, kind, metadata, ...rest } = (overrides ?? {}) as Record<string, unknown>
    const same = (apiVersion === undefined || apiVersion === "v1") && (kind === undefined || kind === "Service") &&
      (metadata === undefined || JSON.stringify(metadata) === "{}")
    return same ? rest : overrides
  }
  const present = (spec: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(spec).filter(([, v]) => v !== null).map(([k, v]) => [k, k === "serviceOverrides" ? noOp(v) : v]))
  for (const preset of ours) {
    const recorded = byName(fixtures.listenerClasses, preset.metadata.name)
    const stored = present({ ...defaults, ...preset.spec })
    const upstream = present(recorded.spec ?? {})
    assert.deepEqual(
      Object.fromEntries(Object.keys(upstream).map((key) => [key, stored[key]])),
      upstream,
      `${preset.metadata.name}: upstream's fields`
    )
  }
})

test("the mount label on Pods and the listener labels on PersistentVolumes are the keys and values upstream wrote", () => {
  let checked = 0
  for (const pod of fixtures.pods as ReadonlyArray<Recorded>) {
    for (const [key, value] of Object.entries(pod.metadata.labels ?? {})) {
      if (!key.startsWith("listener.stackable.tech/mnt.")) continue
      const listener = byName(fixtures.listeners, value)
      assert.equal(mountLabelKey(listener.metadata.uid ?? ""), key, `Pod ${pod.metadata.name}`)
      checked++
    }
  }
  for (const volume of fixtures.persistentVolumes as ReadonlyArray<Recorded>) {
    const labels = volume.metadata.labels ?? {}
    if (labels[PV_LABEL_LISTENER_NAME] === undefined) continue
    const listener = byName(fixtures.listeners, labels[PV_LABEL_LISTENER_NAME])
    assert.equal(labels[PV_LABEL_LISTENER_NAMESPACE], listener.metadata.namespace, `PV ${volume.metadata.name}`)
    checked++
  }
  assert.ok(checked >= 5, `${checked} labels checked`)
})
