// A real Kubernetes control plane on loopback for tests and the demo: etcd + kube-apiserver,
// optionally kube-controller-manager and kube-scheduler, built by test/envtest/build.sh.
// See docs/envtest.md for the flags and why.
import { spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { request as httpsRequest } from "node:https";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { binDir as findBinDir, binary } from "./binDir.ts";
import { makeLeaf, makePlaneCerts, type KeyPair } from "./certs.ts";
import { KubeClient } from "./kubeClient.ts";
import { freePorts } from "./ports.ts";
import { onEmergency, spawnTracked, type TrackedProcess } from "./processes.ts";

export { leftoverProcesses, leftoverProcessDetails, killLeftovers } from "./processes.ts";
export { binDir } from "./binDir.ts";

export interface ControlPlaneOptions {
  /** Also run kube-controller-manager (GC, PV binder, protections, ephemeral volumes, workloads, endpoints, SAs, namespaces). */
  controllerManager?: boolean;
  /** Also run kube-scheduler. */
  scheduler?: boolean;
  /** Receives harness messages and every output line of the components (prefixed `[name]`). */
  log?: (line: string) => void;
  /**
   * Serve the API on this address instead of loopback, for real nodes in network
   * namespaces (test/realnodes): kube-apiserver binds and advertises it, the `kubernetes`
   * Service's endpoint points at it (lease reconciler), and it reaches kubelets at their
   * InternalIP with the admin client certificate (logs, exec). Default: 127.0.0.1, no
   * endpoint reconciler, no kubelet client.
   */
  address?: string;
  /** kube-controller-manager controllers run in addition to CONTROLLERS. */
  extraControllers?: readonly string[];
  /** More kube-controller-manager flags, e.g. `--enable-hostpath-provisioner` for a benchmark's comparison StorageClass. */
  controllerManagerArgs?: readonly string[];
  /**
   * Write an audit log (JSON lines, `<dir>/audit.log`, level Metadata, stage
   * ResponseComplete) of every write: who (user, user agent), what (verb, resource,
   * subresource, namespace, name), when, and with which response code. Read it with
   * `auditEvents()`. Off by default: it costs the API server time on every write.
   * `"all"`: reads (get, list, watch) too — what a least-privilege check compares with RBAC.
   */
  auditLog?: boolean | "all";
}

/** One entry of the audit log (the fields tests read; see k8s.io/apiserver/pkg/apis/audit). */
export interface AuditEvent {
  readonly verb: string;
  readonly user: { readonly username: string; readonly groups?: readonly string[] };
  readonly userAgent?: string;
  readonly objectRef?: {
    readonly resource?: string;
    readonly subresource?: string;
    readonly namespace?: string;
    readonly name?: string;
    readonly apiGroup?: string;
  };
  readonly responseStatus?: { readonly code?: number };
  /** e.g. `authorization.k8s.io/decision`: `allow` | `forbid`. */
  readonly annotations?: Readonly<Record<string, string>>;
  /** RFC 3339 with microseconds. */
  readonly requestReceivedTimestamp: string;
  readonly stageTimestamp: string;
}

/** Audit policy of `auditLog: "all"`: every request, metadata only, once each (when answered). */
const AUDIT_POLICY_ALL = [
  "apiVersion: audit.k8s.io/v1",
  "kind: Policy",
  "omitStages: [RequestReceived]",
  "rules:",
  "  - level: Metadata",
  "",
].join("\n");

/** Audit policy of `auditLog`: writes only, metadata only, once each (when answered). */
const AUDIT_POLICY = [
  "apiVersion: audit.k8s.io/v1",
  "kind: Policy",
  "omitStages: [RequestReceived]",
  "rules:",
  "  - level: None",
  "    verbs: [get, list, watch]",
  "  - level: Metadata",
  "",
].join("\n");

export interface ControlPlane {
  readonly server: string; // https://127.0.0.1:<port>
  readonly kubeconfigPath: string; // admin kubeconfig file (cluster/user/context "envtest")
  readonly kubeconfigYaml: string;
  readonly dir: string; // temp dir of this plane
  readonly binDir: string;
  /** An admin client for the harness and tests (closed by stop()). */
  readonly kube: KubeClient;
  /** Time from the call to /readyz of the API server answering ok, in ms. */
  readonly apiserverReadyMs: number;
  /** Run the kubectl binary with the admin kubeconfig; never throws for a non-zero exit. */
  kubectl(args: string[], input?: string): Promise<{ stdout: string; stderr: string; code: number }>;
  /** GET /metrics text as admin (used by benchmarks: apiserver_request_total). */
  metrics(): Promise<string>;
  /**
   * Crash a component (SIGKILL), keep it down for `downMs`, then start it again with the
   * same port, flags and etcd data; resolves once it serves again (fault tests).
   */
  restart(component: "kube-apiserver" | "etcd", downMs: number): Promise<void>;
  /** Compact etcd's history up to its current revision: watches from older resourceVersions get 410 Gone. */
  compactEtcd(): Promise<void>;
  /**
   * A kubeconfig file for a client of its own identity: a new client certificate with
   * common name `user` (the user name the API server and its audit log see) and `groups`
   * as organizations (e.g. `system:masters`). Resolves with the file's path.
   */
  clientKubeconfig(user: string, groups: readonly string[]): Promise<string>;
  /** The entries of the audit log so far (`auditLog` must be set). */
  auditEvents(): Promise<AuditEvent[]>;
  /** Idempotent; kills all processes, waits for them, removes dir. */
  stop(): Promise<void>;
}

/** Controllers we run. Not node-lifecycle: fake nodes send no heartbeats and would be tainted and evicted. */
export const CONTROLLERS = [
  "garbage-collector-controller",
  "persistentvolume-binder-controller",
  "persistentvolumeclaim-protection-controller",
  "persistentvolume-protection-controller",
  "ephemeral-volume-controller",
  "statefulset-controller",
  "replicaset-controller",
  "deployment-controller",
  "endpoints-controller",
  "endpointslice-controller",
  "endpointslice-mirroring-controller",
  "serviceaccount-controller",
  "namespace-controller",
  "clusterrole-aggregation-controller",
  "root-ca-certificate-publisher-controller",
] as const;

/**
 * A /16: 65,534 cluster IPs, so scale benchmarks (bench/nodeScale.bench.ts at 200 nodes × 20
 * volumes) can give thousands of Listeners a cluster IP; a /24 capped them at ~250. The
 * `kubernetes` Service keeps the range's first address, 10.0.0.1 (in the serving
 * certificate, certs.ts). Disjoint from the real-node subnets (10.213/16, 10.214/16,
 * test/realnodes/network.ts) and the node fleet's addresses (10.96/11, nodeFleet.ts).
 */
export const SERVICE_CLUSTER_IP_RANGE = "10.0.0.0/16";

function kubeconfig(server: string, ca: string, client: KeyPair, name = "envtest"): string {
  const b64 = (s: string): string => Buffer.from(s, "utf8").toString("base64");
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    `- name: ${name}`,
    "  cluster:",
    `    server: ${server}`,
    `    certificate-authority-data: ${b64(ca)}`,
    "users:",
    `- name: ${name}`,
    "  user:",
    `    client-certificate-data: ${b64(client.certPem)}`,
    `    client-key-data: ${b64(client.keyPem)}`,
    "contexts:",
    `- name: ${name}`,
    "  context:",
    `    cluster: ${name}`,
    `    user: ${name}`,
    `current-context: ${name}`,
    "",
  ].join("\n");
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** GET a URL on loopback; resolves with the status (0 when the connection fails). */
function probe(url: string, tls?: { ca?: string; cert?: string; key?: string; insecure?: boolean }): Promise<number> {
  return new Promise((resolveStatus) => {
    const u = new URL(url);
    const common = { host: u.hostname, port: u.port, path: u.pathname + u.search, method: "GET", timeout: 5000 };
    const onRes = (res: { statusCode?: number; resume: () => void }): void => {
      res.resume();
      resolveStatus(res.statusCode ?? 0);
    };
    const req =
      u.protocol === "https:"
        ? httpsRequest(
            {
              ...common,
              ca: tls?.ca,
              cert: tls?.cert,
              key: tls?.key,
              rejectUnauthorized: tls?.insecure !== true,
              agent: false,
            },
            onRes,
          )
        : httpRequest({ ...common, agent: false }, onRes);
    req.on("error", () => resolveStatus(0));
    req.on("timeout", () => req.destroy());
    req.end();
  });
}

class StartError extends Error {
  constructor(
    message: string,
    readonly portClash: boolean,
  ) {
    super(message);
  }
}

/** Wait until `ready()` or the process exits / time runs out. */
async function waitReady(proc: TrackedProcess, what: string, ready: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!proc.running()) {
      const tail = proc.logTail(30);
      throw new StartError(
        `${proc.name} exited before ${what} was ready; last log lines:\n${tail}`,
        /address already in use|bind: address/i.test(tail),
      );
    }
    if (await ready()) return;
    if (Date.now() > deadline) {
      throw new StartError(`${what} not ready after ${timeoutMs} ms; last log lines of ${proc.name}:\n${proc.logTail(30)}`, false);
    }
    await sleep(100);
  }
}

export async function startControlPlane(opts: ControlPlaneOptions = {}): Promise<ControlPlane> {
  const t0 = performance.now();
  const bin = findBinDir();
  const log = opts.log ?? (() => undefined);
  const dir = await mkdtemp(join(tmpdir(), "envtest-"));
  const procs: TrackedProcess[] = [];
  let stopped = false;
  // If the Node process ends without stop(): kill everything (each process also has its
  // own emergency kill and watchdog) and remove the temp dir.
  const unregisterEmergency = onEmergency(() => {
    for (const p of procs) {
      try {
        process.kill(-p.pid, "SIGKILL");
      } catch {
        // gone
      }
    }
    if (process.env["ENVTEST_KEEP_DIR"] === undefined) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  });

  const start = (name: string, command: string, args: string[]): TrackedProcess => {
    log(`starting ${name}: ${command} ${args.join(" ")}`);
    const proc = spawnTracked({
      name,
      command,
      args,
      cwd: dir,
      logPath: join(dir, "logs", `${name}.log`),
      ...(opts.log !== undefined ? { onLine: (line: string) => log(`[${name}] ${line}`) } : {}),
    });
    procs.push(proc);
    return proc;
  };

  const stopAll = async (): Promise<void> => {
    // Reverse start order: clients first, etcd last.
    for (const p of [...procs].reverse()) await p.stop(p.name === "etcd" ? 2000 : 5000);
  };

  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    kube.close();
    await stopAll();
    unregisterEmergency();
    if (process.env["ENVTEST_KEEP_DIR"] === undefined) await rm(dir, { recursive: true, force: true, maxRetries: 3 });
    else log(`kept ${dir}`);
  };

  let kube = undefined as unknown as KubeClient;
  try {
    mkdirSync(join(dir, "logs"));
    const pki = join(dir, "pki");
    mkdirSync(pki);
    // Certificates are made while etcd starts (etcd does not need them).
    const address = opts.address ?? "127.0.0.1";
    const onLoopback = opts.address === undefined;
    const certsPromise = makePlaneCerts(pki, onLoopback ? [] : [address]).then((c) => {
      log(`certificates ready after ${Math.round(performance.now() - t0)} ms`);
      return c;
    });
    certsPromise.catch(() => undefined); // awaited below; avoid an unhandled rejection meanwhile

    // etcd + kube-apiserver, retried when a free port was taken in between.
    let server = "";
    let apiserverReadyMs = 0;
    // What a restart needs: the last start of each, and how to tell it serves.
    let etcdStart = { args: [] as string[], url: "" };
    let apiserverStart = { args: [] as string[] };
    for (let attempt = 1; ; attempt++) {
      const [etcdPort, peerPort, apiPort] = await freePorts(3) as [number, number, number];
      const etcdUrl = `http://127.0.0.1:${etcdPort}`;
      const peerUrl = `http://127.0.0.1:${peerPort}`;
      const dataDir = join(dir, `etcd-${attempt}`);
      const etcdArgs = [
        "--name=envtest",
        `--data-dir=${dataDir}`,
        `--listen-client-urls=${etcdUrl}`,
        `--advertise-client-urls=${etcdUrl}`,
        `--listen-peer-urls=${peerUrl}`,
        `--initial-advertise-peer-urls=${peerUrl}`,
        `--initial-cluster=envtest=${peerUrl}`,
        "--initial-cluster-state=new",
        "--unsafe-no-fsync=true",
        "--log-level=warn",
      ];
      const etcd = start("etcd", binary("etcd", bin), etcdArgs);
      server = `https://${address}:${apiPort}`;
      const certs = await certsPromise;
      const auditPolicyPath = join(dir, "audit-policy.yaml");
      if (opts.auditLog !== undefined && opts.auditLog !== false) await writeFile(auditPolicyPath, opts.auditLog === "all" ? AUDIT_POLICY_ALL : AUDIT_POLICY);
      const disabledAdmission = ["TaintNodesByCondition", ...(opts.controllerManager === true ? [] : ["ServiceAccount"])];
      const apiserverArgs = [
        `--etcd-servers=${etcdUrl}`,
        `--bind-address=${address}`,
        `--advertise-address=${address}`,
        `--secure-port=${apiPort}`,
        `--cert-dir=${join(dir, "apiserver-certs")}`,
        `--tls-cert-file=${certs.serving.certPath}`,
        `--tls-private-key-file=${certs.serving.keyPath}`,
        `--client-ca-file=${certs.clientCa.certPath}`,
        "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
        `--service-account-key-file=${certs.serviceAccount.pubPath}`,
        `--service-account-signing-key-file=${certs.serviceAccount.keyPath}`,
        `--service-cluster-ip-range=${SERVICE_CLUSTER_IP_RANGE}`,
        "--authorization-mode=Node,RBAC",
        "--allow-privileged=true",
        `--disable-admission-plugins=${disabledAdmission.join(",")}`,
        ...(onLoopback
          ? ["--endpoint-reconciler-type=none"]
          : [
            "--endpoint-reconciler-type=lease",
            "--kubelet-preferred-address-types=InternalIP",
            `--kubelet-client-certificate=${certs.admin.certPath}`,
            `--kubelet-client-key=${certs.admin.keyPath}`,
          ]),
        ...(opts.auditLog !== undefined && opts.auditLog !== false
          ? [
            `--audit-policy-file=${auditPolicyPath}`,
            `--audit-log-path=${join(dir, "audit.log")}`,
            "--audit-log-format=json",
            "--audit-log-mode=blocking",
          ]
          : []),
        "--profiling=false",
      ];
      const apiserver = start("kube-apiserver", binary("kube-apiserver", bin), apiserverArgs);
      etcdStart = { args: etcdArgs, url: etcdUrl };
      apiserverStart = { args: apiserverArgs };
      try {
        await waitReady(etcd, "etcd", async () => (await probe(`${etcdUrl}/health`)) === 200, 30_000);
        await waitReady(
          apiserver,
          "kube-apiserver /readyz",
          async () =>
            (await probe(`${server}/readyz`, {
              ca: certs.serverCa.certPem,
              cert: certs.admin.certPem,
              key: certs.admin.keyPem,
            })) === 200,
          120_000,
        );
        apiserverReadyMs = performance.now() - t0;
        log(`kube-apiserver ready at ${server} after ${Math.round(apiserverReadyMs)} ms`);
        break;
      } catch (e) {
        await apiserver.stop(1000);
        await etcd.stop(1000);
        procs.length = 0;
        if (e instanceof StartError && e.portClash && attempt < 3) {
          log(`port clash, retrying (${e.message.split("\n")[0]})`);
          continue;
        }
        throw e;
      }
    }

    const certs = await certsPromise;
    const kubeconfigYaml = kubeconfig(server, certs.serverCa.certPem, certs.admin);
    const kubeconfigPath = join(dir, "admin.kubeconfig");
    await writeFile(kubeconfigPath, kubeconfigYaml, { mode: 0o600 });
    kube = KubeClient.fromKubeconfigYaml(kubeconfigYaml);

    const components: Promise<void>[] = [];
    if (opts.controllerManager === true) {
      const path = join(dir, "kube-controller-manager.kubeconfig");
      await writeFile(path, kubeconfig(server, certs.serverCa.certPem, certs.controllerManager), { mode: 0o600 });
      const [port] = (await freePorts(1)) as [number];
      const kcm = start("kube-controller-manager", binary("kube-controller-manager", bin), [
        `--kubeconfig=${path}`,
        `--authentication-kubeconfig=${path}`,
        `--authorization-kubeconfig=${path}`,
        `--controllers=${[...CONTROLLERS, ...(opts.extraControllers ?? [])].join(",")}`,
        "--leader-elect=false",
        "--use-service-account-credentials=true",
        `--root-ca-file=${certs.serverCa.certPath}`,
        "--bind-address=127.0.0.1",
        `--secure-port=${port}`,
        `--cert-dir=${join(dir, "kcm-certs")}`,
        "--pvclaimbinder-sync-period=5s",
        "--profiling=false",
        ...(opts.controllerManagerArgs ?? []),
      ]);
      components.push(
        waitReady(kcm, "kube-controller-manager /healthz", async () => (await probe(`https://127.0.0.1:${port}/healthz`, { insecure: true })) === 200, 60_000),
      );
    }
    if (opts.scheduler === true) {
      const path = join(dir, "kube-scheduler.kubeconfig");
      await writeFile(path, kubeconfig(server, certs.serverCa.certPem, certs.scheduler), { mode: 0o600 });
      const config = join(dir, "kube-scheduler.yaml");
      await writeFile(
        config,
        [
          "apiVersion: kubescheduler.config.k8s.io/v1",
          "kind: KubeSchedulerConfiguration",
          "clientConnection:",
          `  kubeconfig: ${path}`,
          "leaderElection:",
          "  leaderElect: false",
          "",
        ].join("\n"),
      );
      const [port] = (await freePorts(1)) as [number];
      const scheduler = start("kube-scheduler", binary("kube-scheduler", bin), [
        `--config=${config}`,
        `--authentication-kubeconfig=${path}`,
        `--authorization-kubeconfig=${path}`,
        "--bind-address=127.0.0.1",
        `--secure-port=${port}`,
      ]);
      components.push(
        waitReady(scheduler, "kube-scheduler /readyz", async () => (await probe(`https://127.0.0.1:${port}/readyz`, { insecure: true })) === 200, 60_000),
      );
    }
    await Promise.all(components);
    log(`control plane ready after ${Math.round(performance.now() - t0)} ms`);

    const kubectl = (args: string[], input?: string): Promise<{ stdout: string; stderr: string; code: number }> =>
      new Promise((resolveRun, reject) => {
        const child = spawn(binary("kubectl", bin), [`--kubeconfig=${kubeconfigPath}`, ...args], {
          env: { ...process.env, KUBECONFIG: kubeconfigPath },
          stdio: ["pipe", "pipe", "pipe"],
        });
        let stdout = "";
        let stderr = "";
        child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
        child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
        // kubectl never legitimately takes minutes here; do not let a hang stall the run.
        const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
        child.on("error", (e) => {
          clearTimeout(timer);
          reject(e);
        });
        child.on("close", (code, signal) => {
          clearTimeout(timer);
          resolveRun({ stdout, stderr: signal === "SIGKILL" ? `${stderr}\nkubectl killed after 120 s` : stderr, code: code ?? -1 });
        });
        child.stdin.end(input ?? "");
      });

    const metrics = async (): Promise<string> => {
      const { status, text } = await kube.raw("GET", "/metrics", { accept: "text/plain" });
      if (status !== 200) throw new Error(`GET /metrics: ${status} ${text.slice(0, 200)}`);
      return text;
    };

    const restart = async (component: "kube-apiserver" | "etcd", downMs: number): Promise<void> => {
      const index = procs.findIndex((p) => p.name === component && p.running());
      if (index < 0) throw new Error(`${component} is not running`);
      await procs[index]!.kill();
      procs.splice(index, 1);
      log(`${component} killed; down for ${downMs} ms`);
      await new Promise((resolveSleep) => setTimeout(resolveSleep, downMs));
      if (component === "etcd") {
        const etcd = start("etcd", binary("etcd", bin), etcdStart.args);
        await waitReady(etcd, "etcd", async () => (await probe(`${etcdStart.url}/health`)) === 200, 30_000);
      } else {
        const apiserver = start("kube-apiserver", binary("kube-apiserver", bin), apiserverStart.args);
        await waitReady(
          apiserver,
          "kube-apiserver /readyz",
          async () => (await probe(`${server}/readyz`, { ca: certs.serverCa.certPem, cert: certs.admin.certPem, key: certs.admin.keyPem })) === 200,
          120_000,
        );
      }
      log(`${component} serving again`);
    };

    // etcd's JSON gateway: read the current revision, then compact everything before it.
    const compactEtcd = async (): Promise<void> => {
      const post = async (path: string, body: object): Promise<Record<string, unknown>> => {
        const response = await fetch(`${etcdStart.url}${path}`, { method: "POST", body: JSON.stringify(body) });
        if (!response.ok) throw new Error(`etcd ${path}: ${response.status} ${await response.text()}`);
        return (await response.json()) as Record<string, unknown>;
      };
      const range = await post("/v3/kv/range", { key: Buffer.from("/").toString("base64"), limit: 1 });
      const revision = (range["header"] as { revision: string }).revision;
      await post("/v3/kv/compaction", { revision, physical: true });
      log(`etcd compacted up to revision ${revision}`);
    };

    let clients = 0;
    const clientKubeconfig = async (user: string, groups: readonly string[]): Promise<string> => {
      const name = `client-${++clients}`;
      const pair = await makeLeaf(pki, name, certs.clientCa, { cn: user, organizations: groups, usage: "client" });
      const path = join(dir, `${name}.kubeconfig`);
      await writeFile(path, kubeconfig(server, certs.serverCa.certPem, pair), { mode: 0o600 });
      return path;
    };

    const auditEvents = async (): Promise<AuditEvent[]> => {
      if (opts.auditLog === undefined || opts.auditLog === false) throw new Error("auditEvents() needs startControlPlane({ auditLog: true })");
      const text = await readFile(join(dir, "audit.log"), "utf8").catch(() => "");
      // The last line may be in the middle of being written.
      return text.split("\n").flatMap((line) => {
        try {
          return line === "" ? [] : [JSON.parse(line) as AuditEvent];
        } catch {
          return [];
        }
      });
    };

    return {
      server,
      kubeconfigPath,
      kubeconfigYaml,
      dir,
      binDir: bin,
      kube,
      apiserverReadyMs,
      kubectl,
      metrics,
      restart,
      compactEtcd,
      clientKubeconfig,
      auditEvents,
      stop,
    };
  } catch (e) {
    stopped = true;
    kube?.close();
    await stopAll();
    unregisterEmergency();
    if (process.env["ENVTEST_KEEP_DIR"] === undefined) await rm(dir, { recursive: true, force: true, maxRetries: 3 });
    throw e;
  }
}
