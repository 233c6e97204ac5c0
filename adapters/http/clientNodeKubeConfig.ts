/**
 * client-node's KubeConfig alone, for the on-demand import of kubeconfig.ts. The package's
 * index re-exports its whole API (the generated model, watch, exec, cp, metrics …) and
 * esbuild keeps the top-level code of every module it reaches, so importing KubeConfig's
 * own module keeps the image's bundle to what loading a kubeconfig needs (docs/images.md).
 */
export { KubeConfig } from "@kubernetes/client-node/dist/config.js"
