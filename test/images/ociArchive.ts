// Writes an OCI image layout archive (what `ctr images import` takes) from a root
// filesystem directory and an image config, reproducibly: the same inputs give the same
// bytes, so the same digest.
//
// Why GNU tar and not a tar library: it is on every Debian machine, and its flags for
// reproducible archives (sorted names, fixed mtime, numeric owner 0, PAX headers without
// atime/ctime) are documented and stable; the layer stays uncompressed so there is no
// gzip timestamp to pin.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export interface ImageConfig {
  readonly entrypoint?: readonly string[];
  readonly cmd?: readonly string[];
  readonly env?: readonly string[];
  readonly user?: string;
  readonly workingDir?: string;
  readonly labels?: Readonly<Record<string, string>>;
}

const REPRODUCIBLE_TAR = [
  "--sort=name",
  "--mtime=@0",
  "--owner=0",
  "--group=0",
  "--numeric-owner",
  "--format=posix",
  "--pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime",
];

const sha256 = (data: Buffer | string): string => createHash("sha256").update(data).digest("hex");

const json = (value: unknown): string => JSON.stringify(value);

/** A tar of `dir`'s contents (entries relative to it) as a Buffer. */
export const reproducibleTar = (dir: string): Buffer =>
  execFileSync("tar", [...REPRODUCIBLE_TAR, "-C", dir, "-cf", "-", "."], { maxBuffer: 1024 * 1024 * 1024 });

/**
 * Writes `<archivePath>` (an OCI layout tar) for the image `ref` whose single layer is
 * `rootfs`; returns the manifest digest (`sha256:…`), which is what containerd reports.
 */
export function writeOciArchive(archivePath: string, ref: string, rootfs: string, config: ImageConfig): string {
  const layout = `${archivePath}.layout`;
  rmSync(layout, { recursive: true, force: true });
  const blobs = join(layout, "blobs", "sha256");
  mkdirSync(blobs, { recursive: true });
  const blob = (data: Buffer | string): { digest: string; size: number } => {
    const hex = sha256(data);
    writeFileSync(join(blobs, hex), data);
    return { digest: `sha256:${hex}`, size: Buffer.byteLength(data) };
  };

  const layer = blob(reproducibleTar(rootfs));
  const imageConfig = blob(json({
    architecture: "amd64",
    os: "linux",
    created: "1970-01-01T00:00:00Z",
    config: {
      ...(config.entrypoint !== undefined ? { Entrypoint: config.entrypoint } : {}),
      ...(config.cmd !== undefined ? { Cmd: config.cmd } : {}),
      ...(config.env !== undefined ? { Env: config.env } : {}),
      ...(config.user !== undefined ? { User: config.user } : {}),
      ...(config.workingDir !== undefined ? { WorkingDir: config.workingDir } : {}),
      ...(config.labels !== undefined ? { Labels: config.labels } : {}),
    },
    rootfs: { type: "layers", diff_ids: [layer.digest] },
    history: [{ created: "1970-01-01T00:00:00Z", created_by: "test/images (listener-operator)" }],
  }));
  const manifest = blob(json({
    schemaVersion: 2,
    mediaType: "application/vnd.oci.image.manifest.v1+json",
    config: { mediaType: "application/vnd.oci.image.config.v1+json", ...imageConfig },
    layers: [{ mediaType: "application/vnd.oci.image.layer.v1.tar", ...layer }],
  }));
  writeFileSync(join(layout, "oci-layout"), json({ imageLayoutVersion: "1.0.0" }));
  const tag = ref.slice(ref.lastIndexOf(":") + 1);
  writeFileSync(join(layout, "index.json"), json({
    schemaVersion: 2,
    mediaType: "application/vnd.oci.image.index.v1+json",
    manifests: [{
      mediaType: "application/vnd.oci.image.manifest.v1+json",
      ...manifest,
      platform: { architecture: "amd64", os: "linux" },
      // containerd names the imported image after the first; other tools after the second.
      annotations: { "io.containerd.image.name": ref, "org.opencontainers.image.ref.name": tag },
    }],
  }));
  mkdirSync(dirname(archivePath), { recursive: true });
  const partial = `${archivePath}.partial`;
  writeFileSync(partial, reproducibleTar(layout));
  renameSync(partial, archivePath);
  rmSync(layout, { recursive: true, force: true });
  return manifest.digest;
}

/** The manifest digest of an archive written by writeOciArchive (read back from its index). */
export function archiveDigest(archivePath: string): string {
  const index = execFileSync("tar", ["-xOf", archivePath, "./index.json"], { maxBuffer: 1024 * 1024 });
  return (JSON.parse(index.toString("utf8")) as { manifests: Array<{ digest: string }> }).manifests[0]!.digest;
}
