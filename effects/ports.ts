/** The service interfaces ("ports") the programs depend on, in one place for library users. */
export * from "./shared/KubeApi.ts"
export { VolumeFs, VolumeFsError } from "./shared/VolumeFs.ts"
export type { EntryType, VolumeFsErrorReason } from "./shared/VolumeFs.ts"
export * from "./shared/EventRecorder.ts"
export * from "./controller/ListenerView.ts"
export * from "./shared/ListenerSettings.ts"
export { PublishedVolumes, PublishedRecord, decodePublishedRecord } from "./node/PublishedVolumes.ts"
