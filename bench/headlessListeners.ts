// What the benchmarks of the compiled controller share: the CRDs and the headless class
// installed into a fresh control plane, `count` Listeners of it in a new namespace (a
// headless Service allocates no cluster IP, so any count fits), how many are addressed,
// their removal between runs, and the JSON kubeconfig the roles read.
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { parse } from "yaml"
import { crdManifests } from "../k8s/crds.ts"
import type { ControlPlane } from "../test/envtest/controlPlane.ts"
import { eventually } from "../test/envtest/kubeClient.ts"

const LISTENERS = "/apis/listeners.stackable.tech/v1alpha1"

/** This build's CRDs, served, and the ClusterIP class `bench-headless` (`clusterIP: None`). */
export async function installHeadlessClass(plane: ControlPlane): Promise<void> {
  for (const crd of crdManifests()) await plane.kube.create("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd)
  await eventually("CRDs served", async () => (await plane.kube.raw("GET", `${LISTENERS}/listeners`)).status === 200, { timeoutMs: 60_000 })
  await plane.kube.create(`${LISTENERS}/listenerclasses`, {
    apiVersion: "listeners.stackable.tech/v1alpha1",
    kind: "ListenerClass",
    metadata: { name: "bench-headless" },
    spec: { serviceType: "ClusterIP", preferredAddressType: "Hostname", serviceOverrides: { spec: { clusterIP: "None" } } }
  })
}

/** `count` Listeners of the headless class in the new `namespace`, created 16 at a time. */
export async function createListeners(plane: ControlPlane, namespace: string, count: number): Promise<void> {
  await plane.kube.create("/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } })
  let next = 0
  const worker = async () => {
    while (next < count) {
      const i = next++
      await plane.kube.create(`${LISTENERS}/namespaces/${namespace}/listeners`, {
        apiVersion: "listeners.stackable.tech/v1alpha1",
        kind: "Listener",
        metadata: { name: `l-${i}` },
        spec: { className: "bench-headless", ports: [{ name: "http", port: 8080 }] }
      })
    }
  }
  await Promise.all(Array.from({ length: 16 }, worker))
}

/** How many Listeners of `namespace` have addresses in their status (read in pages). */
export async function addressedListeners(plane: ControlPlane, namespace: string): Promise<number> {
  let done = 0
  let cont: string | undefined
  do {
    const page = await plane.kube.list(`${LISTENERS}/namespaces/${namespace}/listeners`, { limit: 2000, ...(cont !== undefined ? { continue: cont } : {}) })
    done += page.items.filter((l) => ((l.status?.["ingressAddresses"] ?? []) as unknown[]).length > 0).length
    cont = page.metadata.continue || undefined
  } while (cont !== undefined)
  return done
}

/**
 * Removes a run's Listeners and Services before the next run: without a controller manager
 * a namespace deletion never empties the namespace, and the next controller would cache
 * (and be measured with) every earlier run's objects too.
 */
export async function removeListeners(plane: ControlPlane, namespace: string): Promise<void> {
  for (const path of [`${LISTENERS}/namespaces/${namespace}/listeners`, `/api/v1/namespaces/${namespace}/services`]) {
    // deleting 10,000 objects takes the API server longer than the client's default minute
    const answer = await plane.kube.raw("DELETE", path, { timeoutMs: 900_000 })
    if (answer.status >= 300) throw new Error(`DELETE ${path}: ${answer.status}`)
    await eventually(`${path} empty`, async () => (await plane.kube.list(path, { limit: 1 })).items.length === 0, { timeoutMs: 600_000, intervalMs: 1000 })
  }
  await plane.kube.delete(`/api/v1/namespaces/${namespace}`).catch(() => undefined)
}

/** The control plane's kubeconfig as JSON, next to it (certificate paths stay valid). */
export const jsonKubeconfig = (plane: ControlPlane): string => {
  const path = `${plane.kubeconfigPath}.json`
  if (!existsSync(path)) writeFileSync(path, JSON.stringify(parse(readFileSync(plane.kubeconfigPath, "utf8"))))
  return path
}
