// The Helm chart (deploy/helm/listener-operator) with the real Helm and the real API server
// of test/envtest: `helm lint` passes; the rendered manifests carry what the CSI contract
// needs (spec §4, §6: socket paths, sidecar arguments, StorageClass/CSIDriver equal to
// k8s/deploy/storage.ts, the generated CRDs); the API server accepts every object
// (CRDs installed for real, the rest with a server-side dry run); the RBAC it grants
// lets each role do its job and no more (asked of the real authorizer); and `helm
// install` then `helm upgrade` succeed.
import { after, before, test } from "node:test"
import assert from "node:assert/strict"
import { execFile, spawnSync } from "node:child_process"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseAllDocuments, stringify } from "yaml"
import { listenerCsiDriver, listenerStorageClass } from "../../k8s/deploy/storage.ts"
import { readFinalStage } from "../images/dockerfile.ts"
import { binDir, binary } from "../envtest/binDir.ts"
import { startControlPlane } from "../envtest/controlPlane.ts"
import type { ControlPlane } from "../envtest/controlPlane.ts"

const repoRoot = join(import.meta.dirname, "..", "..")
const CHART = join(repoRoot, "deploy", "helm", "listener-operator")
const RELEASE = "listener-operator"
const NAMESPACE = "listener-operator"
const CONTROLLER_SA = `system:serviceaccount:${NAMESPACE}:${RELEASE}-controller`
const NODE_SA = `system:serviceaccount:${NAMESPACE}:${RELEASE}-node`

interface K8sObject {
  readonly apiVersion: string
  readonly kind: string
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly labels?: Record<string, string> }
  readonly [field: string]: unknown
}
interface EnvVar {
  readonly name: string
  readonly value?: string
  readonly valueFrom?: { readonly fieldRef?: { readonly fieldPath: string } }
}
interface Container {
  readonly name: string
  readonly image: string
  readonly command?: ReadonlyArray<string>
  readonly args: ReadonlyArray<string>
  readonly env?: ReadonlyArray<EnvVar>
  readonly ports?: ReadonlyArray<{ readonly name: string; readonly containerPort: number }>
  readonly volumeMounts: ReadonlyArray<{ readonly name: string; readonly mountPath: string; readonly mountPropagation?: string }>
  readonly livenessProbe?: { readonly httpGet?: { readonly path: string; readonly port: string } }
  readonly readinessProbe?: { readonly httpGet?: { readonly path: string; readonly port: string } }
  readonly securityContext?: Record<string, unknown>
}
interface Volume {
  readonly name: string
  readonly emptyDir?: object
  readonly hostPath?: { readonly path: string; readonly type: string }
}
interface PodSpec {
  readonly serviceAccountName: string
  readonly containers: ReadonlyArray<Container>
  readonly volumes: ReadonlyArray<Volume>
  readonly securityContext?: Record<string, unknown>
  readonly tolerations?: ReadonlyArray<Record<string, unknown>>
}
interface Workload extends K8sObject {
  readonly spec: { readonly template: { readonly spec: PodSpec } }
}
interface PolicyRule {
  readonly apiGroups: ReadonlyArray<string>
  readonly resources: ReadonlyArray<string>
  readonly verbs: ReadonlyArray<string>
}

interface Run {
  readonly stdout: string
  readonly stderr: string
  readonly code: number
}

let plane: ControlPlane | undefined
let helmHome: string | undefined

const helm = (args: ReadonlyArray<string>): Promise<Run> =>
  new Promise((resolve, reject) => {
    if (helmHome === undefined) throw new Error("helm home not prepared")
    const env = {
      ...process.env,
      // Keep Helm's cache, config and data out of the user's home.
      HELM_CACHE_HOME: join(helmHome, "cache"),
      HELM_CONFIG_HOME: join(helmHome, "config"),
      HELM_DATA_HOME: join(helmHome, "data"),
      ...(plane !== undefined ? { KUBECONFIG: plane.kubeconfigPath } : {})
    }
    execFile(binary("helm", binDir()), [...args], { env, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error !== null && typeof error.code !== "number") reject(error)
      else resolve({ stdout, stderr, code: error === null ? 0 : Number(error.code) })
    })
  })

const kubectl = (args: ReadonlyArray<string>, input?: string): Promise<Run> => {
  if (plane === undefined) throw new Error("control plane not started")
  return plane.kubectl([...args], input)
}

const succeeded = (what: string, run: Run): string => {
  assert.equal(run.code, 0, `${what} failed (exit ${run.code}):\n${run.stderr}\n${run.stdout}`)
  return run.stdout
}

const objectsOf = (yamlText: string): ReadonlyArray<K8sObject> =>
  parseAllDocuments(yamlText)
    .map((doc) => doc.toJS() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null)

/** Renders the chart as `helm install` would, CRDs included. */
const render = async (...setValues: ReadonlyArray<string>): Promise<ReadonlyArray<K8sObject>> =>
  objectsOf(succeeded(
    "helm template",
    await helm(["template", RELEASE, CHART, "--namespace", NAMESPACE, "--include-crds", ...setValues.flatMap((v) => ["--set", v])])
  ))

const find = <T extends K8sObject>(objects: ReadonlyArray<K8sObject>, kind: string, name: string): T => {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name)
  assert.ok(found !== undefined, `rendered chart has no ${kind} ${name}; it has: ${objects.map((o) => `${o.kind}/${o.metadata.name}`).join(", ")}`)
  return found as T
}

const container = (workload: Workload, name: string): Container => {
  const found = workload.spec.template.spec.containers.find((c) => c.name === name)
  assert.ok(found !== undefined, `${workload.kind} ${workload.metadata.name} has no container ${name}`)
  return found
}

const volume = (workload: Workload, name: string): Volume => {
  const found = workload.spec.template.spec.volumes.find((v) => v.name === name)
  assert.ok(found !== undefined, `${workload.kind} ${workload.metadata.name} has no volume ${name}`)
  return found
}

const mountOf = (workload: Workload, c: Container, path: string): Volume => {
  const mount = c.volumeMounts.find((m) => m.mountPath === path)
  assert.ok(mount !== undefined, `container ${c.name} mounts nothing at ${path}`)
  return volume(workload, mount.name)
}

const envValue = (c: Container, name: string): EnvVar => {
  const found = c.env?.find((e) => e.name === name)
  assert.ok(found !== undefined, `container ${c.name} has no env ${name}`)
  return found
}

/** Every field `expected` sets has the same value in `actual`. */
const assertContains = (actual: unknown, expected: unknown, path = ""): void => {
  if (typeof expected === "object" && expected !== null && !Array.isArray(expected)) {
    assert.ok(typeof actual === "object" && actual !== null, `${path}: expected an object, got ${JSON.stringify(actual)}`)
    for (const [key, value] of Object.entries(expected)) assertContains((actual as Record<string, unknown>)[key], value, `${path}.${key}`)
  } else {
    assert.deepEqual(actual, expected, path)
  }
}

const rulesOf = (objects: ReadonlyArray<K8sObject>, kind: string, name: string): ReadonlyArray<PolicyRule> =>
  find<K8sObject & { rules: ReadonlyArray<PolicyRule> }>(objects, kind, name).rules

const verbsFor = (rules: ReadonlyArray<PolicyRule>, group: string, resource: string): ReadonlyArray<string> =>
  rules.filter((r) => r.apiGroups.includes(group) && r.resources.includes(resource)).flatMap((r) => r.verbs).sort()

/**
 * Asks the real authorizer (SubjectAccessReview via `kubectl auth can-i --as`).
 * `resource` may end in `/<subresource>` (kubectl itself would read that as an object name).
 */
const canI = async (user: string, verb: string, resource: string, namespace?: string): Promise<boolean> => {
  const [plural, subresource] = resource.split("/") as [string, string | undefined]
  const run = await kubectl([
    "auth",
    "can-i",
    verb,
    plural,
    `--as=${user}`,
    ...(subresource !== undefined ? [`--subresource=${subresource}`] : []),
    ...(namespace !== undefined ? ["-n", namespace] : [])
  ])
  const answer = run.stdout.trim()
  assert.ok(answer === "yes" || answer === "no", `kubectl auth can-i ${verb} ${resource}: ${run.stderr}${run.stdout}`)
  return answer === "yes"
}

let rendered: ReadonlyArray<K8sObject> = []

before(async () => {
  helmHome = await mkdtemp(join(tmpdir(), "helm-home-"))
  rendered = await render()
  plane = await startControlPlane()
}, { timeout: 240_000 })

after(async () => {
  await plane?.stop()
  if (helmHome !== undefined) await rm(helmHome, { recursive: true, force: true })
})

test("helm lint passes (chart, templates, values against values.schema.json)", async () => {
  const out = succeeded("helm lint", await helm(["lint", CHART, "--strict", "--namespace", NAMESPACE]))
  assert.match(out, /1 chart\(s\) linted, 0 chart\(s\) failed/)
})

test("the rendered chart ships exactly the generated CRDs", async () => {
  const generated = objectsOf(await readFile(join(repoRoot, "k8s", "crds.yaml"), "utf8"))
  const shipped = rendered.filter((o) => o.kind === "CustomResourceDefinition")
  assert.deepEqual(
    shipped.map((o) => o.metadata.name).sort(),
    ["listenerclasses.listeners.stackable.tech", "listeners.listeners.stackable.tech", "podlisteners.listeners.stackable.tech"]
  )
  assert.deepEqual(shipped, generated)
})

test("StorageClass and CSIDriver are the objects of k8s/deploy/storage.ts", () => {
  const storageClass = listenerStorageClass()
  const csiDriver = listenerCsiDriver()
  const { metadata: scMeta, ...scRest } = storageClass
  const { metadata: driverMeta, ...driverRest } = csiDriver
  const renderedClass = find(rendered, "StorageClass", scMeta.name)
  const renderedDriver = find(rendered, "CSIDriver", driverMeta.name)
  const withoutMetadata = ({ metadata: _, ...rest }: K8sObject) => rest
  assert.deepEqual(withoutMetadata(renderedClass), scRest)
  assert.deepEqual(withoutMetadata(renderedDriver), driverRest)
  // The spec's values, spelled out once more so a change in both places is still seen.
  assertContains(renderedClass, { provisioner: "listeners.stackable.tech", volumeBindingMode: "WaitForFirstConsumer", reclaimPolicy: "Delete" })
  assertContains(renderedDriver, {
    spec: { attachRequired: false, podInfoOnMount: true, fsGroupPolicy: "File", volumeLifecycleModes: ["Persistent", "Ephemeral"] }
  })
})

test("controller Deployment: `run controller` and csi-provisioner share /csi/csi.sock on an emptyDir", () => {
  const deployment = find<Workload>(rendered, "Deployment", `${RELEASE}-controller`)
  assert.equal(deployment.metadata.namespace, NAMESPACE)
  const controller = container(deployment, "controller")
  const provisioner = container(deployment, "csi-provisioner")

  assert.deepEqual(controller.args, ["run", "controller"])
  assert.equal(envValue(controller, "CSI_ENDPOINT").value, "/csi/csi.sock")
  assert.equal(envValue(controller, "LISTENER_CLASS_PRESET").value, "ephemeral-nodes")
  assert.equal(envValue(controller, "KUBERNETES_CLUSTER_DOMAIN").value, "cluster.local")
  assert.equal(envValue(controller, "POD_NAMESPACE").valueFrom?.fieldRef?.fieldPath, "metadata.namespace")
  assert.equal(envValue(controller, "METRICS_PORT").value, "8080")
  assert.deepEqual(controller.ports?.find((p) => p.name === "http")?.containerPort, 8080)
  assert.deepEqual(controller.livenessProbe?.httpGet, { path: "/healthz", port: "http" })
  assert.deepEqual(controller.readinessProbe?.httpGet, { path: "/readyz", port: "http" })

  assert.match(provisioner.image, /^registry\.k8s\.io\/sig-storage\/csi-provisioner:v6\.3\.0$/)
  for (const arg of [
    "--csi-address=/csi/csi.sock",
    "--feature-gates=Topology=true",
    "--extra-create-metadata",
    "--leader-election",
    "--leader-election-namespace=$(NAMESPACE)",
    // Not its own 5/s: 3 requests per new volume on the path of a Pod's start.
    "--kube-api-qps=50",
    "--kube-api-burst=100"
  ]) assert.ok(provisioner.args.includes(arg), `csi-provisioner lacks ${arg}: ${provisioner.args.join(" ")}`)
  assert.equal(envValue(provisioner, "NAMESPACE").valueFrom?.fieldRef?.fieldPath, "metadata.namespace")

  const socketDir = mountOf(deployment, controller, "/csi")
  assert.ok(socketDir.emptyDir !== undefined, "the controller's socket dir must be an emptyDir")
  assert.equal(mountOf(deployment, provisioner, "/csi").name, socketDir.name)

  const pod = deployment.spec.template.spec
  assert.equal(pod.serviceAccountName, `${RELEASE}-controller`)
  assertContains(pod.securityContext, { runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } })
  for (const c of [controller, provisioner]) {
    assertContains(c.securityContext, { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ["ALL"] } })
  }
})

test("node DaemonSet: `run node` on the kubelet's plugin socket, registered by node-driver-registrar", () => {
  const daemonSet = find<Workload>(rendered, "DaemonSet", `${RELEASE}-node`)
  const node = container(daemonSet, "node")
  const registrar = container(daemonSet, "node-driver-registrar")

  assert.deepEqual(node.args, ["run", "node"])
  assert.equal(envValue(node, "CSI_ENDPOINT").value, "/csi/csi.sock")
  assert.equal(envValue(node, "KUBERNETES_NODE_NAME").valueFrom?.fieldRef?.fieldPath, "spec.nodeName")

  // The socket lives in the kubelet's plugin dir; the registrar tells the kubelet that host path.
  const pluginDir = mountOf(daemonSet, node, "/csi")
  assert.deepEqual(pluginDir.hostPath, { path: "/var/lib/kubelet/plugins/listeners.stackable.tech/", type: "DirectoryOrCreate" })
  assert.equal(mountOf(daemonSet, registrar, "/csi").name, pluginDir.name)
  assert.ok(registrar.args.includes("--csi-address=/csi/csi.sock"), registrar.args.join(" "))
  assert.ok(
    registrar.args.includes(`--kubelet-registration-path=${pluginDir.hostPath?.path}csi.sock`),
    `registration path must be the host path of the node socket: ${registrar.args.join(" ")}`
  )
  assert.deepEqual(mountOf(daemonSet, registrar, "/registration").hostPath, { path: "/var/lib/kubelet/plugins_registry/", type: "Directory" })
  assert.match(registrar.image, /^registry\.k8s\.io\/sig-storage\/csi-node-driver-registrar:v2\.17\.0$/)

  // Volumes are written at the kubelet's target path: the pods dir at the same path as on the host.
  const podsMount = node.volumeMounts.find((m) => m.mountPath === "/var/lib/kubelet/pods")
  assert.ok(podsMount !== undefined, "the node plugin must mount /var/lib/kubelet/pods")
  assert.equal(podsMount.mountPropagation, "HostToContainer")
  assert.deepEqual(volume(daemonSet, podsMount.name).hostPath, { path: "/var/lib/kubelet/pods", type: "Directory" })

  assertContains(node.securityContext, { runAsUser: 0, privileged: false, readOnlyRootFilesystem: true, capabilities: { drop: ["ALL"] } })
  assert.deepEqual(daemonSet.spec.template.spec.tolerations, [{ operator: "Exists" }])
  assert.equal(daemonSet.spec.template.spec.serviceAccountName, `${RELEASE}-node`)
})

test("node.registration=builtin: one container registers itself with the kubelet, no registrar sidecar", async () => {
  const objects = await render("node.registration=builtin", "kubeletDir=/var/lib/k0s/kubelet", "metricsPort=9090")
  const daemonSet = find<Workload>(objects, "DaemonSet", `${RELEASE}-node`)
  assert.deepEqual(daemonSet.spec.template.spec.containers.map((c) => c.name), ["node"])
  const node = container(daemonSet, "node")
  assert.deepEqual(mountOf(daemonSet, node, "/registration").hostPath, { path: "/var/lib/k0s/kubelet/plugins_registry/", type: "Directory" })
  assert.equal(envValue(node, "PLUGIN_REGISTRATION_DIR").value, "/registration")
  // The kubelet dials the CSI socket at its host path: the plugin dir mounted at /csi.
  assert.equal(envValue(node, "DRIVER_REG_SOCK_PATH").value, `${mountOf(daemonSet, node, "/csi").hostPath?.path}csi.sock`)
  assert.equal(envValue(node, "METRICS_PORT").value, "9090")
  assert.equal(node.readinessProbe?.httpGet?.path, "/readyz")
  assert.equal(node.livenessProbe?.httpGet?.path, "/healthz")
  assert.equal(node.ports?.find((p) => p.name === "probes")?.containerPort, 9090)
  // The default stays the upstream sidecar.
  const sidecar = find<Workload>(rendered, "DaemonSet", `${RELEASE}-node`)
  assert.deepEqual(sidecar.spec.template.spec.containers.map((c) => c.name), ["node", "node-driver-registrar"])
  assert.equal(container(sidecar, "node").env?.some((e) => e.name === "PLUGIN_REGISTRATION_DIR"), false)
  // Update strategy: builtin surges (the new plugin takes the sockets over), the sidecar registrar cannot.
  const strategyOf = (objects: ReadonlyArray<K8sObject>) =>
    (find<K8sObject & { spec: { updateStrategy: unknown } }>(objects, "DaemonSet", `${RELEASE}-node`)).spec.updateStrategy
  assert.deepEqual(strategyOf(objects), { type: "RollingUpdate", rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } })
  assert.deepEqual(strategyOf(rendered), { type: "RollingUpdate", rollingUpdate: { maxUnavailable: 1 } })
  assert.deepEqual(strategyOf(await render("node.registration=builtin", "node.updateStrategy.type=OnDelete")), { type: "OnDelete" })
})

test("values move the kubelet dir, the metrics port and the preset", async () => {
  const objects = await render("kubeletDir=/var/lib/k0s/kubelet/", "metricsPort=9090", "preset=none", "image.tag=1.2.3")
  const daemonSet = find<Workload>(objects, "DaemonSet", `${RELEASE}-node`)
  const node = container(daemonSet, "node")
  assert.deepEqual(mountOf(daemonSet, node, "/csi").hostPath?.path, "/var/lib/k0s/kubelet/plugins/listeners.stackable.tech/")
  assert.deepEqual(mountOf(daemonSet, node, "/var/lib/k0s/kubelet/pods").hostPath?.path, "/var/lib/k0s/kubelet/pods")
  assert.ok(container(daemonSet, "node-driver-registrar").args.includes(
    "--kubelet-registration-path=/var/lib/k0s/kubelet/plugins/listeners.stackable.tech/csi.sock"
  ))
  assert.equal(node.image, "listener-operator:1.2.3")
  const controller = container(find<Workload>(objects, "Deployment", `${RELEASE}-controller`), "controller")
  assert.equal(envValue(controller, "LISTENER_CLASS_PRESET").value, "none")
  assert.equal(envValue(controller, "METRICS_PORT").value, "9090")
  assert.equal(controller.ports?.find((p) => p.name === "http")?.containerPort, 9090)
  assertContains(find(objects, "Service", `${RELEASE}-metrics`), { spec: { ports: [{ name: "metrics", port: 9090, targetPort: "http", protocol: "TCP" }] } })
})

test("each role gets its Node/V8 flags on the image's command line and NODE_OPTIONS only if set; Node accepts both", async () => {
  const entrypoint = readFinalStage(join(repoRoot, "Dockerfile")).entrypoint
  const controller = container(find<Workload>(rendered, "Deployment", `${RELEASE}-controller`), "controller")
  const node = container(find<Workload>(rendered, "DaemonSet", `${RELEASE}-node`), "node")
  // The chart defaults measured by bench/footprint.bench.ts, between the image's Node and its script.
  assert.deepEqual(controller.command, [entrypoint[0], "--max-semi-space-size=2", "--optimize-for-size", ...entrypoint.slice(1)])
  assert.deepEqual(node.command, [entrypoint[0], "--max-semi-space-size=1", ...entrypoint.slice(1)])
  assert.equal(controller.env?.some((e) => e.name === "NODE_OPTIONS"), false)

  const custom = await render("node.nodeOptions=--enable-source-maps", "controller.nodeFlags=null")
  const customNode = container(find<Workload>(custom, "DaemonSet", `${RELEASE}-node`), "node")
  assert.equal(envValue(customNode, "NODE_OPTIONS").value, "--enable-source-maps")
  assert.equal(container(find<Workload>(custom, "Deployment", `${RELEASE}-controller`), "controller").command, undefined, "no flags: the image's entrypoint")

  // What the kubelet would start must start: Node refuses unknown flags, and V8 flags in NODE_OPTIONS.
  for (const [role, spec] of [["controller", controller], ["node", node], ["node with NODE_OPTIONS", customNode]] as const) {
    const flags = (spec.command ?? entrypoint).slice(1, -1)
    const nodeOptions = spec.env?.find((e) => e.name === "NODE_OPTIONS")?.value ?? ""
    const run = spawnSync(process.execPath, [...flags, "-e", "0"], { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: nodeOptions } })
    assert.equal(run.status, 0, `${role}: node ${flags.join(" ")} with NODE_OPTIONS="${nodeOptions}" fails: ${run.stderr}`)
  }
})

test("values outside the schema are refused, naming the value", async () => {
  for (const [value, field] of [["preset=bogus", "preset"], ["logFormat=xml", "logFormat"], ["kubeletDir=relative/dir", "kubeletDir"], ["node.registration=both", "registration"]] as const) {
    const run = await helm(["template", RELEASE, CHART, "--set", value])
    assert.notEqual(run.code, 0, `helm template --set ${value} should fail`)
    assert.match(run.stderr, new RegExp(field), `the error should name ${field}: ${run.stderr}`)
  }
})

test("RBAC: the controller may write Listener status; each role gets what its calls need", () => {
  const controller = rulesOf(rendered, "ClusterRole", `${RELEASE}-controller`)
  assert.deepEqual(verbsFor(controller, "listeners.stackable.tech", "listeners/status"), ["patch"])
  assert.deepEqual(verbsFor(controller, "listeners.stackable.tech", "listeners"), ["create", "get", "list", "patch", "watch"])
  assert.deepEqual(verbsFor(controller, "events.k8s.io", "events"), ["create", "patch"])
  const provisioner = rulesOf(rendered, "ClusterRole", `${RELEASE}-provisioner`)
  assert.deepEqual(verbsFor(provisioner, "", "persistentvolumes"), ["create", "delete", "get", "list", "patch", "watch"])
  assert.deepEqual(verbsFor(provisioner, "storage.k8s.io", "csinodes"), ["get", "list", "watch"])
  const node = rulesOf(rendered, "ClusterRole", `${RELEASE}-node`)
  // No create: the controller's volume binder makes PodListeners and per-volume Listeners (docs/security.md).
  assert.deepEqual(verbsFor(node, "listeners.stackable.tech", "podlisteners"), ["get", "patch"])
  assert.deepEqual(verbsFor(node, "listeners.stackable.tech", "listeners"), ["get", "list", "patch", "watch"])
  assert.deepEqual(verbsFor(controller, "listeners.stackable.tech", "podlisteners"), ["create", "list", "patch", "watch"])
  // patch: the volume binder sets the mount labels (the node may only mark its Pods).
  assert.deepEqual(verbsFor(controller, "", "pods"), ["delete", "get", "list", "patch", "watch"])
  assert.deepEqual(verbsFor(node, "", "services"), [])
  const leases = rulesOf(rendered, "Role", `${RELEASE}-leader-election`)
  assert.deepEqual(verbsFor(leases, "coordination.k8s.io", "leases"), ["create", "get", "update", "watch"])
})

test("crds.manage: the controller may get and update only our three CRDs (MANAGE_CRDS=true); crds.manage=false takes both away", async () => {
  const crdRules = (objects: ReadonlyArray<K8sObject>) =>
    (rulesOf(objects, "ClusterRole", `${RELEASE}-controller`) as ReadonlyArray<PolicyRule & { resourceNames?: ReadonlyArray<string> }>)
      .filter((r) => r.resources.includes("customresourcedefinitions"))
  const envOf = (objects: ReadonlyArray<K8sObject>) =>
    find<K8sObject & { spec: { template: { spec: PodSpec } } }>(objects, "Deployment", `${RELEASE}-controller`)
      .spec.template.spec.containers.find((c) => c.name === "controller")?.env?.find((e) => e.name === "MANAGE_CRDS")?.value
  const managed = crdRules(rendered)
  assert.equal(managed.length, 1)
  assert.deepEqual(managed[0]!.apiGroups, ["apiextensions.k8s.io"])
  assert.deepEqual(managed[0]!.verbs, ["get", "update"])
  assert.deepEqual([...managed[0]!.resourceNames ?? []].sort(), rendered.filter((o) => o.kind === "CustomResourceDefinition").map((o) => o.metadata.name).sort())
  assert.equal(envOf(rendered), "true")
  const unmanaged = await render("crds.manage=false")
  assert.deepEqual(crdRules(unmanaged), [])
  assert.equal(envOf(unmanaged), "false")
})

test("the API server accepts every rendered object (CRDs installed, the rest in a server-side dry run)", { timeout: 180_000 }, async () => {
  const crds = rendered.filter((o) => o.kind === "CustomResourceDefinition")
  const rest = rendered.filter((o) => o.kind !== "CustomResourceDefinition")
  const toYaml = (objects: ReadonlyArray<K8sObject>) => objects.map((o) => `---\n${stringify(o)}`).join("")

  succeeded("apply CRDs", await kubectl(["apply", "--server-side", "-f", "-"], toYaml(crds)))
  succeeded("wait for CRDs", await kubectl(["wait", "--for=condition=Established", "--timeout=60s", ...crds.map((c) => `crd/${c.metadata.name}`)]))
  succeeded("create namespace", await kubectl(["create", "namespace", NAMESPACE]))

  const out = succeeded("server-side dry run", await kubectl(["apply", "--dry-run=server", "-o", "name", "-f", "-"], toYaml(rest)))
  const accepted = out.trim().split("\n").sort()
  assert.equal(accepted.length, rest.length, `every object accepted:\n${out}`)
  for (const o of rest) {
    const group = o.apiVersion.includes("/") ? `.${o.apiVersion.split("/")[0]}` : ""
    const expected = `${o.kind.toLowerCase()}${group}/${o.metadata.name}`
    assert.ok(accepted.includes(expected), `${expected} not in the dry run's answer:\n${out}`)
  }

  // The values upstream users carry over (docs/migration.md): one ServiceAccount with
  // annotations, extra labels, pull secrets, added tolerations, a resync of 0.
  const carried = (await render(
    "serviceAccount.name=custom", "serviceAccount.annotations.iam=role", "nodeAdmissionPolicy.enabled=false", "labels.team=data",
    "image.pullSecrets[0].name=registry", "node.tolerations[0].key=dedicated", "node.tolerations[0].operator=Exists", "node.addressRefreshSeconds=0"
  )).filter((o) => o.kind !== "CustomResourceDefinition")
  const carriedOut = succeeded("server-side dry run (carried-over values)", await kubectl(["apply", "--dry-run=server", "-o", "name", "-f", "-"], toYaml(carried)))
  assert.equal(carriedOut.trim().split("\n").length, carried.length, carriedOut)

  // OpenShift's rendering: everything but the SCC itself (this API server does not serve
  // security.openshift.io) is accepted, the spc_t type and the `use` rules included.
  const openshift = (await render("openshift.securityContextConstraints=true"))
    .filter((o) => o.kind !== "CustomResourceDefinition" && o.kind !== "SecurityContextConstraints")
  const openshiftOut = succeeded("server-side dry run (OpenShift)", await kubectl(["apply", "--dry-run=server", "-o", "name", "-f", "-"], toYaml(openshift)))
  assert.equal(openshiftOut.trim().split("\n").length, openshift.length, openshiftOut)
})

test("helm install then helm upgrade; the real authorizer grants each ServiceAccount its calls and no more", { timeout: 180_000 }, async () => {
  // CRDs and namespace exist from the previous test (Helm skips existing CRDs).
  succeeded("helm install", await helm(["install", RELEASE, CHART, "--namespace", NAMESPACE]))
  succeeded("helm upgrade", await helm(["upgrade", RELEASE, CHART, "--namespace", NAMESPACE, "--set", "logLevel=debug", "--set", "controller.replicas=2"]))
  const deployment = JSON.parse(succeeded("get deployment", await kubectl(["get", "deployment", `${RELEASE}-controller`, "-n", NAMESPACE, "-o", "json"]))) as {
    spec: { replicas: number; template: { spec: PodSpec } }
  }
  assert.equal(deployment.spec.replicas, 2)
  assert.equal(deployment.spec.template.spec.containers.find((c) => c.name === "controller")?.env?.find((e) => e.name === "LOG_LEVEL")?.value, "debug")

  const allowed: ReadonlyArray<[string, string, string, string?]> = [
    [CONTROLLER_SA, "watch", "listeners.listeners.stackable.tech"],
    [CONTROLLER_SA, "patch", "listeners.listeners.stackable.tech/status"],
    [CONTROLLER_SA, "create", "listenerclasses.listeners.stackable.tech"],
    [CONTROLLER_SA, "delete", "services"],
    [CONTROLLER_SA, "watch", "endpointslices.discovery.k8s.io"],
    [CONTROLLER_SA, "create", "events.events.k8s.io"],
    [CONTROLLER_SA, "update", "leases.coordination.k8s.io", NAMESPACE],
    [CONTROLLER_SA, "watch", "leases.coordination.k8s.io", NAMESPACE],
    [CONTROLLER_SA, "create", "persistentvolumes"],
    [CONTROLLER_SA, "update", "persistentvolumeclaims"],
    [CONTROLLER_SA, "watch", "csinodes.storage.k8s.io"],
    [CONTROLLER_SA, "watch", "storageclasses.storage.k8s.io"],
    [CONTROLLER_SA, "create", "podlisteners.listeners.stackable.tech"],
    [CONTROLLER_SA, "watch", "pods"],
    [CONTROLLER_SA, "patch", "pods"],
    [NODE_SA, "patch", "podlisteners.listeners.stackable.tech"],
    [NODE_SA, "patch", "listeners.listeners.stackable.tech"],
    [NODE_SA, "patch", "pods"],
    [NODE_SA, "patch", "persistentvolumes"],
    [NODE_SA, "get", "nodes"]
  ]
  const refused: ReadonlyArray<[string, string, string, string?]> = [
    [CONTROLLER_SA, "update", "leases.coordination.k8s.io", "default"],
    [CONTROLLER_SA, "get", "secrets"],
    [NODE_SA, "patch", "listeners.listeners.stackable.tech/status"],
    [NODE_SA, "create", "services"],
    [NODE_SA, "delete", "listeners.listeners.stackable.tech"],
    [NODE_SA, "create", "listeners.listeners.stackable.tech"],
    [NODE_SA, "create", "podlisteners.listeners.stackable.tech"],
    [NODE_SA, "list", "pods"]
  ]
  for (const [user, verb, resource, namespace] of allowed) {
    assert.equal(await canI(user, verb, resource, namespace), true, `${user} should be allowed to ${verb} ${resource}`)
  }
  for (const [user, verb, resource, namespace] of refused) {
    assert.equal(await canI(user, verb, resource, namespace), false, `${user} should not be allowed to ${verb} ${resource}`)
  }
  // crds.manage (default): our CRDs by name, and no other.
  const canOnCrd = async (verb: string, name?: string) => {
    const run = await kubectl(["auth", "can-i", verb, `customresourcedefinitions.apiextensions.k8s.io${name !== undefined ? `/${name}` : ""}`, `--as=${CONTROLLER_SA}`])
    return run.stdout.trim() === "yes"
  }
  for (const verb of ["get", "update"]) assert.equal(await canOnCrd(verb, "listeners.listeners.stackable.tech"), true, `${verb} our CRD`)
  assert.equal(await canOnCrd("update", "gateways.gateway.networking.k8s.io"), false, "another CRD")
  assert.equal(await canOnCrd("delete", "listeners.listeners.stackable.tech"), false, "delete our CRD")
  assert.equal(await canOnCrd("create"), false, "create any CRD")
  assert.equal(await canOnCrd("patch", "listeners.listeners.stackable.tech"), false, "patch (server-side apply would create a missing CRD)")
  assert.equal(await canOnCrd("list"), false, "list CRDs")
})
