// The controller keeping its CRDs current (k8s/crdSync.ts), on the real API server: as
// the controller's ServiceAccount with nothing but the chart's RBAC (get/update on our
// three names), creating missing CRDs where allowed, a second start that writes nothing, an upgrade that adds an optional field over CRDs Helm
// installed, a rollback that drops it again, and the refusals — a field objects still
// set, a version the live CRD serves — with the live CRD kept and a Warning Event that
// says what to do.
import { after, before, test } from "node:test"
import assert from "node:assert/strict"
import { execFile } from "node:child_process"
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Layer, ManagedRuntime } from "effect"
import { parse, parseAllDocuments, stringify } from "yaml"
import { EventRecorderKube } from "../../adapters/EventRecorderKube.ts"
import { KubeApiHttp } from "../../adapters/KubeApiHttp.ts"
import { LISTENER_API_VERSION } from "../../domain/constants.ts"
import type { EventRecorder } from "../../effects/shared/EventRecorder.ts"
import type { KubeApi } from "../../effects/shared/KubeApi.ts"
import { crdManifests } from "../../k8s/crds.ts"
import type { CustomResourceDefinition } from "../../k8s/crds.ts"
import { CRD_REFUSED_REASON, syncCrds } from "../../k8s/crdSync.ts"
import type { CrdSyncOutcome } from "../../k8s/crdSync.ts"
import { binary, binDir } from "../envtest/binDir.ts"
import { startControlPlane } from "../envtest/controlPlane.ts"
import type { ControlPlane } from "../envtest/controlPlane.ts"
import { eventually } from "../envtest/kubeClient.ts"
import type { KubeObject } from "../envtest/kubeClient.ts"
import { NEXT_FIELD, withNextField } from "../upgrade/nextCrds.ts"

const CHART = join(import.meta.dirname, "..", "..", "deploy", "helm", "listener-operator")
const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
const CLASSES = `/apis/${LISTENER_API_VERSION}/listenerclasses`
const CLASS_CRD = "listenerclasses.listeners.stackable.tech"
const OPERATOR_NS = "listener-operator"
const CONTROLLER_SA = `system:serviceaccount:${OPERATOR_NS}:listener-operator-controller`

let plane: ControlPlane | undefined
let runtime: ManagedRuntime.ManagedRuntime<KubeApi | EventRecorder, unknown> | undefined

before(async () => {
  plane = await startControlPlane()
  const api = KubeApiHttp.layerFromKubeconfigFile(plane.kubeconfigPath)
  runtime = ManagedRuntime.make(Layer.provideMerge(
    EventRecorderKube.layer({ reportingController: "listeners.stackable.tech/listener-operator", reportingInstance: "crd-sync-test" }),
    api
  ))
}, { timeout: 180_000 })

after(async () => {
  await runtime?.dispose()
  await plane?.stop()
})

const kube = () => {
  assert.ok(plane !== undefined, "control plane started")
  return plane.kube
}
const sync = (crds: ReadonlyArray<CustomResourceDefinition>): Promise<ReadonlyArray<CrdSyncOutcome>> => {
  assert.ok(runtime !== undefined)
  return runtime.runPromise(syncCrds(crds))
}
const resultsOf = (outcomes: ReadonlyArray<CrdSyncOutcome>) => Object.fromEntries(outcomes.map((o) => [o.name, o.result]))
const liveCrd = (name: string) => kube().get(`${CRDS}/${name}`)
const classSpecFields = async (): Promise<string[]> => {
  const crd = await liveCrd(CLASS_CRD)
  const versions = (crd.spec?.["versions"] ?? []) as Array<{ schema: { openAPIV3Schema: { properties: { spec: { properties: Record<string, unknown> } } } } }>
  return Object.keys(versions[0]!.schema.openAPIV3Schema.properties.spec.properties)
}
const waitEstablished = () =>
  eventually("CRDs Established", async () => {
    for (const crd of crdManifests()) {
      const live = await kube().getOrUndefined(`${CRDS}/${crd.metadata.name}`)
      if (!((live?.status?.["conditions"] ?? []) as Array<{ type: string; status: string }>).some((c) => c.type === "Established" && c.status === "True")) return false
    }
    return true
  }, { timeoutMs: 60_000, intervalMs: 250 })
const refusalEvents = async (): Promise<ReadonlyArray<KubeObject>> =>
  (await kube().list("/apis/events.k8s.io/v1/namespaces/default/events")).items.filter((e) => e["reason"] === CRD_REFUSED_REASON)

const run = (file: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = process.env, input?: string) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
    const child = execFile(file, [...args], { env, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error !== null && typeof error.code !== "number") reject(error)
      else resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr })
    })
    if (input !== undefined) child.stdin?.end(input)
  })

test("as the controller's ServiceAccount with only the chart's RBAC: a missing CRD is reported with its fix; the CRDs Helm created are upgraded and rolled back; nothing else is touched", { timeout: 120_000 }, async () => {
  assert.ok(plane !== undefined)
  const work = await mkdtemp(join(tmpdir(), "crd-sync-rbac-"))
  let asController: ManagedRuntime.ManagedRuntime<KubeApi | EventRecorder, unknown> | undefined
  try {
    const env = { ...process.env, HELM_CACHE_HOME: join(work, "c"), HELM_CONFIG_HOME: join(work, "f"), HELM_DATA_HOME: join(work, "d") }
    const rendered = await run(binary("helm", binDir()), ["template", "listener-operator", CHART, "--namespace", OPERATOR_NS], env)
    assert.equal(rendered.code, 0, rendered.stderr)
    const rbac = parseAllDocuments(rendered.stdout).map((d) => d.toJS() as KubeObject | null)
      .filter((o): o is KubeObject => o !== null && /^(ClusterRole|ClusterRoleBinding)$/u.test(String(o.kind)) && String(o.metadata.name).endsWith("-controller"))
    assert.equal(rbac.length, 2, "the controller's ClusterRole and binding")
    const rule = (rbac.find((o) => o.kind === "ClusterRole")!["rules"] as Array<{ resources: string[]; resourceNames?: string[]; verbs: string[] }>)
      .find((r) => r.resources.includes("customresourcedefinitions"))
    assert.deepEqual(rule?.resourceNames?.slice().sort(), crdManifests().map((c) => c.metadata.name).sort())
    const applied = await plane.kubectl(["apply", "--server-side", "-f", "-"], rbac.map((o) => `---\n${stringify(o)}`).join(""))
    assert.equal(applied.code, 0, applied.stderr)

    // The controller's identity: the admin kubeconfig impersonating its ServiceAccount.
    const kubeconfig = parse(await readFile(plane.kubeconfigPath, "utf8")) as { users: Array<{ user: Record<string, unknown> }> }
    for (const entry of kubeconfig.users) entry.user["as"] = CONTROLLER_SA
    const path = join(work, "controller.kubeconfig")
    await writeFile(path, stringify(kubeconfig), { mode: 0o600 })
    asController = ManagedRuntime.make(Layer.provideMerge(
      EventRecorderKube.layer({ reportingController: "listeners.stackable.tech/listener-operator", reportingInstance: "crd-sync-rbac" }),
      KubeApiHttp.layerFromKubeconfigFile(path)
    ))
    const syncAsController = (crds: ReadonlyArray<CustomResourceDefinition>) => asController!.runPromise(syncCrds(crds))

    // No CRDs: the controller may not create them, and says how to install them.
    await assert.rejects(syncAsController(crdManifests()), (error: Error) => {
      assert.match(error.message, /does not exist, and the controller may not create CRDs/u)
      assert.match(error.message, /kubectl apply --server-side -f deploy\/helm\/listener-operator\/crds\/crds\.yaml/u)
      return true
    })

    // As Helm installs crds/; then the upgrade and the rollback, as the controller.
    for (const crd of crdManifests()) await kube().create(CRDS, crd, { fieldManager: "helm" })
    await waitEstablished()
    assert.deepEqual(Object.values(resultsOf(await syncAsController(crdManifests()))), ["unchanged", "unchanged", "unchanged"])
    assert.equal(resultsOf(await syncAsController(withNextField(crdManifests())))[CLASS_CRD], "updated")
    assert.ok((await classSpecFields()).includes(NEXT_FIELD))
    assert.equal(resultsOf(await syncAsController(crdManifests()))[CLASS_CRD], "updated")
    assert.equal((await classSpecFields()).includes(NEXT_FIELD), false)

    const kubectlAs = (args: string[], input?: string) => plane!.kubectl([...args, `--as=${CONTROLLER_SA}`], input)
    const foreign = { ...crdManifests()[0]!, metadata: { name: "others.example.com" }, spec: { ...crdManifests()[0]!.spec, group: "example.com", names: { kind: "Other", listKind: "OtherList", plural: "others", singular: "other" } } }
    assert.match((await kubectlAs(["apply", "--server-side", "-f", "-"], stringify(foreign))).stderr, /forbidden/iu, "another CRD may not be created")
    assert.match((await kubectlAs(["delete", "crd", CLASS_CRD, "--dry-run=server"])).stderr, /forbidden/iu, "the controller may not delete its CRDs")
  } finally {
    await asController?.dispose()
    await rm(work, { recursive: true, force: true })
    for (const crd of crdManifests()) await plane.kubectl(["delete", "crd", crd.metadata.name, "--ignore-not-found", "--wait=true"])
  }
})

test("a fresh cluster: the three CRDs are created and Established; the next start writes nothing", { timeout: 120_000 }, async () => {
  assert.deepEqual(Object.values(resultsOf(await sync(crdManifests()))), ["created", "created", "created"])
  const versions = new Map<string, string>()
  for (const crd of crdManifests()) {
    const live = await liveCrd(crd.metadata.name)
    const conditions = (live.status?.["conditions"] ?? []) as Array<{ type: string; status: string }>
    assert.ok(conditions.some((c) => c.type === "Established" && c.status === "True"), `${crd.metadata.name} Established`)
    versions.set(crd.metadata.name, String(live.metadata.resourceVersion))
  }
  assert.deepEqual(Object.values(resultsOf(await sync(crdManifests()))), ["unchanged", "unchanged", "unchanged"])
  for (const crd of crdManifests()) {
    assert.equal((await liveCrd(crd.metadata.name)).metadata.resourceVersion, versions.get(crd.metadata.name), `${crd.metadata.name}: no write`)
  }
})

test("upgrade over CRDs another manager installed (Helm's crds/): the added optional field is served; dropping it again works while no object sets it", { timeout: 120_000 }, async () => {
  // As Helm installs crds/: a plain create by another field manager.
  for (const crd of crdManifests()) await kube().delete(`${CRDS}/${crd.metadata.name}`)
  await eventually("CRDs gone", async () => (await kube().list(CRDS)).items.every((c) => !String(c.metadata.name).endsWith(".listeners.stackable.tech")), { timeoutMs: 60_000, intervalMs: 250 })
  for (const crd of crdManifests()) await kube().create(CRDS, crd, { fieldManager: "helm" })
  await waitEstablished()

  const upgraded = resultsOf(await sync(withNextField(crdManifests())))
  assert.deepEqual(upgraded, {
    [CLASS_CRD]: "updated",
    "listeners.listeners.stackable.tech": "unchanged",
    "podlisteners.listeners.stackable.tech": "unchanged"
  })
  assert.ok((await classSpecFields()).includes(NEXT_FIELD))
  // The API server keeps the new field on an object (it would prune an undeclared one).
  await eventually("the new field is kept on a ListenerClass", async () => {
    await kube().delete(`${CLASSES}/probe`).catch(() => undefined)
    await kube().create(CLASSES, { apiVersion: LISTENER_API_VERSION, kind: "ListenerClass", metadata: { name: "probe" }, spec: { serviceType: "NodePort", [NEXT_FIELD]: "kept" } })
    const kept = (await kube().get(`${CLASSES}/probe`)).spec?.[NEXT_FIELD] === "kept"
    await kube().delete(`${CLASSES}/probe`)
    return kept
  }, { timeoutMs: 30_000, intervalMs: 500 })

  // Rollback: the previous build's CRDs, the field unused — applied, although Helm's create co-owned the schema.
  assert.equal(resultsOf(await sync(crdManifests()))[CLASS_CRD], "updated")
  assert.equal((await classSpecFields()).includes(NEXT_FIELD), false)
})

test("a rollback that would drop a field an object still sets is refused: the live CRD kept, one Warning Event saying what to do", { timeout: 120_000 }, async () => {
  await sync(withNextField(crdManifests()))
  // Until the API server uses the new schema, it prunes the field: create until it is kept.
  await eventually("a ListenerClass that uses the new field", async () => {
    await kube().delete(`${CLASSES}/noted`).catch(() => undefined)
    await kube().create(CLASSES, { apiVersion: LISTENER_API_VERSION, kind: "ListenerClass", metadata: { name: "noted" }, spec: { serviceType: "NodePort", [NEXT_FIELD]: "in use" } })
    return (await kube().get(`${CLASSES}/noted`)).spec?.[NEXT_FIELD] === "in use"
  }, { timeoutMs: 30_000, intervalMs: 500 })
  const before = (await liveCrd(CLASS_CRD)).metadata.resourceVersion

  const outcomes = await sync(crdManifests())
  const refused = outcomes.find((o) => o.name === CLASS_CRD)
  assert.equal(refused?.result, "refused")
  assert.deepEqual(refused?.problems, [{ _tag: "FieldInUse", version: "v1alpha1", path: ["spec", NEXT_FIELD], count: 1, examples: ["noted"] }])
  assert.equal((await liveCrd(CLASS_CRD)).metadata.resourceVersion, before, "the live CRD is not written")
  assert.equal((await kube().get(`${CLASSES}/noted`)).spec?.[NEXT_FIELD], "in use", "the object keeps its field")
  const events = await eventually("a CrdUpgradeRefused Event", async () => {
    const found = await refusalEvents()
    return found.length > 0 ? found : undefined
  }, { timeoutMs: 30_000, intervalMs: 250 })
  assert.equal(events.length, 1)
  const event = events[0]!
  assert.equal(event["type"], "Warning")
  assert.deepEqual((event["regarding"] as { kind: string; name: string }).kind, "CustomResourceDefinition")
  assert.equal((event["regarding"] as { name: string }).name, CLASS_CRD)
  assert.match(String(event["note"]), /spec\.upgradeNote \(version v1alpha1\) is not in this build's schema but 1 object\(s\) set it \(noted\)/u)
  assert.match(String(event["note"]), /Remove the field from those objects/u)

  // Done as the message says: the field removed from the object, the next start applies.
  await kube().patch(`${CLASSES}/noted`, [{ op: "remove", path: `/spec/${NEXT_FIELD}` }], "json")
  assert.equal(resultsOf(await sync(crdManifests()))[CLASS_CRD], "updated")
  assert.equal((await classSpecFields()).includes(NEXT_FIELD), false)
  await kube().delete(`${CLASSES}/noted`)
})

test("a live CRD that serves a version this build lacks is not downgraded: refused, naming the version", { timeout: 60_000 }, async () => {
  const live = await liveCrd(CLASS_CRD)
  const versions = live.spec?.["versions"] as Array<Record<string, unknown>>
  await kube().replace(`${CRDS}/${CLASS_CRD}`, { ...live, spec: { ...live.spec, versions: [...versions, { ...versions[0], name: "v1beta1", storage: false }] } })
  const outcome = (await sync(crdManifests())).find((o) => o.name === CLASS_CRD)
  assert.equal(outcome?.result, "refused")
  assert.deepEqual(outcome?.problems, [{ _tag: "ServedVersionDropped", version: "v1beta1" }])
  const served = ((await liveCrd(CLASS_CRD)).spec?.["versions"] as Array<{ name: string; served: boolean }>).map((v) => `${v.name}:${v.served}`)
  assert.deepEqual(served, ["v1alpha1:true", "v1beta1:true"], "the extra version is still served")
  const notes = (await refusalEvents()).map((e) => String(e["note"]))
  assert.ok(notes.some((n) => n.includes("serves version v1beta1, which this build does not")), notes.join("\n"))
})
