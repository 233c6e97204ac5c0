/**
 * client-node's KubeConfig alone, for the on-demand import of kubeconfig.ts. A dynamic
 * `import("@kubernetes/client-node")` keeps the whole module namespace, so the bundle
 * carried its generated API model (~16 MB); a static named re-export lets esbuild keep
 * only what KubeConfig needs (~1.4 MB), which keeps the operator image small.
 */
export { KubeConfig } from "@kubernetes/client-node"
