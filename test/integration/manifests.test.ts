// The plain manifests (deploy/manifests/) for users without Helm: the committed file is
// exactly what the chart renders with its default values, and `kubectl apply
// --server-side -f deploy/manifests/` installs it on the real API server — including the
// admission policy that refuses bad listener PVCs.
import { after, before, test } from "node:test"
import assert from "node:assert/strict"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { MANIFESTS, renderManifests } from "../../deploy/renderManifests.ts"
import { startControlPlane } from "../envtest/controlPlane.ts"
import type { ControlPlane } from "../envtest/controlPlane.ts"
import { eventually } from "../envtest/kubeClient.ts"

let plane: ControlPlane | undefined

before(async () => {
  plane = await startControlPlane()
})
after(async () => {
  await plane?.stop()
})

test("deploy/manifests/ is the chart rendered with default values (run `npm run manifests` after a chart change)", () => {
  assert.equal(readFileSync(MANIFESTS, "utf8"), renderManifests())
})

test("kubectl apply --server-side installs the manifests; every object exists afterwards", { timeout: 120_000 }, async () => {
  const apply = await plane!.kubectl(["apply", "--server-side", "-f", join(import.meta.dirname, "..", "..", "deploy", "manifests")])
  assert.equal(apply.code, 0, apply.stderr)
  for (const [kind, name] of [
    ["deployment", "listener-operator/listener-operator-controller"],
    ["daemonset", "listener-operator/listener-operator-node"],
    ["storageclass", "listeners.stackable.tech"],
    ["csidriver", "listeners.stackable.tech"],
    ["crd", "listeners.listeners.stackable.tech"]
  ] as const) {
    const [namespace, object] = name.includes("/") ? name.split("/") : [undefined, name]
    const get = await plane!.kubectl(["get", kind, object!, ...(namespace !== undefined ? ["-n", namespace] : [])])
    assert.equal(get.code, 0, `${kind} ${name}: ${get.stderr}`)
  }
})

// The ValidatingAdmissionPolicy of the chart (templates/pvc-admission-policy.yaml), installed
// above with the manifests, refuses bad listener PVCs on the real API server.
const pvc = (name: string, annotations: Record<string, string>, storageClassName = "listeners.stackable.tech") => ({
  apiVersion: "v1",
  kind: "PersistentVolumeClaim",
  metadata: { name, namespace: "default", annotations },
  spec: { storageClassName, accessModes: ["ReadWriteMany"], resources: { requests: { storage: "1" } } }
})

const createPvc = async (body: object): Promise<{ ok: boolean; message: string }> => {
  try {
    await plane!.kube.create("/api/v1/namespaces/default/persistentvolumeclaims", body, { dryRun: "All" })
    return { ok: true, message: "" }
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) }
  }
}

test("the admission policy refuses a listener PVC with both annotations, neither, or an empty value, naming the annotation", { timeout: 120_000 }, async () => {
  // A new policy takes effect after the API server has loaded it: wait until it refuses.
  await eventually("the listener PVC policy is in effect", async () => !(await createPvc(pvc("probe", {}))).ok, { timeoutMs: 60_000, intervalMs: 500 })
  const cases = [
    [{ "listeners.stackable.tech/listener-name": "shared", "listeners.stackable.tech/listener-class": "external-stable" }, /has both annotations .*listener-name and .*listener-class/u],
    [{}, /needs the annotation listeners\.stackable\.tech\/listener-class .* or listeners\.stackable\.tech\/listener-name/u],
    [{ "listeners.stackable.tech/listener-name": "" }, /annotation listeners\.stackable\.tech\/listener-name .* is empty/u],
    [{ "listeners.stackable.tech/listener-class": "" }, /annotation listeners\.stackable\.tech\/listener-class .* is empty/u]
  ] as const
  for (const [annotations, expected] of cases) {
    const result = await createPvc(pvc("bad", annotations))
    assert.equal(result.ok, false, `refused: ${JSON.stringify(annotations)}`)
    assert.match(result.message, expected)
  }
  const good: ReadonlyArray<Record<string, string>> = [{ "listeners.stackable.tech/listener-class": "external-stable" }, { "listeners.stackable.tech/listener-name": "shared" }]
  for (const annotations of good) {
    const result = await createPvc(pvc("good", annotations))
    assert.equal(result.ok, true, `admitted ${JSON.stringify(annotations)}: ${result.message}`)
  }
  // Other StorageClasses are not the policy's business.
  assert.equal((await createPvc(pvc("other", {}, "standard"))).ok, true)
})
