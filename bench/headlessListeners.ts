// The Listeners the controller benchmarks create: `count` of the headless class in a new
// namespace (a headless Service allocates no cluster IP, so any count fits), 16 at a time.
import type { ControlPlane } from "../test/envtest/controlPlane.ts"

const LISTENERS = "/apis/listeners.stackable.tech/v1alpha1"

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
