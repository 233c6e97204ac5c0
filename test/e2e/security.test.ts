// docs/security.md on real kubelets, with the chart installed as users install it: an
// attacker who took over node-a reads the node plugin's ServiceAccount token from node-a's
// disk and tries to reach beyond the node — each write refused by the chart's admission
// policies — while the plugin's own publish, refresh and unpublish keep working; who may use
// which ListenerClass, at admission and for Listeners made before the rule; and least
// privilege: every API call each role made during the run (the API server's audit log)
// against the RBAC rules the chart gave it.
import assert from "node:assert/strict"
import { after, before, describe, test } from "node:test"
import { LISTENER_API_VERSION, mountLabelKey } from "../../domain/constants.ts"
import { createNamespace, eventually, KubeClient } from "../envtest/kubeClient.ts"
import type { KubeObject } from "../envtest/kubeClient.ts"
import { readyPod as readyPodIn } from "../envtest/localCluster.ts"
import { coverage } from "../envtest/rbacCoverage.ts"
import type { PolicyRule } from "../envtest/rbacCoverage.ts"
import { OPERATOR_NAMESPACE, RELEASE, startOperatorCluster } from "../realnodes/operatorCluster.ts"
import type { OperatorCluster } from "../realnodes/operatorCluster.ts"
import { ephemeralPod, listenerClass, printedAddress } from "./workloads.ts"

const log = process.env["E2E_LOG"] !== undefined ? (line: string) => console.error(line) : undefined
const NS = "sec"
const KAFKA_NS = "kafka-sec"
const TEAM_NS = "team"
const NODES = ["node-a", "node-b"] as const
const WAIT = { timeoutMs: 240_000, intervalMs: 1000 }
const LISTENERS = `/apis/${LISTENER_API_VERSION}`
const MOUNT_PREFIX = "listener.stackable.tech/mnt."
const CSI_NODE_MANAGER = "listeners.stackable.tech_csi-node"
const BOUND_NODE = "listeners.stackable.tech/bound-node"
const NODE_PUBLISHED = "listeners.stackable.tech/node-published"
const CONTROLLER_USER = `system:serviceaccount:${OPERATOR_NAMESPACE}:${RELEASE}-controller`
const NODE_USER = `system:serviceaccount:${OPERATOR_NAMESPACE}:${RELEASE}-node`

/** The lists a cache makes only where the API server refuses a watch-list. */
const PAGED_FALLBACK = "a cache's paged fallback, where the API server refuses a watch-list (k8s/runtime/watcher.ts; test/integration/watchList.test.ts); here caches fill with a watch (sendInitialEvents)"

/**
 * Rules the run does not exercise, each with where it is used. Anything else unused fails
 * the least-privilege test: remove the rule, or exercise it and say where.
 */
const NOT_EXERCISED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  [NODE_USER]: {
    "list core/persistentvolumes": "a hand-made PV whose name is not its volume handle (effects/shared/volumeObjects.ts findPersistentVolume)",
    "create events.k8s.io/events": "a volume that waits (test/integration/waitingEvents.test.ts); here each publish may succeed at once",
    "patch events.k8s.io/events": "a volume that keeps waiting: its Event's series is patched (test/integration/waitingEvents.test.ts)",
    "get listeners.stackable.tech/podlisteners": "a publish again for a Pod that already has the Listener's mount label (a retried publish, a kubelet re-publish) reads its entry first (test/unit/effects/node/publishVolume.test.ts); first publishes and live refreshes no longer read it",
    "get core/nodes": "read live only while the node's watch-fed caches have not listed yet or miss (effects/node/NodeView.ts); a publish soon after the plugin starts",
    "get listeners.stackable.tech/listeners": "read live only while the node's watch-fed caches have not listed yet or miss (effects/node/NodeView.ts); a publish soon after the plugin starts",
    "list core/nodes": PAGED_FALLBACK,
    "list listeners.stackable.tech/listeners": PAGED_FALLBACK,
    "list listeners.stackable.tech/listenerclasses": PAGED_FALLBACK
  },
  [CONTROLLER_USER]: {
    // The controller's own rules (controller-rbac.yaml).
    "create listeners.stackable.tech/listenerclasses": "presets (preset value; this install has preset=none): test/integration/helmChart.test.ts, effects/controller/presets.ts",
    "get listeners.stackable.tech/listeners": "node-loss recovery keeps a per-volume Listener: test/integration/nodeLoss.test.ts",
    "patch listeners.stackable.tech/listeners": "node-loss recovery keeps a per-volume Listener: test/integration/nodeLoss.test.ts",
    "create listeners.stackable.tech/listeners": "node-loss recovery's apply, should the Listener have gone meanwhile",
    "update listeners.stackable.tech/listeners/finalizers": "not a call: OwnerReferencesPermissionEnforcement checks it for the Services' blockOwnerDeletion",
    "get core/services": "the uncached ListenerView (effects/controller/ListenerView.ts) of library compositions",
    "get core/nodes": "node-loss recovery reads a Node live (k8s/nodeLossController.ts)",
    "delete core/persistentvolumeclaims": "node-loss recovery: test/integration/nodeLoss.test.ts",
    "delete core/pods": "node-loss recovery: test/integration/nodeLoss.test.ts",
    "get core/pods": "node-loss recovery: test/integration/nodeLoss.test.ts",
    "list core/pods": "node-loss recovery lists the Pods of a claim: test/integration/nodeLoss.test.ts",
    "get core/persistentvolumes": "ValidateVolumeCapabilities finds the PV by name (csi-sanity: test/integration/csiSanity.test.ts); the provisioner's rule",
    "list core/persistentvolumeclaims": "informers that start with a list (here the sidecar streams it as a watch)",
    "patch events.k8s.io/events": "a repeated Event is patched (series)",
    "watch coordination.k8s.io/leases": "a standby controller waits for the Lease's release (k8s/runtime/leaderElection.ts); a rollout has one (test/e2e/upgrade.test.ts)",
    "list listeners.stackable.tech/podlisteners": PAGED_FALLBACK,
    "patch listeners.stackable.tech/podlisteners": "the volume binder binds a PodListeners that exists unbound (upstream's, an older version's): test/integration/volumeBinding.test.ts",
    "list core/nodes": PAGED_FALLBACK,
    "list core/persistentvolumes": PAGED_FALLBACK,
    "list core/services": PAGED_FALLBACK,
    "list discovery.k8s.io/endpointslices": PAGED_FALLBACK,
    "list listeners.stackable.tech/listeners": PAGED_FALLBACK,
    "list listeners.stackable.tech/listenerclasses": PAGED_FALLBACK,
    // The csi-provisioner sidecar's rules (kubernetes-csi/external-provisioner's rbac.yaml).
    "update core/persistentvolumeclaims": "csi-provisioner: claim annotations (e.g. the selected node) on paths this run does not take",
    "get storage.k8s.io/csinodes": "csi-provisioner topology",
    "list storage.k8s.io/csinodes": "csi-provisioner topology (listed when its informer does not stream)",
    "get storage.k8s.io/storageclasses": "csi-provisioner",
    "list storage.k8s.io/storageclasses": "csi-provisioner (listed when its informer does not stream)",
    "get storage.k8s.io/volumeattachments": "csi-provisioner waits for detach before deleting a volume of an attachable driver",
    "list storage.k8s.io/volumeattachments": "csi-provisioner waits for detach before deleting a volume of an attachable driver",
    "watch storage.k8s.io/volumeattachments": "csi-provisioner waits for detach before deleting a volume of an attachable driver",
    "list core/events": "csi-provisioner's client-go event recorder",
    "watch core/events": "csi-provisioner's client-go event recorder",
    "patch core/events": "csi-provisioner's client-go event recorder aggregates repeats",
    "update core/events": "csi-provisioner's client-go event recorder aggregates repeats"
  }
}

/** A Pod of the suite's image without a listener volume. */
const plainPod = (name: string, node: string) => {
  const pod = ephemeralPod(name, NS, "sec-cluster", node)
  return { ...pod, spec: { ...pod.spec, volumes: [], containers: pod.spec.containers.map(({ volumeMounts: _, ...container }) => container) } }
}

describe("security: a stolen node credential, class namespaces, least privilege", { timeout: 1_800_000 }, () => {
  let operator: OperatorCluster
  let kube: KubeClient
  /** The attacker's client: node-a's plugin token, read from node-a's disk. */
  let attacker: KubeClient

  const readyPod = (namespace: string, name: string, notUid?: string) => readyPodIn(kube, namespace, name, notUid, WAIT)
  const logsOf = async (namespace: string, name: string): Promise<string> => {
    const run = await operator.cluster.plane.kubectl(["logs", "-n", namespace, name, "-c", "app"])
    return run.code === 0 ? run.stdout : ""
  }
  const printed = (namespace: string, name: string) =>
    eventually(`${name} printed its listener address`, async () => printedAddress(await logsOf(namespace, name)), WAIT)
  const exec = async (namespace: string, name: string, command: ReadonlyArray<string>): Promise<string> => {
    const run = await operator.cluster.plane.kubectl(["exec", "-n", namespace, name, "--", ...command])
    assert.equal(run.code, 0, `exec ${command.join(" ")} in ${name}: ${run.stderr}`)
    return run.stdout.trim()
  }
  const pvOf = async (namespace: string, pod: string): Promise<KubeObject> => {
    const claim = await kube.get(`/api/v1/namespaces/${namespace}/persistentvolumeclaims/${pod}-listener`)
    return kube.get(`/api/v1/persistentvolumes/${claim.spec.volumeName as string}`)
  }
  /** Resolves with the refusal message, or fails the test when the write went through. */
  const refused = async (what: string, write: () => Promise<unknown>): Promise<string> => {
    try {
      await write()
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      assert.match(message, /: 403 /u, `${what}: refused as Forbidden: ${message}`)
      return message
    }
    assert.fail(`${what}: the write was admitted`)
  }

  before(async () => {
    // The chart's defaults: what most users run.
    operator = await startOperatorCluster({ nodes: NODES, log, auditLog: "all" })
    kube = operator.cluster.kube
    for (const ns of [NS, KAFKA_NS, TEAM_NS]) await createNamespace(kube, ns)
    await kube.create(`${LISTENERS}/listenerclasses`, listenerClass("sec-pinned", { serviceType: "NodePort", pinnedNodePorts: true }))
    await kube.create(`${LISTENERS}/listenerclasses`, listenerClass("sec-kafka", { serviceType: "ClusterIP", allowedNamespaces: ["kafka-*"] }))
    await kube.create(`${LISTENERS}/listenerclasses`, listenerClass("sec-cluster", { serviceType: "ClusterIP" }))
    for (const [name, node, className] of [["own-a", "node-a", "sec-pinned"], ["victim-b", "node-b", "sec-pinned"], ["victim-b-open", "node-b", "sec-cluster"]] as const) {
      await kube.create(`/api/v1/namespaces/${NS}/pods`, ephemeralPod(name, NS, className, node))
    }
    // A Pod on node-b with no listener volume: nobody has written its PodListeners.
    await kube.create(`/api/v1/namespaces/${NS}/pods`, plainPod("plain-b", "node-b"))
  })

  after(async () => {
    attacker?.close()
    await operator?.stop()
  })

  test("under the node policies, publish, refresh and unpublish work on both nodes", async () => {
    for (const name of ["own-a", "victim-b"]) {
      await readyPod(NS, name)
      assert.ok(await printed(NS, name))
    }
    const ownA = await kube.get(`/api/v1/namespaces/${NS}/pods/own-a`)
    assert.ok(Object.keys(ownA.metadata.labels ?? {}).some((key) => key.startsWith(MOUNT_PREFIX)), "the mount label is on the Pod (set by the controller's volume binder)")
    assert.ok(Object.values(ownA.metadata.managedFields ?? []).every((entry) =>
      !JSON.stringify(entry.fieldsV1 ?? {}).includes(MOUNT_PREFIX) || entry.manager === "listeners.stackable.tech_volume-binder"), "only the volume binder wrote a mount label")
    const record = await kube.get(`${LISTENERS}/namespaces/${NS}/podlisteners/pod-${ownA.metadata.uid}`)
    assert.ok((record.spec.listeners as Record<string, unknown>)["listener"], "PodListeners records the volume")
    const pv = await pvOf(NS, "own-a")
    assert.equal(pv.metadata.labels?.["listeners.stackable.tech/listener-name"], "own-a-listener")
    // Refresh: a node address override reaches the running Pod's files (PodListeners patched).
    await kube.patch("/api/v1/nodes/node-a", { metadata: { annotations: { "listeners.stackable.tech/node-address": "192.0.2.7" } } })
    await eventually("the refreshed address in own-a's volume", async () =>
      (await exec(NS, "own-a", ["cat", "/listener/default-address/address"])) === "192.0.2.7", WAIT)
    await eventually("the refreshed address in own-a's PodListeners", async () => {
      const live = await kube.get(`${LISTENERS}/namespaces/${NS}/podlisteners/pod-${ownA.metadata.uid}`)
      return JSON.stringify(live.spec).includes("192.0.2.7")
    }, WAIT)
    // Unpublish and publish again: the Pod replaced on node-a.
    await kube.delete(`/api/v1/namespaces/${NS}/pods/own-a`)
    await eventually("own-a gone", async () => (await kube.getOrUndefined(`/api/v1/namespaces/${NS}/pods/own-a`)) === undefined, WAIT)
    await kube.create(`/api/v1/namespaces/${NS}/pods`, ephemeralPod("own-a", NS, "sec-pinned", "node-a"))
    await readyPod(NS, "own-a", ownA.metadata.uid)
    assert.ok(await printed(NS, "own-a"))
    // A class restricted to kafka-* works there.
    await kube.create(`/api/v1/namespaces/${KAFKA_NS}/pods`, ephemeralPod("broker", KAFKA_NS, "sec-kafka", "node-a"))
    await readyPod(KAFKA_NS, "broker")
  })

  test("ListenerClass allowedNamespaces: refused elsewhere at admission; a Listener made before the rule is withdrawn", async () => {
    const listener = (namespace: string, name: string, className: string) => ({
      apiVersion: LISTENER_API_VERSION,
      kind: "Listener",
      metadata: { name, namespace },
      spec: { className, ports: [{ name: "http", port: 8080 }] }
    })
    const rule = /ListenerClass sec-kafka may not be used in namespace team \(its spec\.allowedNamespaces \[kafka-\*\]\)/u
    assert.match(await refused("a Listener of sec-kafka in team", () => kube.create(`${LISTENERS}/namespaces/${TEAM_NS}/listeners`, listener(TEAM_NS, "web", "sec-kafka"))), rule)
    assert.match(await refused("a listener PVC of sec-kafka in team", () =>
      kube.create(`/api/v1/namespaces/${TEAM_NS}/persistentvolumeclaims`, {
        apiVersion: "v1",
        kind: "PersistentVolumeClaim",
        metadata: { name: "data", annotations: { "listeners.stackable.tech/listener-class": "sec-kafka" } },
        spec: { storageClassName: "listeners.stackable.tech", accessModes: ["ReadWriteMany"], resources: { requests: { storage: "1" } } }
      })), rule)
    // Made while the class was open, then the admin restricts it.
    await kube.create(`${LISTENERS}/namespaces/${TEAM_NS}/listeners`, listener(TEAM_NS, "legacy", "sec-cluster"))
    await eventually("legacy's Service", () => kube.getOrUndefined(`/api/v1/namespaces/${TEAM_NS}/services/legacy`), WAIT)
    await kube.patch(`${LISTENERS}/listenerclasses/sec-cluster`, { spec: { allowedNamespaces: ["kafka-*", NS] } })
    const ready = await eventually("legacy withdrawn", async () => {
      const live = await kube.get(`${LISTENERS}/namespaces/${TEAM_NS}/listeners/legacy`)
      const condition = ((live.status?.["conditions"] ?? []) as Array<Record<string, string>>).find((c) => c["type"] === "Ready")
      return condition?.["reason"] === "ClassNotAllowed" ? condition : undefined
    }, WAIT)
    assert.equal(ready["status"], "False")
    assert.match(ready["message"]!, /ListenerClass sec-cluster may not be used in namespace team \(its spec\.allowedNamespaces \[kafka-\*, sec\]\)/u)
    await eventually("legacy's Service deleted", async () => (await kube.getOrUndefined(`/api/v1/namespaces/${TEAM_NS}/services/legacy`)) === undefined, WAIT)
    const events = await kube.list(`/apis/events.k8s.io/v1/namespaces/${TEAM_NS}/events`, { fieldSelector: "reason=ClassNotAllowed" })
    assert.ok(events.items.some((e) => /sec-cluster.*spec\.allowedNamespaces/u.test(String(e["note"]))), "a Warning Event names the class and the rule")
  })

  test("least privilege: every call of each role is allowed by its chart RBAC, and every rule is used", async () => {
    const rulesOf = async (path: string): Promise<ReadonlyArray<PolicyRule>> => ((await kube.get(path))["rules"] ?? []) as ReadonlyArray<PolicyRule>
    const rbac = "/apis/rbac.authorization.k8s.io/v1"
    const controllerRules = [
      ...(await rulesOf(`${rbac}/clusterroles/${RELEASE}-controller`)),
      ...(await rulesOf(`${rbac}/clusterroles/${RELEASE}-provisioner`)),
      ...(await rulesOf(`${rbac}/namespaces/${OPERATOR_NAMESPACE}/roles/${RELEASE}-leader-election`))
    ]
    const nodeRules = await rulesOf(`${rbac}/clusterroles/${RELEASE}-node`)
    const events = await operator.cluster.plane.auditEvents()
    const report: string[] = []
    const results = ([[CONTROLLER_USER, controllerRules], [NODE_USER, nodeRules]] as const).map(([user, rules]) => {
      const result = coverage(user, rules, events)
      report.push(`${user}: used ${JSON.stringify(Object.fromEntries(result.used))}; unused ${JSON.stringify(result.unused)}; outside ${JSON.stringify(Object.fromEntries(result.outside))}`)
      return { user, result }
    })
    console.error(report.join("\n"))
    for (const { user, result } of results) {
      assert.ok(result.used.size > 0, `${user} made calls`)
      assert.deepEqual(Object.fromEntries(result.outside), {}, `${user} made calls its RBAC does not allow`)
      const unexplained = result.unused.filter((p) => NOT_EXERCISED[user]?.[p] === undefined)
      assert.deepEqual(unexplained, [], `${user} has rules no call used`)
      // Explained rules a run may still use (a repeated Event, a listed informer): only noted.
      const usedAnyway = Object.keys(NOT_EXERCISED[user] ?? {}).filter((p) => result.used.has(p))
      if (usedAnyway.length > 0) console.error(`${user}: used this time although listed as not exercised: ${usedAnyway.join(", ")}`)
    }
  })

  test("an attacker with node-a's plugin token reaches nothing beyond node-a", async () => {
    // As an attacker on node-a would: the projected token in the kubelet's directory of the plugin's Pod.
    const plugin = await operator.nodePluginPod("node-a")
    // A tmpfs mounted in node-a's mount namespace: read it there, as root on node-a.
    const nodeA = operator.cluster.nodes.find((n) => n.name === "node-a")!
    const read = await nodeA.exec(["sh", "-c", `cat /var/lib/kubelet/pods/${plugin.metadata.uid!}/volumes/kubernetes.io~projected/kube-api-access-*/token`])
    assert.equal(read.code, 0, `read the token on node-a: ${read.stderr}`)
    const token = read.stdout.trim()
    attacker = new KubeClient({ server: operator.cluster.plane.server, caPem: kube.connection.caPem, token })
    const me = await attacker.create<{ status: { userInfo: { username: string; extra?: Record<string, string[]> } } }>(
      "/apis/authentication.k8s.io/v1/selfsubjectreviews", { apiVersion: "authentication.k8s.io/v1", kind: "SelfSubjectReview" })
    assert.equal(me.status.userInfo.username, NODE_USER)
    assert.deepEqual(me.status.userInfo.extra?.["authentication.kubernetes.io/node-name"], ["node-a"])

    // The victims on node-b: victim-b (pinned NodePort class), victim-b-open (ClusterIP: a
    // volume the policy cannot place by its PV), plain-b (no listener volume, so no PodListeners yet).
    for (const name of ["victim-b-open", "own-a"]) await readyPod(NS, name)
    const ownA = await kube.get(`/api/v1/namespaces/${NS}/pods/own-a`)
    const victimB = await kube.get(`/api/v1/namespaces/${NS}/pods/victim-b`)
    const plainB = await kube.get(`/api/v1/namespaces/${NS}/pods/plain-b`)
    const pvA = await pvOf(NS, "own-a")
    const pvB = await pvOf(NS, "victim-b")
    const pvBOpen = await pvOf(NS, "victim-b-open")
    const podListenersOf = (pod: KubeObject) => `${LISTENERS}/namespaces/${NS}/podlisteners/pod-${pod.metadata.uid}`
    const listenerPath = (namespace: string, name: string) => `${LISTENERS}/namespaces/${namespace}/listeners/${name}`
    const victimRecords = {
      podListeners: await eventually("victim-b's PodListeners", () => kube.getOrUndefined<KubeObject>(podListenersOf(victimB)), WAIT),
      openListener: await kube.get(listenerPath(NS, "victim-b-open-listener"))
    }
    const mount = `${MOUNT_PREFIX}0123456789abcdef0123456789abcdef`
    const patchPod = (pod: KubeObject, labels: Record<string, string | null>) =>
      attacker.patch(`/api/v1/namespaces/${NS}/pods/${pod.metadata.name}`, { metadata: { labels } }, "merge")
    const perVolume = (namespace: string, name: string, className: string, owner: KubeObject, spec: Record<string, unknown> = {}) => ({
      apiVersion: LISTENER_API_VERSION,
      kind: "Listener",
      metadata: { name, namespace, ownerReferences: [{ apiVersion: "v1", kind: "PersistentVolume", name: owner.metadata.name, uid: owner.metadata.uid }] },
      spec: { className, ports: [{ name: "http", port: 8080 }], ...spec }
    })
    const apply = (body: ReturnType<typeof perVolume>) =>
      attacker.patch(listenerPath(body.metadata.namespace, body.metadata.name), body, "apply", { fieldManager: CSI_NODE_MANAGER, force: true })
    const forgedAddress = { listener: { scope: "Node", ingressAddresses: [{ address: "198.51.100.66", addressType: "IP", ports: { http: 443 } }] } }
    const cannot = (verb: string, resource: string) => new RegExp(`User "${NODE_USER}" cannot ${verb} resource "${resource.replace("/", "\\/")}"`, "u")
    // The node policy (<release>-node-writes): objects bound to another node, a changed binding, any create.
    const policy = (rule: string) => new RegExp(`ValidatingAdmissionPolicy '${RELEASE}-node-writes' with binding '${RELEASE}-node-writes' denied request: the node plugin of node node-a ${rule}`, "u")
    const boundTo = (kind: string, name: string, node: string) =>
      policy(`may update only objects bound to its node \\(${BOUND_NODE}\\); ${kind} ${NS}/${name} is bound to node ${node}`)
    const bindingChange = (kind: string, name: string) => policy(`may not change ${BOUND_NODE} of ${kind} ${NS}/${name} \\(only the controller binds an object to a node\\)`)
    /** Each write an attacker with node-a's token could try, and what refuses it (docs/security.md's threat table). */
    const attempts: ReadonlyArray<{ readonly what: string; readonly refusedBy: RegExp; readonly write: () => Promise<unknown> }> = [
      // Pods
      { what: "label a Pod on node-b", refusedBy: /the node plugin of node node-a may write only Pods scheduled to it; Pod sec\/victim-b is on node node-b/u,
        write: () => patchPod(victimB, { [mount]: "x" }) },
      { what: "a foreign label on a Pod of node-a", refusedBy: policy(`may change only the label ${NODE_PUBLISHED} of a Pod \\(the controller sets the mount labels listener\\.stackable\\.tech/mnt\\.\\*\\); it changed app\\.kubernetes\\.io/role of Pod ${NS}/own-a`),
        write: () => patchPod(ownA, { "app.kubernetes.io/role": "admin" }) },
      // The Service of a Listener selects the Pods with its mount label (mnt.<Listener uid>:
      // <Listener name>); node-a reads every Listener's uid, but only the controller sets mount labels.
      { what: "put the mount label of node-b's Listener on node-a's own Pod (to join that Listener's Service)",
        refusedBy: policy(`may change only the label ${NODE_PUBLISHED} of a Pod \\(the controller sets the mount labels listener\\.stackable\\.tech/mnt\\.\\*\\); it changed ${mountLabelKey(victimRecords.openListener.metadata.uid!).replaceAll(".", "\\.")} of Pod ${NS}/own-a`),
        write: () => patchPod(ownA, { [mountLabelKey(victimRecords.openListener.metadata.uid!)]: "victim-b-open-listener" }) },
      { what: "the node-published marker of node-a's Pod set to node-b", refusedBy: policy(`may set ${NODE_PUBLISHED} of Pod ${NS}/own-a only to its own node name, not node-b`),
        write: () => patchPod(ownA, { [NODE_PUBLISHED]: "node-b" }) },
      { what: "create a Pod", refusedBy: cannot("create", "pods"),
        write: () => attacker.create(`/api/v1/namespaces/${NS}/pods`, plainPod("forged", "node-a")) },
      // PodListeners
      { what: "rewrite the PodListeners of a Pod on node-b (merge patch of spec.listeners)", refusedBy: boundTo("PodListeners", `pod-${victimB.metadata.uid}`, "node-b"),
        write: () => attacker.patch(podListenersOf(victimB), { spec: { listeners: forgedAddress } }, "merge") },
      { what: "create the PodListeners pod-<uid> of a Pod on node-b before anyone else", refusedBy: cannot("create", "podlisteners"),
        write: () => attacker.create(`${LISTENERS}/namespaces/${NS}/podlisteners`, {
          apiVersion: LISTENER_API_VERSION,
          kind: "PodListeners",
          metadata: { name: `pod-${plainB.metadata.uid}`, namespace: NS, labels: { [BOUND_NODE]: "node-a" }, ownerReferences: [{ apiVersion: "v1", kind: "Pod", name: "plain-b", uid: plainB.metadata.uid }] },
          spec: { listeners: forgedAddress }
        }) },
      { what: "rebind node-a's own PodListeners to node-b", refusedBy: bindingChange("PodListeners", `pod-${ownA.metadata.uid}`),
        write: () => attacker.patch(podListenersOf(ownA), { metadata: { labels: { [BOUND_NODE]: "node-b" } } }, "merge") },
      { what: "remove the binding of node-a's own PodListeners", refusedBy: bindingChange("PodListeners", `pod-${ownA.metadata.uid}`),
        write: () => attacker.patch(podListenersOf(ownA), { metadata: { labels: { [BOUND_NODE]: null } } }, "merge") },
      // Listeners
      { what: "label the per-volume Listener of a Pod on node-b (unpinned ClusterIP class)", refusedBy: boundTo("Listener", "victim-b-open-listener", "node-b"),
        write: () => attacker.patch(listenerPath(NS, "victim-b-open-listener"), { metadata: { labels: { pwn: "yes" } } }, "merge") },
      { what: "change the ports of the per-volume Listener of a Pod on node-b (unpinned)", refusedBy: boundTo("Listener", "victim-b-open-listener", "node-b"),
        write: () => attacker.patch(listenerPath(NS, "victim-b-open-listener"), { spec: { ports: [{ name: "http", port: 22, protocol: "TCP" }] } }, "merge") },
      { what: "create a per-volume Listener (owned by node-b's unpinned PV)", refusedBy: cannot("create", "listeners"),
        write: () => attacker.create(`${LISTENERS}/namespaces/${NS}/listeners`, perVolume(NS, "forged-listener", "sec-cluster", pvBOpen)) },
      // A server-side apply that would create the object needs RBAC's create too.
      { what: "apply a Listener in a namespace with no volume on node-a", refusedBy: cannot("create", "listeners"),
        write: () => apply(perVolume(TEAM_NS, "exposed", "sec-pinned", pvA)) },
      { what: "create a Listener with no volume at all", refusedBy: cannot("create", "listeners"),
        write: () => attacker.create(`${LISTENERS}/namespaces/${TEAM_NS}/listeners`, { ...perVolume(TEAM_NS, "exposed", "sec-pinned", pvA), metadata: { name: "exposed", namespace: TEAM_NS } }) },
      { what: "extraPodSelectorLabels on node-a's own Listener, selecting someone else's Pods", refusedBy: /may not set extraPodSelectorLabels or objectOverrides/u,
        write: () => apply(perVolume(NS, "own-a-listener", "sec-pinned", pvA, { extraPodSelectorLabels: { app: "victim-b" } })) },
      // Nor may it switch its own Listener to another class (here one not allowed in sec): the volume names the class.
      { what: "switch node-a's own Listener to another class", refusedBy: /may not change the class|ListenerClass sec-kafka may not be used in namespace sec/u,
        write: () => apply(perVolume(NS, "own-a-listener", "sec-kafka", pvA)) },
      { what: "rebind node-a's own per-volume Listener to node-b", refusedBy: bindingChange("Listener", "own-a-listener"),
        write: () => attacker.patch(listenerPath(NS, "own-a-listener"), { metadata: { labels: { [BOUND_NODE]: "node-b" } } }, "merge") },
      { what: "remove the binding of node-a's own per-volume Listener", refusedBy: bindingChange("Listener", "own-a-listener"),
        write: () => attacker.patch(listenerPath(NS, "own-a-listener"), { metadata: { labels: { [BOUND_NODE]: null } } }, "merge") },
      { what: "rewrite the status of node-b's Listener", refusedBy: cannot("patch", "listeners/status"),
        write: () => attacker.patch(`${listenerPath(NS, "victim-b-listener")}/status`, { status: { ingressAddresses: [{ address: "198.51.100.66", addressType: "IP", ports: { http: 443 } }] } }, "merge") },
      // PersistentVolumes
      { what: "label a PV of node-b", refusedBy: /it is pinned to another node/u,
        write: () => attacker.patch(`/api/v1/persistentvolumes/${pvB.metadata.name}`, { metadata: { labels: { "listeners.stackable.tech/listener-name": "own-a-listener" } } }, "merge") },
      // What RBAC never gave the node role.
      { what: "label node-b", refusedBy: cannot("patch", "nodes"),
        write: () => attacker.patch("/api/v1/nodes/node-b", { metadata: { labels: { pwn: "yes" } } }, "merge") },
      { what: "change a ListenerClass", refusedBy: cannot("patch", "listenerclasses"),
        write: () => attacker.patch(`${LISTENERS}/listenerclasses/sec-cluster`, { spec: { serviceType: "LoadBalancer" } }, "merge") },
      { what: "read Secrets", refusedBy: cannot("list", "secrets"),
        write: () => attacker.list(`/api/v1/namespaces/${OPERATOR_NAMESPACE}/secrets`) },
      { what: "delete a Service", refusedBy: cannot("delete", "services"),
        write: () => attacker.delete(`/api/v1/namespaces/${KAFKA_NS}/services/broker-listener`) }
    ]
    const outcomes: string[] = []
    for (const attempt of attempts) {
      try {
        await attempt.write()
        outcomes.push(`ADMITTED: ${attempt.what}`)
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error)
        if (!/: 403 /u.test(message)) outcomes.push(`NOT A REFUSAL: ${attempt.what}: ${message}`)
        else if (!attempt.refusedBy.test(message)) outcomes.push(`REFUSED, OTHER REASON: ${attempt.what}: ${message} (expected ${attempt.refusedBy.source})`)
      }
    }
    console.error(`attacker with node-a's token: ${attempts.length} attempts, ${attempts.length - outcomes.length} refused as expected\n${outcomes.join("\n")}`)
    assert.deepEqual(outcomes, [], "every attempt refused, for the expected reason")

    // Nothing changed for the victims.
    const after = await kube.get(`/api/v1/namespaces/${NS}/pods/victim-b`)
    assert.deepEqual(after.metadata.labels, victimB.metadata.labels)
    assert.deepEqual((await kube.get(podListenersOf(victimB))).spec, victimRecords.podListeners.spec)
    const openListener = await kube.get(listenerPath(NS, "victim-b-open-listener"))
    assert.deepEqual(openListener.spec, victimRecords.openListener.spec)
    assert.deepEqual(openListener.metadata.labels, victimRecords.openListener.metadata.labels)
    assert.equal(await kube.getOrUndefined(`${LISTENERS}/namespaces/${NS}/podlisteners/pod-${plainB.metadata.uid}`), undefined, "no PodListeners forged for plain-b")
    // node-b's Service still sends its traffic only to node-b's Pod.
    const victimIp = (await kube.get(`/api/v1/namespaces/${NS}/pods/victim-b-open`)).status?.["podIP"]
    const slices = await kube.list(`/apis/discovery.k8s.io/v1/namespaces/${NS}/endpointslices`, { labelSelector: "kubernetes.io/service-name=victim-b-open-listener" })
    const endpoints = slices.items.flatMap((slice) => ((slice["endpoints"] ?? []) as Array<{ addresses: string[] }>).flatMap((e) => e.addresses))
    assert.deepEqual(endpoints, [victimIp], "victim-b-open-listener's Service selects only victim-b-open")

    // The positive control: node-a's own objects stay writable with the same token, as its
    // plugin writes them (a refresh of its PodListeners entry, its Listener's ports, its Pod's
    // marker; its mount label unchanged is no change).
    const ownRecord = await kube.get(podListenersOf(ownA))
    assert.equal(ownRecord.metadata.labels?.[BOUND_NODE], "node-a", "node-a's PodListeners is bound to node-a")
    await attacker.patch(podListenersOf(ownA), { spec: { listeners: ownRecord.spec.listeners } }, "merge")
    const ownListener = await kube.get(listenerPath(NS, "own-a-listener"))
    assert.equal(ownListener.metadata.labels?.[BOUND_NODE], "node-a", "node-a's per-volume Listener is bound to node-a")
    await attacker.patch(listenerPath(NS, "own-a-listener"), { spec: { ports: ownListener.spec.ports } }, "merge")
    const ownMount = Object.entries(ownA.metadata.labels ?? {}).find(([key]) => key.startsWith(MOUNT_PREFIX))!
    await patchPod(ownA, { [ownMount[0]]: ownMount[1], [NODE_PUBLISHED]: "node-a" })
    await readyPod(NS, "own-a")
  })
})
