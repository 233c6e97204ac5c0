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
import { KubeApi } from "../effects/shared/KubeApi.ts"
import { connectionOf, kubeConfigFromDefault, kubeConfigFromFile, kubeConfigInCluster } from "./http/kubeconfig.ts"
import type { ClusterConnection, KubeConfigError } from "./http/kubeconfig.ts"
import { lightConnection } from "./http/kubeconfigLight.ts"
import type { KubeconfigSource } from "./http/kubeconfigLight.ts"
import { makeKubeApi } from "./http/apiCalls.ts"
import { makeTransport } from "./http/request.ts"
import type { SocketStats } from "./http/request.ts"
import type { RequestStats } from "./http/stats.ts"
import { OPERATOR_VERSION } from "./version.ts"

export { KubeConfigError } from "./http/kubeconfig.ts"
export type { RequestStats } from "./http/stats.ts"
export type { SocketStats } from "./http/request.ts"

/** The operator's version (package.json's) as sent in the User-Agent header. */
export { OPERATOR_VERSION }

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
  /** Build the port and the stats handle for a connection; sockets close with the scope. */
  static readonly makeFromConnection = (
    connection: ClusterConnection,
    options: KubeApiHttpOptions = {}
  ): Effect.Effect<{ readonly api: KubeApi["Service"]; readonly http: KubeApiHttp["Service"] }, never, Scope.Scope> =>
    Effect.gen(function*() {
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

  /** Build the port and the stats handle from a loaded client-node KubeConfig. */
  static readonly make = (
    kc: KubeConfig,
    options: KubeApiHttpOptions = {}
  ): Effect.Effect<{ readonly api: KubeApi["Service"]; readonly http: KubeApiHttp["Service"] }, KubeConfigError, Scope.Scope> =>
    Effect.flatMap(connectionOf(kc), (connection) => KubeApiHttp.makeFromConnection(connection, options))

  static readonly layerFromConnection = (
    connection: ClusterConnection,
    options?: KubeApiHttpOptions
  ): Layer.Layer<KubeApi | KubeApiHttp> =>
    Layer.effectContext(Effect.map(KubeApiHttp.makeFromConnection(connection, options), ({ api, http }) =>
      Context.make(KubeApi, api).pipe(Context.add(KubeApiHttp, http))))

  static readonly layerFromKubeConfig = (
    kc: KubeConfig,
    options?: KubeApiHttpOptions
  ): Layer.Layer<KubeApi | KubeApiHttp, KubeConfigError> =>
    Layer.unwrap(Effect.map(connectionOf(kc), (connection) => KubeApiHttp.layerFromConnection(connection, options)))

  /**
   * The connection for a source: read directly where it can be (files with certificates
   * or tokens, the in-cluster service account), else through client-node's KubeConfig
   * (exec and auth-provider plugins, impersonation, merged files).
   */
  static readonly connect = (source: KubeconfigSource): Effect.Effect<ClusterConnection, KubeConfigError> =>
    Effect.flatMap(lightConnection(source), (light) => {
      if (light !== undefined) return Effect.succeed(light)
      const loaded = source === "default" ? kubeConfigFromDefault : source === "in-cluster" ? kubeConfigInCluster : kubeConfigFromFile(source.file)
      return Effect.flatMap(loaded, (kc) => connectionOf(kc, source === "default" || source === "in-cluster" ? source : source.file))
    })

  static readonly layerFromKubeconfigFile = (
    path: string,
    options?: KubeApiHttpOptions
  ): Layer.Layer<KubeApi | KubeApiHttp, KubeConfigError> =>
    Layer.unwrap(Effect.map(KubeApiHttp.connect({ file: path }), (connection) => KubeApiHttp.layerFromConnection(connection, options)))

  /** The service account of the Pod we run in. */
  static readonly layerInCluster: Layer.Layer<KubeApi | KubeApiHttp, KubeConfigError> = Layer.unwrap(
    Effect.map(KubeApiHttp.connect("in-cluster"), (connection) => KubeApiHttp.layerFromConnection(connection))
  )

  /** `$KUBECONFIG`, `~/.kube/config`, then the in-cluster service account. */
  static readonly layer: Layer.Layer<KubeApi | KubeApiHttp, KubeConfigError> = Layer.unwrap(
    Effect.map(KubeApiHttp.connect("default"), (connection) => KubeApiHttp.layerFromConnection(connection))
  )
}
