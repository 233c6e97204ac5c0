/** Implementations of the ports: real Kubernetes and filesystem, and in-memory twins for tests. */
export * from "./KubeApiHttp.ts"
export * from "./KubeApiMemory.ts"
export * from "./VolumeFsNode.ts"
export * from "./VolumeFsMemory.ts"
export * from "./EventRecorderKube.ts"
export * from "./PublishedVolumesFiles.ts"
