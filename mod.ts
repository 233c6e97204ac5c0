/**
 * The library API: everything a custom distribution needs to compose its own operator —
 * the domain model, the ports and programs, the adapters (real and in-memory), the
 * controller runtime, the CSI edge and the two role layers. Grouped in namespaces because
 * the Kubernetes vocabulary repeats across layers (an `ObjectMeta` schema in the domain,
 * an `ObjectMeta` wire type at the port).
 *
 *     import { Adapters, Roles } from "listener-operator"
 *     Layer.launch(Roles.controllerRoleLayer({...}).pipe(Layer.provide(Adapters.KubeApiMemory.layer())))
 */
export * as Constants from "./domain/constants.ts"
export * as Kinds from "./domain/kinds.ts"
export * as Decode from "./domain/decode.ts"
export * as ListenerSchemas from "./domain/listener.ts"
export * as ListenerClassSchemas from "./domain/listenerClass.ts"
export * as PodListenersSchemas from "./domain/podListeners.ts"
export * as Plan from "./domain/listenerPlan/index.ts"
export * as VolumeTree from "./domain/volumeTree.ts"
export * as AddressSyntax from "./domain/addressSyntax.ts"
export * as NodeLoss from "./domain/nodeLoss.ts"

export * as Ports from "./effects/ports.ts"
export * as Programs from "./effects/programs.ts"

export * as Adapters from "./adapters/index.ts"
export * as Runtime from "./k8s/runtime/index.ts"
export * as Crds from "./k8s/crds.ts"
export * as Csi from "./csi/index.ts"
export * as Roles from "./k8s/roles/index.ts"
export * as Operability from "./k8s/operability/index.ts"
