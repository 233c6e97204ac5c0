/**
 * `listener-operator demo --cluster`: a guided run on a real local control plane (see
 * test/envtest/localCluster.ts). It deploys a 2-replica StatefulSet that asks for pinned,
 * per-replica NodePort listeners (the `external-stable` class of the `stable-nodes`
 * preset), shows what each Pod finds in its listener volume and on its Listener, then
 * deletes a Pod and shows it coming back on the same node with the same address.
 */
import { spawn } from "node:child_process"
import { readFileSync, readdirSync, realpathSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { Effect } from "effect"
import { LISTENER_API_VERSION, STORAGE_CLASS_NAME } from "../domain/constants.ts"
import { binDir } from "../test/envtest/binDir.ts"
import { eventually } from "../test/envtest/kubeClient.ts"
import type { KubeObject } from "../test/envtest/kubeClient.ts"
import { readyPod, startLocalCluster } from "../test/envtest/localCluster.ts"
import type { LocalCluster } from "../test/envtest/localCluster.ts"

const NAMESPACE = "demo"
const NODES = {
  "node-a": [{ type: "ExternalIP", address: "192.0.2.10" }, { type: "InternalIP", address: "10.1.0.10" }, { type: "Hostname", address: "node-a" }],
  "node-b": [{ type: "ExternalIP", address: "192.0.2.20" }, { type: "InternalIP", address: "10.1.0.20" }, { type: "Hostname", address: "node-b" }]
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

/** The listener volume as the container sees it under /listener. */
const showVolume = (cluster: LocalCluster, pod: KubeObject) => {
  const published = cluster.kubelets.flatMap((k) => k.published.get(pod.metadata.uid!) ?? [])
  const target = published.find((v) => v.volumeName === "listener")?.targetPath
  if (target === undefined) return say("    (volume not published)")
  const tree = dirname(realpathSync(join(target, "addresses")))
  say(`    /listener/default-address -> ${relative(tree, realpathSync(join(target, "default-address")))}`)
  for (const address of readdirSync(join(target, "addresses"))) {
    const dir = join(target, "addresses", address)
    const ports = readdirSync(join(dir, "ports")).map((name) => `${name}=${readFileSync(join(dir, "ports", name), "utf8")}`)
    say(`    /listener/addresses/${address}/address = ${readFileSync(join(dir, "address"), "utf8")}   ports: ${ports.join(" ")}`)
  }
}

const showPods = (cluster: LocalCluster, pods: ReadonlyArray<KubeObject>) => {
  for (const pod of pods) {
    say(`  ${pod.metadata.name} on ${pod.spec.nodeName}:`)
    showVolume(cluster, pod)
  }
}

const showListeners = async (cluster: LocalCluster) => {
  const out = await cluster.plane.kubectl(["get", "listeners", "-n", NAMESPACE])
  say(out.stdout.replace(/^/gm, "  "))
  for (const name of ["listener-kafka-0", "listener-kafka-1"]) {
    const listener = await cluster.kube.get(`/apis/${LISTENER_API_VERSION}/namespaces/${NAMESPACE}/listeners/${name}`)
    say(`  ${name}.status.ingressAddresses = ${JSON.stringify(listener.status?.ingressAddresses ?? [])}`)
  }
}

/**
 * Builds (or reuses) the envtest binaries, turning build.sh's log into one line per
 * component; the first build compiles Kubernetes from the Go module proxy.
 */
const buildBinaries = (): Promise<void> =>
  new Promise((resolve, reject) => {
    const build = spawn("bash", [join(import.meta.dirname, "..", "test", "envtest", "build.sh")], { stdio: ["ignore", "ignore", "pipe"] })
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

const demo = async () => {
  say("listener-operator demo on a real local control plane")
  await buildBinaries()
  say(`- starting a local control plane (binaries from ${binDir()}), 2 nodes, the controller and node roles, csi-provisioner and a kubelet stand-in per node`)
  const started = Date.now()
  const cluster = await startLocalCluster({ nodes: NODES, preset: "stable-nodes" })
  try {
    say(`  ready in ${((Date.now() - started) / 1000).toFixed(1)} s; kubeconfig: ${cluster.plane.kubeconfigPath}`)
    const classes = await eventually("preset ListenerClasses", async () => {
      const list = await cluster.plane.kubectl(["get", "listenerclasses"])
      return list.stdout.includes("external-stable") ? list.stdout : undefined
    }, WAIT)
    say("- ListenerClasses of the stable-nodes preset:")
    say(classes.replace(/^/gm, "  "))

    await cluster.kube.create("/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: NAMESPACE } })
    await eventually("default ServiceAccount", () => cluster.kube.getOrUndefined(`/api/v1/namespaces/${NAMESPACE}/serviceaccounts/default`), WAIT)
    say("- creating StatefulSet kafka (2 replicas) with a listener volume of class external-stable (NodePort, pinned)")
    await cluster.kube.create(`/apis/apps/v1/namespaces/${NAMESPACE}/statefulsets`, statefulSet)
    const pods = [await readyPod(cluster.kube, NAMESPACE, "kafka-0"), await readyPod(cluster.kube, NAMESPACE, "kafka-1")]
    say("- each Pod finds its own node's address and the node ports in its volume:")
    showPods(cluster, pods)
    say("- the Listeners created per replica report the same addresses:")
    await showListeners(cluster)

    const victim = pods[0]!
    say(`- deleting ${victim.metadata.name} (on ${victim.spec.nodeName}); its volume is pinned to that node`)
    await cluster.kube.delete(`/api/v1/namespaces/${NAMESPACE}/pods/${victim.metadata.name}`)
    const replacement = await readyPod(cluster.kube, NAMESPACE, victim.metadata.name!, victim.metadata.uid)
    say(`  ${replacement.metadata.name} is back on ${replacement.spec.nodeName} with the same address:`)
    showVolume(cluster, replacement)
    say("- done; stopping everything")
  } finally {
    await cluster.stop()
  }
}

export const runDemo: Effect.Effect<void, Error> = Effect.tryPromise({
  try: demo,
  catch: (error) => (error instanceof Error ? error : new Error(String(error)))
})
