/**
 * Reading a kubeconfig without `@kubernetes/client-node`: its `KubeConfig` pulls in the
 * whole generated API model (~770 modules) and undici, which cost each role tens of MB of
 * memory and a quarter of a second at start (docs/performance.md). This covers what a
 * deployed operator meets — the in-cluster service account, and kubeconfig files with
 * certificates, tokens or token files — and says `undefined` for everything else (exec
 * and auth-provider plugins, impersonation, basic auth, several files in $KUBECONFIG),
 * which `kubeconfig.ts` then hands to client-node, loaded only in that case.
 */
import { Effect } from "effect"
import { existsSync, readFileSync } from "node:fs"
import { homedir } from "node:os"
import { delimiter, dirname, isAbsolute, join } from "node:path"
import { KubeConfigError, messageOf } from "./kubeconfig.ts"
import type { ClusterConnection, TlsMaterial } from "./kubeconfig.ts"

const SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount"
/** Token files (the service account's is rotated by the kubelet) are read again after this. */
const TOKEN_REFRESH_MILLIS = 30_000

type Entries = Record<string, unknown>

/** Which kubeconfig to read: a file, the default chain, or the in-cluster service account. */
export type KubeconfigSource = { readonly file: string } | "default" | "in-cluster"

/** A token (from a file re-read every TOKEN_REFRESH_MILLIS, or fixed) as Authorization headers. */
const bearer = (token: string | undefined, tokenFile: string | undefined): ClusterConnection["authHeaders"] => {
  if (tokenFile === undefined) {
    const headers: Readonly<Record<string, string>> = token === undefined ? {} : { Authorization: `Bearer ${token}` }
    return () => Promise.resolve(headers)
  }
  let cached: Record<string, string> = { Authorization: `Bearer ${readFileSync(tokenFile, "utf8").trim()}` }
  let readAt = performance.now()
  return () => {
    if (performance.now() - readAt >= TOKEN_REFRESH_MILLIS) {
      try {
        cached = { Authorization: `Bearer ${readFileSync(tokenFile, "utf8").trim()}` }
        readAt = performance.now()
      } catch {
        // Keep the last token: a rotation in progress must not fail requests.
      }
    }
    return Promise.resolve(cached)
  }
}

const inCluster = (): ClusterConnection | undefined => {
  const host = process.env["KUBERNETES_SERVICE_HOST"]
  const port = process.env["KUBERNETES_SERVICE_PORT"]
  const tokenFile = join(SERVICE_ACCOUNT_DIR, "token")
  if (host === undefined || port === undefined || !existsSync(tokenFile)) return undefined
  const server = new URL(`https://${host.includes(":") ? `[${host}]` : host}:${port}`)
  return { server, tls: { ca: readFileSync(join(SERVICE_ACCOUNT_DIR, "ca.crt")) }, authHeaders: bearer(undefined, tokenFile) }
}

const byName = (list: unknown, key: string): Map<string, Entries> => {
  const out = new Map<string, Entries>()
  if (Array.isArray(list)) {
    for (const item of list as Array<Entries>) {
      if (typeof item?.name === "string" && typeof item[key] === "object" && item[key] !== null) out.set(item.name, item[key] as Entries)
    }
  }
  return out
}

const str = (entries: Entries | undefined, key: string): string | undefined =>
  typeof entries?.[key] === "string" && entries[key] !== "" ? (entries[key] as string) : undefined

/**
 * A kubeconfig file's content. JSON (which kubeconfigs may be, and which the in-cluster
 * path never needs) is read without the YAML parser, loaded only for YAML files.
 */
const readDocument = async (path: string): Promise<Entries | null> => {
  const text = readFileSync(path, "utf8")
  // `.default`: what a CommonJS package is when imported, under Node, Deno and in the bundle.
  return (text.trimStart().startsWith("{") ? JSON.parse(text) : (await import("yaml")).default.parse(text)) as Entries | null
}

/** A kubeconfig file's current context, or undefined when it needs client-node. */
const fromFile = (path: string, document: Entries | null): ClusterConnection | undefined => {
  const base = dirname(path)
  const file = (p: string): string => (isAbsolute(p) ? p : join(base, p))
  const contextName = str(document ?? {}, "current-context")
  const context = contextName === undefined ? undefined : byName(document?.["contexts"], "context").get(contextName)
  if (context === undefined) throw new Error(`${path}: current-context ${contextName ?? "(none)"} is not defined`)
  const clusterName = str(context, "cluster")
  const cluster = clusterName === undefined ? undefined : byName(document?.["clusters"], "cluster").get(clusterName)
  if (cluster === undefined) throw new Error(`${path}: context "${contextName}" names no known cluster`)
  const userName = str(context, "user")
  const user = userName === undefined ? {} : byName(document?.["users"], "user").get(userName) ?? {}
  // Plugins and other authentication kinds: client-node knows them.
  const delegated = ["exec", "auth-provider", "as", "as-groups", "as-uid", "username", "password"].some((key) => user[key] !== undefined)
  if (delegated || str(cluster, "proxy-url") !== undefined) return undefined
  const dataOrFile = (entries: Entries, key: string): Buffer | undefined => {
    const data = str(entries, `${key}-data`)
    if (data !== undefined) return Buffer.from(data, "base64")
    const path = str(entries, key)
    return path === undefined ? undefined : readFileSync(file(path))
  }
  const tls: TlsMaterial = {
    ca: dataOrFile(cluster, "certificate-authority"),
    cert: dataOrFile(user, "client-certificate"),
    key: dataOrFile(user, "client-key"),
    rejectUnauthorized: cluster["insecure-skip-tls-verify"] === true ? false : undefined,
    servername: str(cluster, "tls-server-name")
  }
  const server = str(cluster, "server")
  if (server === undefined) throw new Error(`${path}: cluster "${clusterName}" has no server`)
  const tokenFile = str(user, "tokenFile")
  return { server: new URL(server), tls, authHeaders: bearer(str(user, "token"), tokenFile === undefined ? undefined : file(tokenFile)) }
}

/** The file the default chain reads: $KUBECONFIG (one file), else ~/.kube/config; "in-cluster" when neither; undefined: ask client-node. */
const defaultSource = (): { readonly file: string } | "in-cluster" | undefined => {
  const env = process.env["KUBECONFIG"]
  if (env !== undefined && env !== "") {
    const paths = env.split(delimiter).filter((p) => p !== "")
    return paths.length === 1 ? { file: paths[0]! } : undefined
  }
  const home = join(homedir(), ".kube", "config")
  return existsSync(home) ? { file: home } : "in-cluster"
}

/**
 * The connection for `source`, or undefined when only client-node can make it (then it is
 * loaded on demand). Failures name the file (or "in-cluster") and the cause.
 */
export const lightConnection = (source: KubeconfigSource): Effect.Effect<ClusterConnection | undefined, KubeConfigError> =>
  Effect.tryPromise({
    try: async () => {
      const resolved = source === "default" ? defaultSource() : source
      if (resolved === undefined) return undefined
      if (resolved === "in-cluster") return inCluster()
      return fromFile(resolved.file, await readDocument(resolved.file))
    },
    catch: (cause) => {
      const name = source === "default" ? "default" : source === "in-cluster" ? "in-cluster" : source.file
      return new KubeConfigError({ source: name, message: `cannot load kubeconfig (${name}): ${messageOf(cause)}`, cause })
    }
  })

