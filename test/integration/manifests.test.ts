// The plain manifests (deploy/manifests/) for users without Helm: the committed file is
// exactly what the chart renders with its default values, and `kubectl apply
// --server-side -f deploy/manifests/` installs it on the real API server.
import { after, before, test } from "node:test"
import assert from "node:assert/strict"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { MANIFESTS, renderManifests } from "../../deploy/renderManifests.ts"
import { startControlPlane } from "../envtest/controlPlane.ts"
import type { ControlPlane } from "../envtest/controlPlane.ts"

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
