// The images of the real-node cluster, built offline (no registry, no Docker engine) as
// OCI archives that `ctr images import` takes, and cached under
// ~/.cache/listener-operator/images/ keyed by their inputs:
//
//   pause            the sandbox image: our own static Go program (pause/)
//   busybox          Debian's busybox-static with every applet linked: workloads, clients
//   csi-provisioner  the binary test/envtest built, under the chart's default image name
//   coredns          CoreDNS from test/clusteraddons/build.sh: the cluster DNS
//   metallb-*        MetalLB's controller and speaker from the same build, under the names
//                    MetalLB's chart uses, so its defaults find them present
//   operator         the image the Dockerfile describes, from `npm run build`'s dist/, the
//                    production node_modules, and the pinned Node 24 binary with the Debian
//                    libraries it links (what the distroless base provides)
//   kafka            Debian's JRE + Kafka's jars resolved by Maven (kafka.ts); only for the
//                    Kafka scenario, so not among the images every cluster imports
//
// Usage: `tsx test/images/build.ts [--only <name>]` (all of them without it) prints `<ref> <archive>` lines.
// See docs/images.md.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { binary, binDir, cacheRoot } from "../envtest/binDir.ts";
import { clusterAddonBinary, clusterAddonVersions } from "../clusteraddons/binDir.ts";
import type { ClusterAddonBinary } from "../clusteraddons/binDir.ts";
import { readFinalStage } from "./dockerfile.ts";
import type { FinalStage } from "./dockerfile.ts";
import { kafkaImage } from "./kafka.ts";
import { archiveDigest, writeOciArchive } from "./ociArchive.ts";
import type { ImageConfig } from "./ociArchive.ts";

const here = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = join(here, "..", "..");

export const PAUSE_REF = "localhost/listener-operator/pause:e2e";
export const BUSYBOX_REF = "docker.io/library/busybox:e2e";
/** The chart's default provisioner image: present locally, so `IfNotPresent` pulls nothing. */
export const CSI_PROVISIONER_REF = "registry.k8s.io/sig-storage/csi-provisioner:v6.3.0";

const packageVersion = (): string => (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
export const operatorRef = (): string => `docker.io/library/listener-operator:${packageVersion()}`;

/** CoreDNS under the name real clusters (kubeadm) use. */
export const corednsRef = (): string => `registry.k8s.io/coredns/coredns:${clusterAddonVersions().coredns}`;
/** MetalLB's images as its chart names them (`quay.io/metallb/<component>:<appVersion>`). */
export const metallbRef = (component: "controller" | "speaker"): string => `quay.io/metallb/${component}:${clusterAddonVersions().metallb}`;

export type ImageName = "pause" | "busybox" | "csi-provisioner" | "coredns" | "metallb-controller" | "metallb-speaker" | "operator" | "kafka";

export interface ImageArchive {
  readonly name: ImageName;
  readonly ref: string;
  readonly path: string;
  /** The manifest digest containerd reports for it. */
  readonly digest: string;
}

export const imagesCacheDir = (): string => join(cacheRoot(), "images");

export const hashOf = (parts: ReadonlyArray<string | Buffer>): string => {
  const h = createHash("sha256");
  for (const part of parts) h.update(createHash("sha256").update(part).digest("hex"));
  return h.digest("hex").slice(0, 16);
};

/** Every file under `dir` (sorted paths and contents) as hash input. */
const treeHashParts = (dir: string): string[] => {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const path = rel === "" ? name : `${rel}/${name}`;
      const stat = statSync(join(dir, path));
      if (stat.isDirectory()) walk(path);
      else out.push(path, createHash("sha256").update(readFileSync(join(dir, path))).digest("hex"), String(stat.mode & 0o777));
    }
  };
  walk("");
  return out;
};

/** Build `<cache>/<name>-<hash>.tar` unless it exists; `fill` populates the rootfs. */
export function cachedImage(name: ImageName, ref: string, inputs: ReadonlyArray<string | Buffer>, config: ImageConfig, fill: (rootfs: string) => void): ImageArchive {
  const key = hashOf([ref, JSON.stringify(config), ...inputs]);
  const path = join(imagesCacheDir(), `${name}-${key}.tar`);
  if (!existsSync(path)) {
    const work = mkdtempSync(join(tmpdir(), `image-${name}-`));
    try {
      const rootfs = join(work, "rootfs");
      mkdirSync(rootfs);
      fill(rootfs);
      writeOciArchive(path, ref, rootfs, config);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  return { name, ref, path, digest: archiveDigest(path) };
}

export const put = (rootfs: string, path: string, source: string, mode?: number): void => {
  const target = join(rootfs, path);
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(source, target);
  if (mode !== undefined) chmodSync(target, mode);
};

// ---- pause -------------------------------------------------------------------------

function pauseImage(): ImageArchive {
  const source = join(here, "pause");
  const inputs = [readFileSync(join(source, "main.go")), readFileSync(join(source, "go.mod")), execFileSync("go", ["version"]).toString()];
  return cachedImage("pause", PAUSE_REF, inputs, { entrypoint: ["/pause"], user: "65535:65535" }, (rootfs) => {
    execFileSync("go", ["build", "-trimpath", "-ldflags=-s -w", "-o", join(rootfs, "pause"), "."], {
      cwd: source,
      env: { ...process.env, CGO_ENABLED: "0", GOFLAGS: "-mod=mod -buildvcs=false", GOTOOLCHAIN: "local" },
      stdio: ["ignore", "inherit", "inherit"],
    });
  });
}

// ---- busybox -----------------------------------------------------------------------

const BUSYBOX = "/bin/busybox";

function busyboxImage(): ImageArchive {
  if (!existsSync(BUSYBOX)) throw new Error(`${BUSYBOX} is missing: install Debian's busybox-static (test/install-deps.sh)`);
  const applets = execFileSync(BUSYBOX, ["--list"]).toString().split("\n").filter((a) => /^[a-z0-9_.[-]+$/u.test(a) && a !== "busybox");
  return cachedImage("busybox", BUSYBOX_REF, [readFileSync(BUSYBOX)], { cmd: ["sh"] }, (rootfs) => {
    put(rootfs, "bin/busybox", BUSYBOX, 0o755);
    for (const applet of applets) symlinkSync("busybox", join(rootfs, "bin", applet));
    mkdirSync(join(rootfs, "tmp"), { mode: 0o1777 });
    chmodSync(join(rootfs, "tmp"), 0o1777);
    mkdirSync(join(rootfs, "etc"));
    writeFileSync(join(rootfs, "etc", "passwd"), "root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n");
    writeFileSync(join(rootfs, "etc", "group"), "root:x:0:\nnobody:x:65534:\n");
  });
}

// ---- csi-provisioner ---------------------------------------------------------------

function csiProvisionerImage(): ImageArchive {
  const provisioner = binary("csi-provisioner", binDir());
  return cachedImage("csi-provisioner", CSI_PROVISIONER_REF, [readFileSync(provisioner)], { entrypoint: ["/csi-provisioner"] }, (rootfs) => {
    put(rootfs, "csi-provisioner", provisioner, 0o755);
  });
}

// ---- cluster add-ons: CoreDNS, MetalLB -----------------------------------------------

/** A static Go binary of test/clusteraddons as `/<entrypoint>`, on an empty base (as upstream's distroless/static). */
function staticBinaryImage(name: ImageName, ref: string, binaryName: ClusterAddonBinary, entrypoint: string, config: Omit<ImageConfig, "entrypoint"> = {}): ImageArchive {
  const binaryPath = clusterAddonBinary(binaryName);
  return cachedImage(name, ref, [readFileSync(binaryPath)], { entrypoint: [`/${entrypoint}`], ...config }, (rootfs) => {
    put(rootfs, entrypoint, binaryPath, 0o755);
    mkdirSync(join(rootfs, "tmp"));
    chmodSync(join(rootfs, "tmp"), 0o1777);
    mkdirSync(join(rootfs, "etc"));
    writeFileSync(join(rootfs, "etc", "passwd"), "root:x:0:0:root:/root:/sbin/nologin\nnobody:x:65534:65534:nobody:/:/sbin/nologin\n");
    writeFileSync(join(rootfs, "etc", "group"), "root:x:0:\nnobody:x:65534:\n");
  });
}

// ---- operator ----------------------------------------------------------------------

/** The ELF of the pinned `node` devDependency (node_modules/.bin/node links to it). */
const nodeBinary = (): string => {
  const path = join(REPO_ROOT, "node_modules", "node", "bin", "node");
  if (!existsSync(path)) throw new Error(`${path} is missing: run npm ci (the pinned Node 24 is the image's runtime)`);
  return path;
};

/**
 * The node binary without its symbol table and debug information (126 → 108 MB): nothing
 * at run time reads them (V8 symbolises its own frames; stack traces come from the bundle's
 * source maps). `strip` on a copy, cached by the binary's hash and the strip version so the
 * image stays byte-for-byte reproducible.
 */
const strippedNodeBinary = (): string => {
  const node = nodeBinary();
  const key = hashOf([readFileSync(node), stripVersion()]);
  const path = join(imagesCacheDir(), `node-stripped-${key}`);
  if (!existsSync(path)) {
    mkdirSync(imagesCacheDir(), { recursive: true });
    const partial = `${path}.partial`;
    execFileSync("strip", ["--strip-all", "-o", partial, node]);
    renameSync(partial, path);
  }
  return path;
};

const stripVersion = (): string => {
  try {
    return execFileSync("strip", ["--version"]).toString().split("\n")[0]!;
  } catch {
    throw new Error("strip is missing: install Debian's binutils (test/install-deps.sh)");
  }
};

/** The shared libraries `ldd` resolves for `elf` (absolute paths), the loader included. */
const sharedLibraries = (elf: string): string[] =>
  execFileSync("ldd", [elf]).toString().split("\n").flatMap((line) => {
    const m = /=>\s+(\/\S+)/u.exec(line) ?? /^\s*(\/\S+)\s+\(/u.exec(line);
    return m === null ? [] : [m[1]!];
  });

/**
 * The production dependencies (`npm ci --omit=dev --ignore-scripts`, as the Dockerfile's
 * deps stage runs it), staged once per package.json + lock + .npmrc.
 */
const productionDependencies = (): string => {
  const files = ["package.json", "package-lock.json", ".npmrc"];
  const key = hashOf(files.map((f) => readFileSync(join(REPO_ROOT, f))));
  const dir = join(imagesCacheDir(), `deps-${key}`);
  if (!existsSync(join(dir, ".complete"))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (const f of files) copyFileSync(join(REPO_ROOT, f), join(dir, f));
    execFileSync("npm", ["ci", "--omit=dev", "--ignore-scripts", "--no-audit", "--no-fund"], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
    writeFileSync(join(dir, ".complete"), "");
  }
  return dir;
};

/** Where each Dockerfile stage's `/app` is on this machine (`build`: this checkout, or another build's output). */
const stageRoots = (stage: FinalStage, buildRoot: string): Map<string, string> => {
  const roots = new Map<string, string>();
  for (const copy of stage.copies) {
    if (copy.from === "build") roots.set("build", buildRoot);
    else if (copy.from === "deps" && !roots.has("deps")) roots.set("deps", productionDependencies());
  }
  return roots;
};

/** The base image's part: what `gcr.io/distroless/nodejs24-debian12` provides that we use. */
const DISTROLESS_NODE = /^gcr\.io\/distroless\/nodejs24-debian12(:.*)?$/u;

function fillDistrolessNode(rootfs: string, entrypoint: readonly string[]): void {
  const nodePath = entrypoint[0];
  if (nodePath === undefined || !nodePath.startsWith("/")) throw new Error("the Dockerfile's ENTRYPOINT must start with the node binary's absolute path");
  const node = nodeBinary();
  put(rootfs, nodePath.slice(1), strippedNodeBinary(), 0o755);
  for (const lib of sharedLibraries(node)) put(rootfs, lib.slice(1), lib);
  // The loader is where the ELF's interpreter field says, whatever path ldd printed.
  if (!existsSync(join(rootfs, "lib64", "ld-linux-x86-64.so.2"))) put(rootfs, "lib64/ld-linux-x86-64.so.2", "/lib64/ld-linux-x86-64.so.2");
  put(rootfs, "etc/ssl/certs/ca-certificates.crt", "/etc/ssl/certs/ca-certificates.crt", 0o644);
  writeFileSync(join(rootfs, "etc", "passwd"), "root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n");
  writeFileSync(join(rootfs, "etc", "group"), "root:x:0:\nnonroot:x:65532:\n");
  mkdirSync(join(rootfs, "tmp"));
  chmodSync(join(rootfs, "tmp"), 0o1777);
  mkdirSync(join(rootfs, "home", "nonroot"), { recursive: true });
}

/**
 * The operator image from `buildRoot`'s `npm run build` output (default: this checkout)
 * under `ref` — the upgrade test builds "the next build" from another bundle under a
 * second tag (test/upgrade/nextBuild.ts).
 */
export function operatorImage(ref: string = operatorRef(), buildRoot: string = REPO_ROOT): ImageArchive {
  const dockerfile = join(REPO_ROOT, "Dockerfile");
  const stage = readFinalStage(dockerfile);
  if (!DISTROLESS_NODE.test(stage.base)) throw new Error(`Dockerfile: the offline recipe knows the distroless nodejs24 base, not ${stage.base}`);
  const script = stage.entrypoint.find((arg) => arg.startsWith("/app/"));
  if (script !== undefined && !existsSync(join(buildRoot, script.slice("/app/".length)))) {
    throw new Error(`${script.slice("/app/".length)} (the Dockerfile's entrypoint) is missing: run \`npm run build\` first`);
  }
  const roots = stageRoots(stage, buildRoot);
  const sourceOf = (copy: FinalStage["copies"][number]): string => {
    const root = copy.from === undefined ? REPO_ROOT : roots.get(copy.from);
    if (root === undefined || !copy.source.startsWith("/app/") && copy.from !== undefined) {
      throw new Error(`Dockerfile:${copy.line}: cannot map COPY --from=${copy.from} ${copy.source} to a local build output`);
    }
    const local = copy.from === undefined ? join(REPO_ROOT, copy.source) : join(root, copy.source.slice("/app/".length));
    if (!existsSync(local)) throw new Error(`Dockerfile:${copy.line}: ${copy.source} of stage ${copy.from} is ${local} here, which does not exist`);
    return local;
  };
  const sources = stage.copies.map((copy) => ({ copy, local: sourceOf(copy) }));
  const config: ImageConfig = {
    entrypoint: stage.entrypoint,
    env: ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt", ...stage.env],
    workingDir: stage.workdir,
    ...(stage.user !== undefined ? { user: stage.user } : {}),
  };
  const inputs = [
    readFileSync(dockerfile),
    createHash("sha256").update(readFileSync(strippedNodeBinary())).digest("hex"),
    ...sources.flatMap(({ copy, local }) => [copy.destination, ...(statSync(local).isDirectory() ? treeHashParts(local) : [readFileSync(local)])]),
  ];
  return cachedImage("operator", ref, inputs, config, (rootfs) => {
    fillDistrolessNode(rootfs, stage.entrypoint);
    for (const { copy, local } of sources) {
      const target = join(rootfs, copy.destination.slice(1));
      mkdirSync(dirname(target), { recursive: true });
      cpSync(local, target, { recursive: true, dereference: false, verbatimSymlinks: true });
    }
  });
}

const RECIPES: Record<ImageName, () => ImageArchive> = {
  pause: pauseImage,
  busybox: busyboxImage,
  "csi-provisioner": csiProvisionerImage,
  coredns: () => staticBinaryImage("coredns", corednsRef(), "coredns", "coredns"),
  "metallb-controller": () => staticBinaryImage("metallb-controller", metallbRef("controller"), "metallb-controller", "controller"),
  "metallb-speaker": () => staticBinaryImage("metallb-speaker", metallbRef("speaker"), "metallb-speaker", "speaker"),
  operator: () => operatorImage(),
  kafka: kafkaImage,
};

/** What startOperatorCluster imports (realCluster.ts adds the add-ons' images; the Kafka image only where Kafka runs). */
export const CLUSTER_IMAGES: ReadonlyArray<ImageName> = ["pause", "busybox", "csi-provisioner", "operator"];

/** Build (or reuse) the images; the cluster's four unless `only` names some. */
export async function buildImages(options: { readonly only?: ReadonlyArray<ImageName> } = {}): Promise<ImageArchive[]> {
  const names = options.only ?? CLUSTER_IMAGES;
  return names.map((name) => RECIPES[name]());
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const only = process.argv.indexOf("--only");
  const images = await buildImages({ only: only >= 0 ? [process.argv[only + 1] as ImageName] : Object.keys(RECIPES) as ImageName[] });
  for (const image of images) process.stdout.write(`${image.ref} ${image.path} ${image.digest}\n`);
}
