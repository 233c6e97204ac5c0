/**
 * `npm run demo -- --real-nodes`: the operator as users run it. Two real kubelets
 * with containerd (test/realnodes), the operator's image built offline, our Helm chart
 * installed with the `stable-nodes` preset, and a 2-replica StatefulSet whose containers
 * print the address in their listener volume and serve their own name. The demo shows
 * the Pod logs, reaches each replica through its published address from this machine,
 * and deletes a Pod to show it coming back on its node with the same address.
 *
 * Needs root (network and mount namespaces) and the Debian packages of
 * test/install-deps.sh.
 */
import { execFileSync } from "node:child_process"
import { Effect } from "effect"
import { LISTENER_API_VERSION } from "../../domain/constants.ts"
import { printedAddress, statefulSet } from "../e2e/workloads.ts"
import { createNamespace, eventually } from "../envtest/kubeClient.ts"
import { readyPod } from "../envtest/localCluster.ts"
import { httpGetBody } from "../realnodes/httpGet.ts"
import { startOperatorCluster } from "../realnodes/operatorCluster.ts"
import type { OperatorCluster } from "../realnodes/operatorCluster.ts"

const NAMESPACE = "demo"
const WAIT = { timeoutMs: 240_000, intervalMs: 1000 }
const say = (text: string) => process.stdout.write(`${text}\n`)

const demo = async () => {
  say("listener-operator demo on real nodes")
  say("- building the node components (kubelet, kube-proxy), the cluster add-ons (CoreDNS, MetalLB) and the operator (npm run build) if needed")
  execFileSync("bash", ["test/realnodes/build.sh"], { stdio: ["ignore", "ignore", "inherit"] })
  execFileSync("bash", ["test/clusteraddons/build.sh"], { stdio: ["ignore", "ignore", "inherit"] })
  execFileSync("npm", ["run", "--silent", "build"], { stdio: ["ignore", "ignore", "inherit"] })
  say("- starting a control plane, 2 real nodes (kubelet + containerd + kube-proxy each), importing the images, installing the chart")
  const started = Date.now()
  const operator: OperatorCluster = await startOperatorCluster({ nodes: ["node-a", "node-b"], values: ["preset=stable-nodes", "logLevel=info"] })
  const { cluster } = operator
  try {
    say(`  ready in ${((Date.now() - started) / 1000).toFixed(0)} s; kubeconfig: ${cluster.plane.kubeconfigPath}`)
    const pods = await cluster.plane.kubectl(["get", "pods", "-n", "listener-operator", "-o", "wide"])
    say(pods.stdout.replace(/^/gmu, "  "))
    await eventually("preset ListenerClasses", () => cluster.kube.getOrUndefined(`/apis/${LISTENER_API_VERSION}/listenerclasses/external-stable`), WAIT)
    await createNamespace(cluster.kube, NAMESPACE)
    say("- creating StatefulSet web (2 replicas) with a listener volume of class external-stable (NodePort, pinned)")
    await cluster.kube.create(`/apis/apps/v1/namespaces/${NAMESPACE}/statefulsets`, statefulSet("web", NAMESPACE, "external-stable", 2))
    const ready = (name: string, notUid?: string) => readyPod(cluster.kube, NAMESPACE, name, notUid, WAIT)
    const printed = (name: string) =>
      eventually(`${name}'s log`, async () => printedAddress((await cluster.plane.kubectl(["logs", "-n", NAMESPACE, name])).stdout), WAIT)
    const show = async (name: string) => {
      const pod = await ready(name)
      const seen = await printed(name)
      const answer = await eventually(`${seen.address}:${seen.port}`, () => httpGetBody(seen.address, seen.port).catch(() => undefined), WAIT)
      say(`  ${name} on ${pod.spec.nodeName}: its log says "listener address=${seen.address} port=${seen.port}"; GET http://${seen.address}:${seen.port}/ → ${answer}`)
      return { pod, seen }
    }
    say("- each replica prints its own node's address and node port, and answers there:")
    const first = await show("web-0")
    await show("web-1")
    const listeners = await cluster.plane.kubectl(["get", "listeners", "-n", NAMESPACE])
    say(listeners.stdout.replace(/^/gmu, "  "))
    say(`- deleting web-0 (on ${first.pod.spec.nodeName}); its volume is pinned to that node`)
    await cluster.kube.delete(`/api/v1/namespaces/${NAMESPACE}/pods/web-0`)
    await ready("web-0", first.pod.metadata.uid)
    await show("web-0")
    say("- done; stopping everything")
  } finally {
    await operator.stop()
  }
}

export const runRealNodesDemo: Effect.Effect<void, Error> = Effect.tryPromise({
  try: demo,
  catch: (error) => (error instanceof Error ? error : new Error(String(error)))
})
