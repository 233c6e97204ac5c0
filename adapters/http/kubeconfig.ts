/**
 * Where the API server is and how to authenticate: a kubeconfig (file, default chain or
 * the in-cluster service account) read with `@kubernetes/client-node`'s `KubeConfig`,
 * turned into TLS material for our own agent plus request headers.
 *
 * Credentials that can rotate (token files of the in-cluster service account, exec and
 * auth-provider plugins) are re-read at most every `AUTH_REFRESH_MILLIS`; the plugins
 * keep their own caches on top.
 */
import type { KubeConfig } from "@kubernetes/client-node"
import { Data, Effect } from "effect"
import type * as https from "node:https"

export class KubeConfigError extends Data.TaggedError("KubeConfigError")<{
  /** Which configuration was being read: a file path, "default" or "in-cluster". */
  readonly source: string
  readonly message: string
  readonly cause?: unknown
}> {}

/** TLS settings for the agent (the client certificate, the CA to trust, SNI). */
export interface TlsMaterial {
  readonly ca?: Buffer | string | undefined
  readonly cert?: Buffer | string | undefined
  readonly key?: Buffer | string | undefined
  readonly pfx?: Buffer | string | undefined
  readonly passphrase?: string | undefined
  readonly rejectUnauthorized?: boolean | undefined
  readonly servername?: string | undefined
}

export interface ClusterConnection {
  /** The API server's base URL (a path prefix, as some proxies use, is kept). */
  readonly server: URL
  readonly tls: TlsMaterial
  /** Authorization (and impersonation) headers for the next request. */
  readonly authHeaders: () => Promise<Readonly<Record<string, string>>>
}

const AUTH_REFRESH_MILLIS = 30_000

export const messageOf = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause))

/**
 * Load a kubeconfig with client-node; `load` is one of KubeConfig's loaders (they throw on
 * bad input). client-node is imported here, on demand: most configurations never need it
 * (kubeconfigLight.ts).
 */
export const loadKubeConfig = (source: string, load: (kc: KubeConfig) => void): Effect.Effect<KubeConfig, KubeConfigError> =>
  Effect.tryPromise({
    try: async () => {
      const { KubeConfig } = await import("./clientNodeKubeConfig.ts")
      const kc = new KubeConfig()
      load(kc)
      return kc
    },
    catch: (cause) => new KubeConfigError({ source, message: `cannot load kubeconfig (${source}): ${messageOf(cause)}`, cause })
  })

export const kubeConfigFromFile = (path: string) => loadKubeConfig(path, (kc) => kc.loadFromFile(path))
/** `$KUBECONFIG`, then `~/.kube/config`, then the in-cluster service account. */
export const kubeConfigFromDefault = loadKubeConfig("default", (kc) => kc.loadFromDefault())
export const kubeConfigInCluster = loadKubeConfig("in-cluster", (kc) => kc.loadFromCluster())

const headersOf = (options: https.RequestOptions): Record<string, string> => {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : String(value)
  }
  if (typeof options.auth === "string" && options.auth !== "") {
    headers["Authorization"] = `Basic ${Buffer.from(options.auth).toString("base64")}`
  }
  return headers
}

/**
 * Resolve the current context's cluster and user. Reads certificate files once (fails here
 * rather than on the first request when one is missing).
 */
export const connectionOf = (kc: KubeConfig, source = "kubeconfig"): Effect.Effect<ClusterConnection, KubeConfigError> =>
  Effect.gen(function*() {
    const fail = (message: string, cause?: unknown) =>
      Effect.fail(new KubeConfigError({ source, message: `${source}: ${message}`, cause }))
    const cluster = kc.getCurrentCluster()
    if (cluster === null) return yield* fail(`context "${kc.getCurrentContext()}" names no known cluster`)
    if (cluster.proxyUrl !== undefined && cluster.proxyUrl !== "") {
      return yield* fail(`cluster "${cluster.name}": proxy-url is not supported`)
    }
    const server = yield* Effect.try({
      try: () => new URL(cluster.server),
      catch: (cause) => new KubeConfigError({ source, message: `${source}: cluster "${cluster.name}" has an invalid server URL "${cluster.server}"`, cause })
    })
    if (server.protocol !== "https:" && server.protocol !== "http:") {
      return yield* fail(`cluster "${cluster.name}": unsupported scheme ${server.protocol}`)
    }
    const options: https.RequestOptions = {}
    yield* Effect.tryPromise({
      try: () => kc.applyToHTTPSOptions(options),
      catch: (cause) => new KubeConfigError({ source, message: `${source}: cannot read credentials: ${messageOf(cause)}`, cause })
    })
    const tls: TlsMaterial = {
      ca: options.ca as Buffer | string | undefined,
      cert: options.cert as Buffer | string | undefined,
      key: options.key as Buffer | string | undefined,
      pfx: options.pfx as Buffer | string | undefined,
      passphrase: options.passphrase,
      rejectUnauthorized: options.rejectUnauthorized,
      servername: options.servername ?? undefined
    }
    const user = kc.getCurrentUser()
    const rotating = user !== null && (user.exec !== undefined || user.authProvider !== undefined)
    let cached = headersOf(options)
    let cachedAt = performance.now()
    const authHeaders = async (): Promise<Readonly<Record<string, string>>> => {
      if (!rotating || performance.now() - cachedAt < AUTH_REFRESH_MILLIS) return cached
      const fresh: https.RequestOptions = {}
      await kc.applyToHTTPSOptions(fresh)
      cached = headersOf(fresh)
      cachedAt = performance.now()
      return cached
    }
    return { server, tls, authHeaders }
  })
