// The operator's own Kubernetes client (KubeApiHttp + the Event recorder) as a runtime for
// one kubeconfig, and the reads and writes integration tests make through it — so a test
// can run the controller under one identity and inspect the cluster under another.
import { Effect, Layer, ManagedRuntime } from "effect"
import { EventRecorderKube } from "../../adapters/EventRecorderKube.ts"
import { KubeApiHttp } from "../../adapters/KubeApiHttp.ts"
import { Kinds } from "../../domain/kinds.ts"
import type { ResourceKind } from "../../domain/kinds.ts"
import type { EventRecorder } from "../../effects/shared/EventRecorder.ts"
import { getOption, KubeApi } from "../../effects/shared/KubeApi.ts"
import type { KubeObject } from "../../effects/shared/KubeApi.ts"
import type { crdManifests } from "../../k8s/crds.ts"
import { eventually } from "./kubeClient.ts"

export type KubeApiRuntime = ManagedRuntime.ManagedRuntime<KubeApi | KubeApiHttp | EventRecorder, unknown>

export const kubeApiRuntime = (kubeconfig: string, reportingInstance: string): KubeApiRuntime =>
  ManagedRuntime.make(Layer.provideMerge(
    EventRecorderKube.layer({ reportingController: "listeners.stackable.tech/listener-operator", reportingInstance }),
    KubeApiHttp.layerFromKubeconfigFile(kubeconfig)
  ))

/** `api` runs one KubeApi call, `get` reads an object (undefined when it does not exist). */
export const clientOf = (runtime: () => KubeApiRuntime) => {
  const api = <A, E>(f: (api: KubeApi["Service"]) => Effect.Effect<A, E>) => runtime().runPromise(KubeApi.use(f))
  const get = (kind: ResourceKind, name: string, namespace?: string): Promise<KubeObject | undefined> =>
    runtime().runPromise(Effect.map(getOption(KubeApi.use((a) => a.get(kind, { name, namespace }))), (o) => (o._tag === "Some" ? o.value : undefined)))
  /** Apply the CRDs and wait until each is Established. */
  const installCrds = async (crds: ReturnType<typeof crdManifests>) => {
    for (const crd of crds) await api((a) => a.apply(Kinds.CustomResourceDefinition, { ...crd }, { fieldManager: "crd-installer", force: true }))
    for (const crd of crds) {
      await eventually(`CRD ${crd.metadata.name} established`, async () => {
        const conditions = ((await get(Kinds.CustomResourceDefinition, crd.metadata.name))?.["status"] as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions ?? []
        return conditions.some((c) => c.type === "Established" && c.status === "True")
      }, { timeoutMs: 30_000 })
    }
  }
  return { api, get, installCrds } as const
}
