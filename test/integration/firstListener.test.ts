// A new cluster's first Listener (docs/security.md, "Never in a user's way"): the chart's
// admission policies bind only the node plugin, yet the API server resolves a binding's
// parameters before it evaluates matchConditions — so a binding that denies when it finds
// no parameter refused everyone while the cluster had no PersistentVolume (or, for the
// PodListeners check, no Pod in the namespace). Here the chart's policies (its default
// values, and the opt-in PodListeners check) are installed on a control plane with none of
// our objects, and the cluster admin and a namespace user write as users do.
import { after, before, test } from "node:test"
import assert from "node:assert/strict"
import { execFileSync } from "node:child_process"
import { join } from "node:path"
import { binary, binDir } from "../envtest/binDir.ts"
import { startControlPlane } from "../envtest/controlPlane.ts"
import type { ControlPlane } from "../envtest/controlPlane.ts"
import { createNamespace, eventually, KubeClient } from "../envtest/kubeClient.ts"

const RELEASE_NS = "listener-operator"
const NODE_SA = "listener-operator-node"
const GROUP = "/apis/listeners.stackable.tech/v1alpha1"
const NS = "team"

const chart = (...set: ReadonlyArray<string>): string =>
  execFileSync(binary("helm", binDir()), [
    "template", "listener-operator", join(import.meta.dirname, "..", "..", "deploy", "helm", "listener-operator"),
    "--namespace", RELEASE_NS, "--include-crds", ...set.flatMap((value) => ["--set", value])
  ], { encoding: "utf8", env: { ...process.env, HELM_CACHE_HOME: "/tmp/helm-cache", HELM_CONFIG_HOME: "/tmp/helm-config", HELM_DATA_HOME: "/tmp/helm-data" } })

const listener = (name: string) => ({
  apiVersion: "listeners.stackable.tech/v1alpha1",
  kind: "Listener",
  metadata: { name, namespace: NS },
  spec: { className: "external-stable", ports: [{ name: "http", port: 8080 }] }
})

let plane: ControlPlane
let admin: KubeClient
let user: KubeClient

const tokenFor = async (namespace: string, serviceAccount: string): Promise<string> =>
  (await admin.create<{ status: { token: string } }>(`/api/v1/namespaces/${namespace}/serviceaccounts/${serviceAccount}/token`, {
    apiVersion: "authentication.k8s.io/v1",
    kind: "TokenRequest",
    spec: { expirationSeconds: 3600 }
  })).status.token

before(async () => {
  plane = await startControlPlane()
  admin = plane.kube
  await createNamespace(admin, RELEASE_NS, { waitForServiceAccount: false })
  // The chart with its default values, then with the (now no-op) opt-in PodListeners value.
  for (const rendered of [chart(), chart("nodeAdmissionPolicy.podListenersByPod=true")]) {
    const applied = await plane.kubectl(["apply", "--server-side", "-f", "-"], rendered)
    assert.equal(applied.code, 0, applied.stderr)
  }
  await createNamespace(admin, NS, { waitForServiceAccount: false })
  // A namespace user: may manage Listeners and PodListeners in its namespace, nothing else.
  await admin.create(`/api/v1/namespaces/${NS}/serviceaccounts`, { metadata: { name: "dev" } })
  await admin.create(`/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/roles`, {
    metadata: { name: "listeners" },
    rules: [{ apiGroups: ["listeners.stackable.tech"], resources: ["listeners", "podlisteners"], verbs: ["get", "list", "create", "patch", "update", "delete"] }]
  })
  await admin.create(`/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/rolebindings`, {
    metadata: { name: "dev-listeners" },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "listeners" },
    subjects: [{ kind: "ServiceAccount", name: "dev", namespace: NS }]
  })
  user = new KubeClient({ server: plane.server, caPem: admin.connection.caPem, token: await tokenFor(NS, "dev") })
  // The policies are in effect once the node plugin's own writes are checked: a token of its
  // ServiceAccount that is not bound to a Pod is refused by them. (It may not create a
  // Listener at all — RBAC refuses that before admission — so it patches one, made in a
  // namespace of its own for the probe.)
  await createNamespace(admin, "probe", { waitForServiceAccount: false })
  await admin.create(`${GROUP}/namespaces/probe/listeners`, { ...listener("probe"), metadata: { name: "probe", namespace: "probe" } })
  const nodePlugin = new KubeClient({ server: plane.server, caPem: admin.connection.caPem, token: await tokenFor(RELEASE_NS, NODE_SA) })
  try {
    await eventually("the node policies are in effect", async () => {
      try {
        await nodePlugin.patch(`${GROUP}/namespaces/probe/listeners/probe`, { metadata: { labels: { probe: "x" } } }, "merge", { dryRun: "All" })
        return false
      } catch (error) {
        return error instanceof Error && /may write only with a Pod-bound ServiceAccount token/u.test(error.message)
      }
    }, { timeoutMs: 60_000, intervalMs: 500 })
  } finally {
    nodePlugin.close()
  }
})
after(async () => {
  user?.close()
  await plane?.stop()
})

test("the cluster is new: no PersistentVolume, no Pod, no PodListeners", async () => {
  assert.deepEqual((await admin.list("/api/v1/persistentvolumes")).items, [])
  assert.deepEqual((await admin.list("/api/v1/pods")).items, [])
  // A CRD just established may answer 429 while its watch cache fills.
  const podListeners = await eventually("the PodListeners list", () => admin.list(`${GROUP}/podlisteners`).catch(() => undefined), { timeoutMs: 30_000, intervalMs: 500 })
  assert.deepEqual(podListeners.items, [])
})

test("the cluster admin's first Listener is accepted, and so are its updates", async () => {
  // Every binding's parameters are loaded by the API server's informers shortly after the
  // policy itself: write again for a few seconds, as a denying binding would refuse by then.
  for (let attempt = 0; attempt < 5; attempt++) {
    await admin.create(`${GROUP}/namespaces/${NS}/listeners`, listener("web"), { dryRun: "All" })
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
  const created = await admin.create(`${GROUP}/namespaces/${NS}/listeners`, listener("web"))
  assert.equal(created.metadata.name, "web")
  const labelled = await admin.patch(`${GROUP}/namespaces/${NS}/listeners/web`, { metadata: { labels: { team: "data" } } }, "merge")
  assert.equal(labelled.metadata.labels?.["team"], "data")
})

test("a namespace user with RBAC on Listeners creates, applies and deletes one", async () => {
  const created = await user.create(`${GROUP}/namespaces/${NS}/listeners`, listener("broker"))
  assert.equal(created.metadata.name, "broker")
  const applied = await user.patch(`${GROUP}/namespaces/${NS}/listeners/broker`, { ...listener("broker"), spec: { ...listener("broker").spec, ports: [{ name: "kafka", port: 9092 }] } },
    "apply", { fieldManager: "dev", force: true })
  // spec.ports is a map list keyed by name: the applied port joins the created one.
  assert.deepEqual((applied.spec as { ports: unknown }).ports, [{ name: "http", port: 8080, protocol: "TCP" }, { name: "kafka", port: 9092, protocol: "TCP" }])
  await user.delete(`${GROUP}/namespaces/${NS}/listeners/broker`)
})

test("PodListeners written by someone other than the node plugin, in a namespace with no Pod, are accepted", async () => {
  const created = await user.create(`${GROUP}/namespaces/${NS}/podlisteners`, {
    apiVersion: "listeners.stackable.tech/v1alpha1",
    kind: "PodListeners",
    metadata: { name: "pod-recorded-by-hand", namespace: NS },
    spec: { listeners: {} }
  })
  assert.equal(created.metadata.name, "pod-recorded-by-hand")
})
