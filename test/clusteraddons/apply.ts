// Objects of the cluster add-ons go in with the real kubectl's server-side apply, as an
// administrator would install them (`kubectl apply --server-side -f`).
import type { ControlPlane } from "../envtest/controlPlane.ts";
import type { KubeObject } from "../envtest/kubeClient.ts";

export const ADDONS_FIELD_MANAGER = "e2e-cluster-addons";

export async function applyObjects(plane: Pick<ControlPlane, "kubectl">, objects: ReadonlyArray<KubeObject>): Promise<void> {
  const list = JSON.stringify({ apiVersion: "v1", kind: "List", items: objects });
  const run = await plane.kubectl(["apply", "--server-side", "--force-conflicts", `--field-manager=${ADDONS_FIELD_MANAGER}`, "-f", "-"], list);
  if (run.code !== 0) throw new Error(`kubectl apply of ${objects.length} add-on objects failed (exit ${run.code}): ${run.stderr.trim()}`);
}
