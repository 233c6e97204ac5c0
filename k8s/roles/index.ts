/** The two roles of the operator as layers, plus the Listener and node-loss controllers on their own and together under one leader election. */
export * from "./controllerRole.ts"
export * from "./nodeRole.ts"
export * from "./kubeReadiness.ts"
export { ListenerController, makeListenerController, runListenerController } from "../listenerController.ts"
export type { ListenerControllerOptions } from "../listenerController.ts"
export { makeNodeLossController } from "../nodeLossController.ts"
export { runReconcilers } from "../reconcilers.ts"
export type { ReconcilersOptions } from "../reconcilers.ts"
