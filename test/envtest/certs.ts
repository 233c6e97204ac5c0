// Certificates for the test control plane, made with the openssl CLI (ECDSA P-256: fast to
// generate, accepted by every Kubernetes component).
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

async function openssl(args: string[], cwd: string): Promise<void> {
  try {
    await run("openssl", args, { cwd });
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new Error(`openssl ${args.join(" ")} failed: ${err.stderr ?? err.message}`);
  }
}

const EC = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];

export interface KeyPair {
  readonly certPath: string;
  readonly keyPath: string;
  readonly certPem: string;
  readonly keyPem: string;
}

async function load(dir: string, name: string): Promise<KeyPair> {
  const certPath = join(dir, `${name}.crt`);
  const keyPath = join(dir, `${name}.key`);
  const [certPem, keyPem] = await Promise.all([readFile(certPath, "utf8"), readFile(keyPath, "utf8")]);
  return { certPath, keyPath, certPem, keyPem };
}

/** A self-signed CA `<name>.crt/.key` in `dir`. */
export async function makeCa(dir: string, name: string, cn: string): Promise<KeyPair> {
  await openssl(
    [
      "req", "-x509", "-new", ...EC, "-keyout", `${name}.key`, "-out", `${name}.crt`, "-days", "3650",
      "-subj", `/CN=${cn}`,
      "-addext", "basicConstraints=critical,CA:TRUE",
      "-addext", "keyUsage=critical,keyCertSign,cRLSign,digitalSignature",
    ],
    dir,
  );
  return load(dir, name);
}

export interface LeafOptions {
  readonly cn: string;
  readonly organizations?: readonly string[];
  readonly usage: "server" | "client";
  readonly dnsNames?: readonly string[];
  readonly ips?: readonly string[];
}

/** A leaf `<name>.crt/.key` in `dir`, signed by `ca`. */
export async function makeLeaf(dir: string, name: string, ca: KeyPair, opts: LeafOptions): Promise<KeyPair> {
  const subj = `/CN=${opts.cn}` + (opts.organizations ?? []).map((o) => `/O=${o}`).join("");
  const sans = [...(opts.dnsNames ?? []).map((d) => `DNS:${d}`), ...(opts.ips ?? []).map((i) => `IP:${i}`)];
  const ext = [
    "basicConstraints=CA:FALSE",
    "keyUsage=critical,digitalSignature",
    `extendedKeyUsage=${opts.usage === "server" ? "serverAuth" : "clientAuth"}`,
    ...(sans.length > 0 ? [`subjectAltName=${sans.join(",")}`] : []),
  ].join("\n");
  await writeFile(join(dir, `${name}.ext`), ext + "\n");
  await openssl(["req", "-new", ...EC, "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", subj], dir);
  await openssl(
    [
      "x509", "-req", "-in", `${name}.csr`, "-CA", ca.certPath, "-CAkey", ca.keyPath,
      "-set_serial", `0x${randomBytes(12).toString("hex")}`,
      "-out", `${name}.crt`, "-days", "3650", "-extfile", `${name}.ext`,
    ],
    dir,
  );
  return load(dir, name);
}

/** Service-account signing key pair: `<name>.key` (private) and `<name>.pub` (public). */
export async function makeSigningKey(dir: string, name: string): Promise<{ keyPath: string; pubPath: string }> {
  await openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", `${name}.key`], dir);
  await openssl(["pkey", "-in", `${name}.key`, "-pubout", "-out", `${name}.pub`], dir);
  return { keyPath: join(dir, `${name}.key`), pubPath: join(dir, `${name}.pub`) };
}

export interface PlaneCerts {
  readonly serverCa: KeyPair;
  readonly serving: KeyPair;
  readonly clientCa: KeyPair;
  readonly admin: KeyPair;
  readonly controllerManager: KeyPair;
  readonly scheduler: KeyPair;
  readonly serviceAccount: { keyPath: string; pubPath: string };
}

/** Everything one control plane needs, in `dir`; `extraIps` join the serving certificate's SANs. */
export async function makePlaneCerts(dir: string, extraIps: readonly string[] = []): Promise<PlaneCerts> {
  const [serverCa, clientCa, serviceAccount] = await Promise.all([
    makeCa(dir, "server-ca", "envtest-server-ca"),
    makeCa(dir, "client-ca", "envtest-client-ca"),
    makeSigningKey(dir, "sa"),
  ]);
  const [serving, admin, controllerManager, scheduler] = await Promise.all([
    makeLeaf(dir, "apiserver", serverCa, {
      cn: "kube-apiserver",
      usage: "server",
      dnsNames: ["localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local"],
      ips: ["127.0.0.1", "10.0.0.1", ...extraIps],
    }),
    makeLeaf(dir, "admin", clientCa, { cn: "admin", organizations: ["system:masters"], usage: "client" }),
    makeLeaf(dir, "kube-controller-manager", clientCa, { cn: "system:kube-controller-manager", usage: "client" }),
    makeLeaf(dir, "kube-scheduler", clientCa, { cn: "system:kube-scheduler", usage: "client" }),
  ]);
  return { serverCa, serving, clientCa, admin, controllerManager, scheduler, serviceAccount };
}
