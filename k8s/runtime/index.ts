/**
 * The controller runtime's public API (k8s/ edge): watcher → store → work queue →
 * reconcile, plus leader election. Each module's header documents its guarantees.
 */
export { Action } from "../../effects/shared/action.ts"
export type { AwaitChange, RequeueAfter, RetryWithBackoff } from "../../effects/shared/action.ts"
export { backoffMillis, nextBackoff } from "./backoff.ts"
export type { BackoffPolicy } from "./backoff.ts"
export { controllerOwnerOfKind, controllerOwnerRefOf, makeController, runController, sameName } from "./controller.ts"
export type { Caches, CacheSpec, Controller, ControllerSpec, IndexNames, Mapper, PrimarySpec, RunOptions, WatchSpec } from "./controller.ts"
export { runWhileLeading } from "./leaderElection.ts"
export type { LeaderElectionConfig } from "./leaderElection.ts"
export * as RuntimeMetrics from "./metrics.ts"
export { keyOf, objectKeyOf, refOf, refOfKey } from "./objectRef.ts"
export { isAtLeastVersion, isNewerVersion } from "./resourceVersion.ts"
export { Indexers, makeStore } from "./store.ts"
export type { Change, Indexer, Store, StoreOptions, StoreWriter } from "./store.ts"
export { defaultWatcherBackoff, initialWatcherState, pagedWatcherState, runWatcher, step as watcherStep, watcher, WatcherEvent } from "./watcher.ts"
export type { Applied, Deleted, Relisted, RelistStarted, Restarted, WatcherConfig, WatcherInput, WatcherState } from "./watcher.ts"
export { defaultReconcileBackoff, makeWorkQueue } from "./workQueue.ts"
export type { WorkQueue, WorkQueueOptions } from "./workQueue.ts"
