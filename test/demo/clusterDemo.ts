/**
 * `npm run demo -- --cluster`: a guided run on a real local control plane (see
 * test/envtest/localCluster.ts). It deploys a 2-replica StatefulSet that asks for pinned,
 * per-replica NodePort listeners (the `external-stable` class of the `stable-nodes`
 * preset), shows what each Pod finds in its listener volume and on its Listener, then
 * deletes a Pod and shows it coming back on the same node with the same address.
 */
import { spawn } from "node:child_process"
import { readFileSync, readdirSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { table } from "../../demo/memoryDemo.ts"
import { LISTENER_API_VERSION, STORAGE_CLASS_NAME } from "../../domain/constants.ts"
import { eventually } from "../envtest/kubeClient.ts"
import type { KubeObject } from "../envtest/kubeClient.ts"
import { readyPod, startLocalCluster } from "../envtest/localCluster.ts"
import type { LocalCluster } from "../envtest/localCluster.ts"

const NAMESPACE = "demo"
const NODES = {
  "node-a": [{ type: "ExternalIP", address: "203.0.113.10" }, { type: "InternalIP", address: "10.1.0.10" }, { type: "Hostname", address: "node-a" }],
  "node-b": [{ type: "ExternalIP", address: "203.0.113.20" }, { type: "InternalIP", address: "10.1.0.20" }, { type: "Hostname", address: "node-b" }]
} as const
const WAIT = { timeoutMs: 180_000, intervalMs: 500 }

const say = (text: string) => process.stdout.write(`${text}\n`)

const statefulSet = {
  apiVersion: "apps/v1",
  kind: "StatefulSet",
  metadata: { name: "kafka", namespace: NAMESPACE },
  spec: {
    serviceName: "kafka",
    replicas: 2,
    selector: { matchLabels: { app: "kafka" } },
    template: {
      metadata: { labels: { app: "kafka" } },
      spec: {
        containers: [{
          name: "kafka",
          image: "example/kafka",
          ports: [{ name: "kafka", containerPort: 9092 }, { name: "metrics", containerPort: 9404 }],
          volumeMounts: [{ name: "listener", mountPath: "/listener" }]
        }]
      }
    },
    volumeClaimTemplates: [{
      metadata: { name: "listener", annotations: { "listeners.stackable.tech/listener-class": "external-stable" } },
      spec: { storageClassName: STORAGE_CLASS_NAME, accessModes: ["ReadWriteMany"], resources: { requests: { storage: "1" } } }
    }]
  }
}

/** What a Pod reads under /listener: default-address/address and its ports. */
const readVolume = (cluster: LocalCluster, pod: KubeObject): { address: string; ports: string } | undefined => {
  const published = cluster.kubelets.flatMap((k) => k.published.get(pod.metadata.uid!) ?? [])
  const target = published.find((v) => v.volumeName === "listener")?.targetPath
  if (target === undefined) return undefined
  const dir = join(target, "default-address")
  const ports = readdirSync(join(dir, "ports")).map((name) => `${name}=${readFileSync(join(dir, "ports", name), "utf8")}`)
  return { address: readFileSync(join(dir, "address"), "utf8"), ports: ports.join(" ") }
}

/**
 * Builds (or reuses) the envtest binaries, turning build.sh's log into one line per
 * component; the first build compiles Kubernetes from the Go module proxy.
 */
const buildBinaries = (): Promise<void> =>
  new Promise((resolve, reject) => {
    const build = spawn("bash", [join(import.meta.dirname, "..", "envtest", "build.sh")], { stdio: ["ignore", "ignore", "pipe"] })
    let buffered = ""
    build.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk
      for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n")) {
        const line = buffered.slice(0, nl)
        buffered = buffered.slice(nl + 1)
        if (/building into/u.test(line)) say("  first run: building kube-apiserver, etcd, controller manager, scheduler, kubectl, csi-provisioner, csi-sanity and Helm from the Go module proxy (about 10–25 minutes on 2 cores; later runs reuse them)")
        const component = /^envtest-build: (\+\d+s) (.+)$/u.exec(line)
        if (component !== null) say(`  ${component[1]} ${component[2]}`)
      }
    })
    build.on("error", reject)
    build.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`test/envtest/build.sh failed (exit ${code})`))))
  })

const demo = async (options: { readonly logs: string | undefined }) => {
  say(`listener-operator demo on a real local control plane${options.logs === undefined ? "" : ` (role logs: ${options.logs})`}`)
  await buildBinaries()
  const started = Date.now()
  const cluster = await startLocalCluster({ nodes: NODES, preset: "stable-nodes", roleLogFile: options.logs })
  try {
    say(`- started kube-apiserver, etcd, controller manager, scheduler, csi-provisioner, our two roles and a kubelet stand-in per node in ${((Date.now() - started) / 1000).toFixed(1)} s (kubeconfig: ${cluster.plane.kubeconfigPath})`)
    const classes = await eventually("preset ListenerClasses", async () => {
      const list = await cluster.kube.list(`/apis/${LISTENER_API_VERSION}/listenerclasses`)
      return list.items.length >= 3 ? list.items.map((c) => c.metadata.name).join(", ") : undefined
    }, WAIT)
    say(`- the controller created the stable-nodes preset ListenerClasses: ${classes}`)
    await cluster.kube.create("/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: NAMESPACE } })
    await eventually("default ServiceAccount", () => cluster.kube.getOrUndefined(`/api/v1/namespaces/${NAMESPACE}/serviceaccounts/default`), WAIT)
    say("- StatefulSet kafka, 2 replicas, listener volume of class external-stable (NodePort, pinned): scheduled, provisioned by csi-provisioner, published")
    await cluster.kube.create(`/apis/apps/v1/namespaces/${NAMESPACE}/statefulsets`, statefulSet)
    const pods = [await readyPod(cluster.kube, NAMESPACE, "kafka-0"), await readyPod(cluster.kube, NAMESPACE, "kafka-1")]
    const rows: string[][] = []
    for (const pod of pods) {
      const volume = readVolume(cluster, pod)
      say(`- ${pod.metadata.name} on ${pod.spec.nodeName} reads /listener/default-address/address = ${volume?.address ?? "?"}, ports ${volume?.ports ?? "?"}`)
      rows.push([pod.metadata.name!, pod.spec.nodeName, volume?.address ?? "?", volume?.ports ?? "?"])
    }
    for (const pod of pods) {
      const listener = await cluster.kube.get(`/apis/${LISTENER_API_VERSION}/namespaces/${NAMESPACE}/listeners/listener-${pod.metadata.name}`)
      const addresses = ((listener.status?.ingressAddresses ?? []) as Array<{ address: string }>).map((a) => a.address)
      say(`- Listener listener-${pod.metadata.name} (created per replica by the controller, bound to its node) reports ${addresses.join(", ")}`)
    }
    const victim = pods[0]!
    say(`- deleting ${victim.metadata.name}: its volume is pinned to ${victim.spec.nodeName}`)
    await cluster.kube.delete(`/api/v1/namespaces/${NAMESPACE}/pods/${victim.metadata.name}`)
    const replacement = await readyPod(cluster.kube, NAMESPACE, victim.metadata.name!, victim.metadata.uid)
    const again = readVolume(cluster, replacement)
    say(`- ${replacement.metadata.name} is back on ${replacement.spec.nodeName} and reads the same address: ${again?.address ?? "?"}`)
    rows[0] = [replacement.metadata.name!, replacement.spec.nodeName, again?.address ?? "?", again?.ports ?? "?"]
    say("")
    for (const line of table(["POD", "NODE", "ADDRESS", "PORTS"], rows)) say(line)
    say("")
    say("done; stopping everything. On real kubelets and containerd (root): npm run demo -- --real-nodes")
  } finally {
    await cluster.stop()
  }
}

export const runDemo = (options: { readonly logs: string | undefined }): Effect.Effect<void, Error> => Effect.tryPromise({
  try: () => demo(options),
  catch: (error) => (error instanceof Error ? error : new Error(String(error)))
})
