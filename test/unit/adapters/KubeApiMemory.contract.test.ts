/**
 * The KubeApi contract cases against the in-memory adapter (the same cases run against
 * the real API server in test/integration).
 */
import { Effect, Exit, Scope } from "effect"
import { KubeApiMemory } from "../../../adapters/KubeApiMemory.ts"
import { kubeApiContractCases } from "./kubeApiContractCases.ts"

kubeApiContractCases("memory", async () => {
  const scope = await Effect.runPromise(Scope.make())
  const cluster = await Effect.runPromise(Scope.provide(scope)(KubeApiMemory.make()))
  return {
    api: cluster.api,
    cleanup: () => Effect.runPromise(Scope.close(scope, Exit.void)),
    compact: () => Promise.resolve(cluster.compact())
  }
}, { eventuallyTimeoutMs: 2_000, pollIntervalMs: 5, watchTimeoutMs: 2_000 })
