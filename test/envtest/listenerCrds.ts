import { crdManifests } from "../../k8s/crds.ts"
import { eventually } from "./kubeClient.ts"
import type { KubeClient } from "./kubeClient.ts"

/** Creates this build's CRDs and waits until each is Established, as a local cluster's first step. */
export async function createListenerCrds(kube: KubeClient, wait: { readonly timeoutMs: number; readonly intervalMs: number }): Promise<void> {
  for (const crd of crdManifests()) await kube.create("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd)
  for (const crd of crdManifests()) {
    await eventually(`CRD ${crd.metadata.name} established`, async () => {
      const live = await kube.get(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`)
      const conditions = (live.status?.["conditions"] ?? []) as Array<{ type: string; status: string }>
      return conditions.some((c) => c.type === "Established" && c.status === "True") ? true : undefined
    }, wait)
  }
}
