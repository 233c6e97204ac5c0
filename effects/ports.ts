/** The service interfaces ("ports") the programs depend on, in one place for library users. */
export * from "./KubeApi.ts"
export { VolumeFs, VolumeFsError } from "./VolumeFs.ts"
export type { EntryType, VolumeFsErrorReason } from "./VolumeFs.ts"
export * from "./EventRecorder.ts"
export * from "./ListenerView.ts"
export * from "./listenerSettings.ts"
