// The Kafka image of the real-node cluster's Kafka scenario (test/e2e/kafka.test.ts), built
// offline like the other images (build.ts) and cached by its pins:
//
//   JRE       Debian's openjdk-17-jre-headless and the libraries its JVM links (libc6,
//             libstdc++6, libgcc-s1, zlib1g): `apt-get download` of each candidate version,
//             `dpkg -x` into the root filesystem
//   jars      the runtime closure of kafka/pom.xml (kafka_2.13 4.4.0 + a log4j2 SLF4J
//             binding), resolved from Maven Central by Debian's `maven`
//             (`dependency:copy-dependencies -DincludeScope=runtime`) into /opt/kafka/libs
//   shell     Debian's busybox-static with every applet (the entrypoint script is sh)
//
// The layout follows Kafka's own image: /opt/kafka/libs, /opt/kafka/config/log4j2.yaml.
// No entrypoint: the workload's script (examples/kafka/entrypoint.sh, from a ConfigMap)
// starts the broker. See docs/images.md.
import { execFileSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cachedImage, hashOf, imagesCacheDir, put } from "./build.ts";
import type { ImageArchive } from "./build.ts";

export const KAFKA_REF = "localhost/listener-operator/kafka:4.4.0";
/** Where the JRE's `java` is in the image (Debian's path; the packages' postinst alternatives never ran). */
export const JAVA_HOME = "/usr/lib/jvm/java-17-openjdk-amd64";

const here = join(import.meta.dirname, "kafka");
const POM = join(here, "pom.xml");
const LOG_CONFIG = join(here, "log4j2.yaml");
const BUSYBOX = "/bin/busybox";
/** The JRE and the shared libraries its JVM and native libraries link. */
const DEBIAN_PACKAGES = ["openjdk-17-jre-headless", "libc6", "libstdc++6", "libgcc-s1", "zlib1g"] as const;
/** Parts of the packages nothing at run time reads. */
const PRUNED = ["usr/share/doc", "usr/share/man", "usr/share/lintian", "usr/share/locale", "usr/share/bug"] as const;

/** `name=version` of each package's candidate (what `apt-get download` would fetch). */
const candidateVersions = (): string[] =>
  DEBIAN_PACKAGES.map((name) => {
    let policy: string;
    try {
      policy = execFileSync("apt-cache", ["policy", name], { env: { ...process.env, LC_ALL: "C" } }).toString();
    } catch (error) {
      throw new Error(`apt-cache policy ${name} failed: the Kafka image takes its JRE from Debian's packages (${String(error)})`, { cause: error });
    }
    const candidate = /Candidate:\s*(\S+)/u.exec(policy)?.[1];
    if (candidate === undefined || candidate === "(none)") {
      throw new Error(`Debian has no candidate for ${name}: run apt-get update (test/install-deps.sh does, as root)`);
    }
    return `${name}=${candidate}`;
  });

/** A directory filled once by `fill` (in a sibling `.partial` directory, renamed when done). */
const cachedDir = (name: string, fill: (dir: string) => void): string => {
  const dir = join(imagesCacheDir(), name);
  if (existsSync(dir)) return dir;
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  fill(partial);
  renameSync(partial, dir);
  return dir;
};

/** The .deb files of `pins` (`name=version`), downloaded once per set of versions. */
const debianPackages = (pins: readonly string[]): string =>
  cachedDir(`kafka-debs-${hashOf(pins)}`, (dir) => {
    execFileSync("apt-get", ["download", "-q", "-o", "APT::Sandbox::User=root", ...pins], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
  });

/** Maven's own cache of Maven Central downloads (plugins and artifacts), kept between builds. */
const mavenRepository = (): string => join(imagesCacheDir(), "maven-repository");

/** The runtime jars of pom.xml, resolved once per pom. */
const kafkaJars = (pom: Buffer): string =>
  cachedDir(`kafka-jars-${hashOf([pom])}`, (dir) => {
    try {
      execFileSync("mvn", [
        "--batch-mode", "--quiet", "-Dstyle.color=never", "--file", POM, `-Dmaven.repo.local=${mavenRepository()}`,
        "dependency:copy-dependencies", "-DincludeScope=runtime", `-DoutputDirectory=${dir}`
      ], { stdio: ["ignore", "inherit", "inherit"] });
    } catch (error) {
      if (!existsSync("/usr/bin/mvn")) throw new Error("mvn is missing: install Debian's maven (test/install-deps.sh)", { cause: error });
      throw error;
    }
  });

export function kafkaImage(): ImageArchive {
  if (!existsSync(BUSYBOX)) throw new Error(`${BUSYBOX} is missing: install Debian's busybox-static (test/install-deps.sh)`);
  const pins = candidateVersions();
  const pom = readFileSync(POM);
  const config = {
    cmd: ["sh"],
    env: [`PATH=${JAVA_HOME}/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin`, `JAVA_HOME=${JAVA_HOME}`],
    workingDir: "/opt/kafka"
  };
  const inputs = [...pins, pom, readFileSync(LOG_CONFIG), readFileSync(BUSYBOX), PRUNED.join(",")];
  return cachedImage("kafka", KAFKA_REF, inputs, config, (rootfs) => {
    const debs = debianPackages(pins);
    for (const deb of readdirSync(debs).filter((f) => f.endsWith(".deb")).sort()) execFileSync("dpkg", ["-x", join(debs, deb), rootfs]);
    for (const path of PRUNED) rmSync(join(rootfs, path), { recursive: true, force: true });
    if (!existsSync(join(rootfs, JAVA_HOME.slice(1), "bin", "java"))) throw new Error(`the JRE package left no ${JAVA_HOME}/bin/java`);

    const libs = join(rootfs, "opt", "kafka", "libs");
    mkdirSync(libs, { recursive: true });
    cpSync(kafkaJars(pom), libs, { recursive: true });
    put(rootfs, "opt/kafka/config/log4j2.yaml", LOG_CONFIG, 0o644);

    put(rootfs, "bin/busybox", BUSYBOX, 0o755);
    const applets = execFileSync(BUSYBOX, ["--list"]).toString().split("\n").filter((a) => /^[a-z0-9_.[-]+$/u.test(a) && a !== "busybox");
    for (const applet of applets) if (!existsSync(join(rootfs, "bin", applet))) symlinkSync("busybox", join(rootfs, "bin", applet));

    mkdirSync(join(rootfs, "tmp"), { recursive: true });
    chmodSync(join(rootfs, "tmp"), 0o1777);
    mkdirSync(join(rootfs, "etc"), { recursive: true });
    writeFileSync(join(rootfs, "etc", "passwd"), "root:x:0:0:root:/root:/bin/sh\nkafka:x:1000:1000:kafka:/opt/kafka:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n");
    writeFileSync(join(rootfs, "etc", "group"), "root:x:0:\nkafka:x:1000:\nnobody:x:65534:\n");
  });
}
