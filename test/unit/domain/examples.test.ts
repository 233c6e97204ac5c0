/**
 * The sample manifests in examples/ decode, and each manifest in examples/invalid/ is
 * refused at the field its `# invalid-field:` comment names (the admission tests reuse
 * those files against the real API server). Where the decoder names a field inside that
 * one (a duplicate list entry's key), a `# decoder-field:` comment says which.
 */
import { test } from "node:test"
import assert from "node:assert/strict"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { Result } from "effect"
import { parseAllDocuments } from "yaml"
import { type DecodeError, DecodeResult } from "../../../domain/decode.ts"
import { assertIssue, expectFailure, expectSuccess } from "./support.ts"

const examplesDir = join(import.meta.dirname, "..", "..", "..", "examples")
const yamlFiles = (dir: string): string[] => readdirSync(dir).filter((f) => f.endsWith(".yaml")).sort().map((f) => join(dir, f))

type Manifest = { kind?: unknown; metadata?: Record<string, unknown> }

const manifestsOf = (file: string): Manifest[] =>
  parseAllDocuments(readFileSync(file, "utf8")).map((doc) => doc.toJS() as Manifest).filter((m) => m !== null)

// The API server adds these before anyone decodes a stored object.
const asStored = (manifest: Manifest): Manifest => ({
  ...manifest,
  metadata: { ...manifest.metadata, uid: "00000000-0000-0000-0000-000000000001", ...(manifest.kind === "ListenerClass" ? {} : { namespace: "default" }) }
})

const decoderFor = (manifest: Manifest): (input: unknown) => Result.Result<unknown, DecodeError> => {
  switch (manifest.kind) {
    case "Listener": return DecodeResult.Listener
    case "ListenerClass": return DecodeResult.ListenerClass
    case "PodListeners": return DecodeResult.PodListeners
    default: return assert.fail(`unexpected kind ${String(manifest.kind)}`)
  }
}

test("every example manifest decodes", () => {
  const kinds = new Set<unknown>()
  for (const file of yamlFiles(examplesDir)) {
    for (const manifest of manifestsOf(file)) {
      kinds.add(manifest.kind)
      const result = decoderFor(manifest)(asStored(manifest))
      if (Result.isFailure(result)) assert.fail(`${file}: ${result.failure.message}`)
    }
  }
  assert.deepEqual([...kinds].sort(), ["Listener", "ListenerClass", "PodListeners"])
})

test("the full ListenerClass example keeps every field", () => {
  const manifests = manifestsOf(join(examplesDir, "listenerclasses.yaml"))
  const full = manifests.find((m) => m.metadata?.["name"] === "internal-load-balancer")!
  const listenerClass = expectSuccess(DecodeResult.ListenerClass(asStored(full)))
  assert.equal(listenerClass.spec.loadBalancerAllocateNodePorts, false)
  assert.deepEqual(listenerClass.spec.serviceOverrides, { spec: { ipFamilyPolicy: "PreferDualStack" } })
})

test("the addressing ListenerClass example keeps the fields beyond upstream", () => {
  const manifests = manifestsOf(join(examplesDir, "listenerclasses.yaml"))
  const kafka = manifests.find((m) => m.metadata?.["name"] === "kafka-brokers")!
  const listenerClass = expectSuccess(DecodeResult.ListenerClass(asStored(kafka)))
  assert.deepEqual(listenerClass.spec.nodeAddressTypes, ["ExternalDNS", "ExternalIP", "InternalIP"])
  assert.equal(listenerClass.spec.nodeAddressSelection, "OnePerFamily")
  assert.equal(listenerClass.spec.hostnameTemplate, "{listener}.{namespace}.kafka.example.com")
  assert.equal(listenerClass.spec.hostnameAnnotation, "external-dns.alpha.kubernetes.io/hostname")
})

test("every invalid manifest is refused at the field its comment names", () => {
  const files = yamlFiles(join(examplesDir, "invalid"))
  assert.ok(files.length >= 10, `only ${files.length} invalid examples`)
  for (const file of files) {
    const text = readFileSync(file, "utf8")
    const field = /^# invalid-field: (\S+)$/mu.exec(text)?.[1]
    assert.ok(field, `${file} lacks an "# invalid-field:" comment`)
    const decoderField = /^# decoder-field: (\S+)$/mu.exec(text)?.[1] ?? field
    assert.ok(
      decoderField === field || decoderField.startsWith(`${field}.`) || decoderField.startsWith(`${field}[`),
      `${file}: the decoder's field ${decoderField} lies outside the API server's ${field}`
    )
    const [manifest, ...rest] = manifestsOf(file)
    assert.equal(rest.length, 0, `${file} holds one manifest`)
    const error = expectFailure(decoderFor(manifest!)(asStored(manifest!)))
    assert.equal(error.path, decoderField, `${file}: ${error.message}`)
    assertIssue(error, decoderField, /./u)
  }
})
