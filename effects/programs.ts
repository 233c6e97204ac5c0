/** The programs: reconcile a Listener, provision / publish / unpublish a listener volume, presets. */
export * from "./reconcileListener.ts"
export * from "./listenerErrors.ts"
export * from "./presets.ts"
export * from "./provisionVolume.ts"
export * from "./publishVolume.ts"
export * from "./unpublishVolume.ts"
export * from "./volumeErrors.ts"
