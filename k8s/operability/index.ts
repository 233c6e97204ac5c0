/** Logging, metrics and probes shared by both roles. */
export * from "./logging.ts"
export * from "./probes.ts"
