/**
 * The real Kubernetes API adapter: implements the `KubeApi` port over HTTPS against an API
 * server found through a kubeconfig (file, default chain, or the in-cluster service account).
 *
 * Lean by design (the benchmark counts requests at the API server): one HTTP request per
 * port call, no discovery, no retries (callers decide), no paging. Writes carry
 * `fieldManager`; apply is `application/apply-patch+yaml` with JSON text. Objects go out as
 * given (the server judges them: apply without apiVersion/kind is its BadRequest); objects
 * coming back always carry apiVersion/kind (lists omit them for built-in kinds).
 *
 * Also provides `KubeApiHttp`, a handle on the client-side request counts and sockets.
 */
import type { KubeConfig } from "@kubernetes/client-node"
import { Context, Effect, Layer } from "effect"
import type { Scope } from "effect"
import { KubeApi } from "../effects/KubeApi.ts"
import { connectionOf, kubeConfigFromDefault, kubeConfigFromFile, kubeConfigInCluster } from "./http/kubeconfig.ts"
import type { KubeConfigError } from "./http/kubeconfig.ts"
import { makeKubeApi } from "./http/kubeApi.ts"
import { makeTransport } from "./http/request.ts"
import type { SocketStats } from "./http/request.ts"
import type { RequestStats } from "./http/stats.ts"

import packageJson from "../package.json" with { type: "json" }

export { KubeConfigError } from "./http/kubeconfig.ts"
export type { RequestStats } from "./http/stats.ts"
export type { SocketStats } from "./http/request.ts"

/** The operator's version (package.json's) as sent in the User-Agent header. */
export const OPERATOR_VERSION: string = packageJson.version

export interface KubeApiHttpOptions {
  /** Default `listener-operator/<version>`. */
  readonly userAgent?: string | undefined
  /** Concurrent non-watch connections (default 16); watches have their own sockets. */
  readonly maxSockets?: number | undefined
  /** A non-watch request with no answer for this long fails with Timeout (default 60 s). */
  readonly requestTimeoutMillis?: number | undefined
}

/** Client-side view of the adapter's traffic, for tests and benchmarks. */
export class KubeApiHttp extends Context.Service<KubeApiHttp, {
  /** Requests sent since start (or the last reset), failed ones included. */
  readonly stats: Effect.Effect<RequestStats>
  readonly resetStats: Effect.Effect<void>
  /** Open sockets of both pools; after all work ends only idle keep-alive sockets remain. */
  readonly sockets: Effect.Effect<SocketStats>
}>()("listener-operator/adapters/KubeApiHttp") {
  /** Build the port and the stats handle from a loaded KubeConfig; sockets close with the scope. */
  static readonly make = (
    kc: KubeConfig,
    options: KubeApiHttpOptions = {}
  ): Effect.Effect<{ readonly api: KubeApi["Service"]; readonly http: KubeApiHttp["Service"] }, KubeConfigError, Scope.Scope> =>
    Effect.gen(function*() {
      const connection = yield* connectionOf(kc)
      const transport = yield* makeTransport(connection, {
        userAgent: options.userAgent ?? `listener-operator/${OPERATOR_VERSION}`,
        maxSockets: options.maxSockets ?? 16,
        requestTimeoutMillis: options.requestTimeoutMillis ?? 60_000
      })
      return {
        api: makeKubeApi(transport),
        http: KubeApiHttp.of({
          stats: Effect.sync(transport.stats),
          resetStats: Effect.sync(transport.resetStats),
          sockets: Effect.sync(transport.sockets)
        })
      }
    })

  static readonly layerFromKubeConfig = (
    kc: KubeConfig,
    options?: KubeApiHttpOptions
  ): Layer.Layer<KubeApi | KubeApiHttp, KubeConfigError> =>
    Layer.effectContext(Effect.map(KubeApiHttp.make(kc, options), ({ api, http }) =>
      Context.make(KubeApi, api).pipe(Context.add(KubeApiHttp, http))))

  static readonly layerFromKubeconfigFile = (
    path: string,
    options?: KubeApiHttpOptions
  ): Layer.Layer<KubeApi | KubeApiHttp, KubeConfigError> =>
    Layer.unwrap(Effect.map(kubeConfigFromFile(path), (kc) => KubeApiHttp.layerFromKubeConfig(kc, options)))

  /** The service account of the Pod we run in. */
  static readonly layerInCluster: Layer.Layer<KubeApi | KubeApiHttp, KubeConfigError> = Layer.unwrap(
    Effect.map(kubeConfigInCluster, (kc) => KubeApiHttp.layerFromKubeConfig(kc))
  )

  /** `$KUBECONFIG`, `~/.kube/config`, then the in-cluster service account. */
  static readonly layer: Layer.Layer<KubeApi | KubeApiHttp, KubeConfigError> = Layer.unwrap(
    Effect.map(kubeConfigFromDefault, (kc) => KubeApiHttp.layerFromKubeConfig(kc))
  )
}
