/**
 * The node plugin's credential as the kubelet hands it to the plugin's Pod, for tests that
 * write as a (stolen) node credential against the chart's RBAC and admission policies.
 */
import assert from "node:assert/strict"
import type { KubeClient, KubeObject } from "./kubeClient.ts"

/** A TokenRequest for ServiceAccount `namespace/serviceAccount`, bound to `pod` when given (what the kubelet asks for). */
export const serviceAccountToken = async (admin: KubeClient, namespace: string, serviceAccount: string, pod?: KubeObject): Promise<string> => {
  const review = await admin.create<{ status: { token: string } }>(`/api/v1/namespaces/${namespace}/serviceaccounts/${serviceAccount}/token`, {
    apiVersion: "authentication.k8s.io/v1",
    kind: "TokenRequest",
    spec: {
      expirationSeconds: 3600,
      ...(pod === undefined ? {} : { boundObjectRef: { apiVersion: "v1", kind: "Pod", name: pod.metadata.name, uid: pod.metadata.uid } })
    }
  })
  return review.status.token
}

/** Resolves with the refusal message, or fails the test when the write went through. */
export const refused = async (what: string, write: () => Promise<unknown>): Promise<string> => {
  try {
    await write()
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    assert.match(message, /: 403 /u, `${what}: refused as Forbidden, not for another reason: ${message}`)
    return message
  }
  assert.fail(`${what}: the write was admitted`)
}
