// gRPC clients for a CSI plugin's Unix socket, as the kubelet dials it (h2c, authority
// "localhost"). Loads the project's csi/csi.proto (package csi.v1).
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { join } from "node:path";
import { envtestSourceDir } from "./binDir.ts";

export const CSI_PROTO_PATH: string = join(envtestSourceDir, "..", "..", "csi", "csi.proto");

export const PROTO_LOADER_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
};

type ServiceCtor = grpc.ServiceClientConstructor;

export interface CsiPackage {
  readonly Identity: ServiceCtor;
  readonly Controller: ServiceCtor;
  readonly Node: ServiceCtor;
}

let cached: CsiPackage | undefined;

/** The csi.v1 package definition (service constructors carry `.service` for servers). */
export function loadCsi(protoPath: string = CSI_PROTO_PATH): CsiPackage {
  if (protoPath === CSI_PROTO_PATH && cached !== undefined) return cached;
  const def = protoLoader.loadSync(protoPath, PROTO_LOADER_OPTIONS);
  const root = grpc.loadPackageDefinition(def) as unknown as { csi: { v1: CsiPackage } };
  const pkg = root.csi.v1;
  if (protoPath === CSI_PROTO_PATH) cached = pkg;
  return pkg;
}

/** An error from a CSI call, with the gRPC status code and its name. */
export class CsiCallError extends Error {
  constructor(
    readonly method: string,
    readonly code: grpc.status,
    readonly details: string,
  ) {
    super(`rpc error: code = ${codeName(code)} desc = ${details}`);
    this.name = "CsiCallError";
  }
  get codeName(): string {
    return codeName(this.code);
  }
}

/** "Unavailable", "InvalidArgument", … as Go's codes.Code String() prints them. */
export function codeName(code: grpc.status): string {
  const upper = grpc.status[code] ?? `Code(${code})`;
  return upper
    .toLowerCase()
    .split("_")
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join("")
    .replace(/^Ok$/, "OK");
}

type Callback = (err: grpc.ServiceError | null, res: unknown) => void;
type Unary = (req: unknown, meta: grpc.Metadata, opts: grpc.CallOptions, cb: Callback) => void;

export interface CsiClient {
  /** Unary call `<Service>/<Method>` with a deadline; rejects with CsiCallError. */
  call<T = Record<string, unknown>>(service: "Identity" | "Controller" | "Node", method: string, request: object, timeoutMs?: number): Promise<T>;
  close(): void;
}

/** Connect to `socketPath` (absolute path of a Unix socket). Connection is lazy, like grpc.Dial. */
export function connectCsi(socketPath: string, protoPath?: string): CsiClient {
  const pkg = loadCsi(protoPath);
  const target = `unix://${socketPath}`;
  const options: grpc.ChannelOptions = { "grpc.default_authority": "localhost" };
  const creds = grpc.credentials.createInsecure();
  const clients = {
    Identity: new pkg.Identity(target, creds, options),
    Controller: new pkg.Controller(target, creds, options),
    Node: new pkg.Node(target, creds, options),
  };
  return {
    call: <T>(service: keyof typeof clients, method: string, request: object, timeoutMs = 120_000) =>
      new Promise<T>((resolveCall, reject) => {
        const client = clients[service] as unknown as Record<string, Unary | undefined>;
        const fn = client[method];
        if (typeof fn !== "function") {
          reject(new Error(`csi.v1.${service} has no method ${method} in ${protoPath ?? CSI_PROTO_PATH}`));
          return;
        }
        fn.call(client, request, new grpc.Metadata(), { deadline: Date.now() + timeoutMs }, (err, res) => {
          if (err !== null) reject(new CsiCallError(`${service}/${method}`, err.code, err.details));
          else resolveCall(res as T);
        });
      }),
    close: () => {
      for (const c of Object.values(clients)) c.close();
    },
  };
}
