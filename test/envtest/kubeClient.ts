// A small HTTPS client for the Kubernetes API, used only by the test harness (fake nodes,
// the kubelet stand-in, tests). Independent of the product's KubeApi adapters on purpose:
// the harness must not share bugs with the code it tests.
import { Agent, request as httpsRequest, type RequestOptions } from "node:https";
import type { IncomingMessage } from "node:http";
import { parse as parseYaml } from "yaml";

export interface KubeConnection {
  readonly server: string; // https://127.0.0.1:port
  readonly caPem: string;
  /** Client certificate; or `token` instead. */
  readonly certPem?: string;
  readonly keyPem?: string;
  /** A bearer token (e.g. a ServiceAccount token) instead of the client certificate. */
  readonly token?: string;
}

/** A non-2xx answer of the API server. */
export class KubeError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly body: string,
  ) {
    let message = body;
    try {
      const parsed = JSON.parse(body) as { message?: string };
      if (typeof parsed.message === "string") message = parsed.message;
    } catch {
      // not JSON
    }
    super(`${method} ${path}: ${status} ${message}`);
    this.name = "KubeError";
  }
  get reason(): string | undefined {
    try {
      return (JSON.parse(this.body) as { reason?: string }).reason;
    } catch {
      return undefined;
    }
  }
}

export const isNotFound = (e: unknown): boolean => e instanceof KubeError && e.status === 404;
export const isConflict = (e: unknown): boolean => e instanceof KubeError && e.status === 409;
export const isAlreadyExists = (e: unknown): boolean =>
  e instanceof KubeError && e.status === 409 && e.reason === "AlreadyExists";

export type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOpts {
  readonly body?: unknown;
  readonly contentType?: string;
  readonly query?: Query;
  readonly timeoutMs?: number;
  readonly accept?: string;
}

export type PatchType = "merge" | "strategic" | "json" | "apply";
const PATCH_CONTENT_TYPE: Record<PatchType, string> = {
  merge: "application/merge-patch+json",
  strategic: "application/strategic-merge-patch+json",
  json: "application/json-patch+json",
  apply: "application/apply-patch+yaml",
};

export interface WatchEvent<T = KubeObject> {
  readonly type: "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK" | "ERROR";
  readonly object: T;
}

/** Loosely typed Kubernetes object; tests narrow what they need. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name?: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: Array<Record<string, unknown>>;
    finalizers?: string[];
    deletionTimestamp?: string;
    generateName?: string;
    [k: string]: unknown;
  };
  spec?: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  status?: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  [k: string]: unknown;
}

export interface KubeList<T = KubeObject> {
  readonly items: T[];
  readonly metadata: { resourceVersion?: string; continue?: string };
}

function withQuery(path: string, query: Query | undefined): string {
  if (query === undefined) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const qs = params.toString();
  return qs === "" ? path : `${path}${path.includes("?") ? "&" : "?"}${qs}`;
}

export class KubeClient {
  private readonly agent: Agent;
  private readonly url: URL;

  constructor(readonly connection: KubeConnection) {
    this.url = new URL(connection.server);
    this.agent = new Agent({
      ca: connection.caPem,
      cert: connection.certPem,
      key: connection.keyPem,
      keepAlive: true,
      maxSockets: 32,
    });
  }

  /** From a kubeconfig with embedded (`-data`) credentials, using its current context. */
  static fromKubeconfigYaml(text: string): KubeClient {
    const cfg = parseYaml(text) as {
      "current-context"?: string;
      contexts: Array<{ name: string; context: { cluster: string; user: string } }>;
      clusters: Array<{ name: string; cluster: { server: string; "certificate-authority-data": string } }>;
      users: Array<{ name: string; user: { "client-certificate-data": string; "client-key-data": string } }>;
    };
    const ctx = cfg.contexts.find((c) => c.name === cfg["current-context"]) ?? cfg.contexts[0];
    if (ctx === undefined) throw new Error("kubeconfig has no context");
    const cluster = cfg.clusters.find((c) => c.name === ctx.context.cluster);
    const user = cfg.users.find((u) => u.name === ctx.context.user);
    if (cluster === undefined || user === undefined) throw new Error("kubeconfig context points nowhere");
    const b64 = (s: string): string => Buffer.from(s, "base64").toString("utf8");
    return new KubeClient({
      server: cluster.cluster.server,
      caPem: b64(cluster.cluster["certificate-authority-data"]),
      certPem: b64(user.user["client-certificate-data"]),
      keyPem: b64(user.user["client-key-data"]),
    });
  }

  private open(method: string, path: string, opts: RequestOpts): Promise<{ res: IncomingMessage; abort: () => void }> {
    const full = withQuery(path, opts.query);
    let payload: string | undefined;
    if (opts.body !== undefined) payload = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
    const headers: Record<string, string> = { accept: opts.accept ?? "application/json" };
    if (this.connection.token !== undefined) headers["authorization"] = `Bearer ${this.connection.token}`;
    if (payload !== undefined) {
      headers["content-type"] = opts.contentType ?? "application/json";
      headers["content-length"] = String(Buffer.byteLength(payload));
    }
    const reqOpts: RequestOptions = {
      method,
      host: this.url.hostname,
      port: this.url.port,
      path: full,
      headers,
      agent: this.agent,
    };
    return new Promise((resolveRes, reject) => {
      const req = httpsRequest(reqOpts, (res) => resolveRes({ res, abort: () => req.destroy() }));
      req.on("error", reject);
      if (opts.timeoutMs !== undefined) {
        req.setTimeout(opts.timeoutMs, () => req.destroy(new Error(`${method} ${full}: timeout after ${opts.timeoutMs} ms`)));
      }
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  /** Any request; resolves with status and body text whatever the status. */
  async raw(method: string, path: string, opts: RequestOpts = {}): Promise<{ status: number; text: string }> {
    const { res } = await this.open(method, path, { timeoutMs: 60_000, ...opts });
    const chunks: Buffer[] = [];
    for await (const chunk of res) chunks.push(chunk as Buffer);
    return { status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") };
  }

  /** JSON request; throws KubeError on a non-2xx status. */
  async request<T = KubeObject>(method: string, path: string, opts: RequestOpts = {}): Promise<T> {
    const { status, text } = await this.raw(method, path, opts);
    if (status < 200 || status >= 300) throw new KubeError(method, withQuery(path, opts.query), status, text);
    return (text === "" ? undefined : JSON.parse(text)) as T;
  }

  get<T = KubeObject>(path: string, query?: Query): Promise<T> {
    return this.request<T>("GET", path, { query });
  }
  list<T = KubeObject>(path: string, query?: Query): Promise<KubeList<T>> {
    return this.request<KubeList<T>>("GET", path, { query });
  }
  create<T = KubeObject>(collectionPath: string, body: unknown, query?: Query): Promise<T> {
    return this.request<T>("POST", collectionPath, { body, query });
  }
  replace<T = KubeObject>(path: string, body: unknown, query?: Query): Promise<T> {
    return this.request<T>("PUT", path, { body, query });
  }
  patch<T = KubeObject>(path: string, body: unknown, type: PatchType = "merge", query?: Query): Promise<T> {
    return this.request<T>("PATCH", path, { body, contentType: PATCH_CONTENT_TYPE[type], query });
  }
  delete<T = KubeObject>(path: string, body?: unknown, query?: Query): Promise<T> {
    return this.request<T>("DELETE", path, { body, query });
  }
  /** GET, or undefined on 404. */
  async getOrUndefined<T = KubeObject>(path: string): Promise<T | undefined> {
    try {
      return await this.get<T>(path);
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  }

  /**
   * Watch `path` (a collection) from `resourceVersion`. Calls `onEvent` for each event and
   * resolves when the server ends the stream or `signal` aborts. Rejects with KubeError for
   * a non-2xx answer (e.g. 410 Gone when the version is too old).
   */
  async watch<T = KubeObject>(
    path: string,
    query: Query,
    onEvent: (event: WatchEvent<T>) => void | Promise<void>,
    signal?: AbortSignal,
  ): Promise<void> {
    if (signal?.aborted === true) return;
    const { res, abort } = await this.open("GET", path, { query: { ...query, watch: true } });
    if ((res.statusCode ?? 0) >= 300) {
      const chunks: Buffer[] = [];
      for await (const c of res) chunks.push(c as Buffer);
      throw new KubeError("GET", withQuery(path, query), res.statusCode ?? 0, Buffer.concat(chunks).toString("utf8"));
    }
    const onAbort = (): void => abort();
    signal?.addEventListener("abort", onAbort, { once: true });
    let buf = "";
    try {
      res.setEncoding("utf8");
      for await (const chunk of res) {
        buf += chunk as string;
        let nl: number;
        while ((nl = buf.indexOf("\n")) >= 0) {
          const line = buf.slice(0, nl).trim();
          buf = buf.slice(nl + 1);
          if (line !== "") await onEvent(JSON.parse(line) as WatchEvent<T>);
        }
      }
    } catch (e) {
      if (!isAborted(signal)) throw e;
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Close idle keep-alive connections. */
  close(): void {
    this.agent.destroy();
  }
}

const isAborted = (signal: AbortSignal | undefined): boolean => signal?.aborted === true;

/** Poll `check` until it returns a value other than undefined/false, or time out. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  { timeoutMs = 60_000, intervalMs = 250 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (e) {
      lastError = e;
    }
    if (Date.now() > deadline) {
      const detail = lastError instanceof Error ? `; last error: ${lastError.message}` : "";
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${detail}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/**
 * Create a namespace and, if a controller manager runs, wait for its `default`
 * ServiceAccount (Pods are refused until it exists when ServiceAccount admission is on).
 */
export async function createNamespace(
  kube: KubeClient,
  name: string,
  { waitForServiceAccount = true, labels }: { waitForServiceAccount?: boolean; labels?: Record<string, string> } = {},
): Promise<KubeObject> {
  const ns = await kube.create("/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name, labels } });
  if (waitForServiceAccount) {
    await eventually(`ServiceAccount ${name}/default`, () =>
      kube.getOrUndefined(`/api/v1/namespaces/${name}/serviceaccounts/default`),
    );
  }
  return ns;
}
