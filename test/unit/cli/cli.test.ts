// The command line as a user meets it: every setting in --help with its environment
// variable and default, bad settings refused in one line with exit code 2, and an old
// Node.js refused before anything is loaded.
import { test } from "node:test"
import assert from "node:assert/strict"
import { spawnSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const repoRoot = join(import.meta.dirname, "..", "..", "..")
// Under Deno, process.execPath is deno; the CLI runs on Node (npm's pinned Node 24 on PATH).
const node = "Deno" in globalThis ? "node" : process.execPath

const cli = (args: ReadonlyArray<string>, env: Record<string, string> = {}, preload: ReadonlyArray<string> = [], timeout = 60_000) =>
  spawnSync(node, [...preload, "--import", "tsx", "main.ts", ...args], {
    cwd: repoRoot,
    encoding: "utf8",
    timeout,
    env: { ...process.env, KUBECONFIG: "/nonexistent/kubeconfig", ...env }
  })

test("--help of each role lists every setting with its environment variable and default", () => {
  const expected = {
    controller: ["CSI_ENDPOINT", "KUBERNETES_CLUSTER_DOMAIN", "LISTENER_CLASS_PRESET", "POD_NAMESPACE", "POD_NAME", "LOG_FORMAT", "METRICS_PORT"],
    node: ["CSI_ENDPOINT", "KUBERNETES_NODE_NAME", "PLUGIN_REGISTRATION_DIR", "DRIVER_REG_SOCK_PATH", "LOG_FORMAT", "METRICS_PORT"]
  }
  for (const [role, envs] of Object.entries(expected)) {
    const help = cli(["run", role, "--help"])
    assert.equal(help.status, 0, help.stderr)
    for (const env of envs) assert.match(help.stdout, new RegExp(`\\[env ${env}; default: [^\\]]+\\]`, "u"), `${role} --help names ${env}`)
  }
})

test("a missing or invalid setting exits 2 naming it", () => {
  const missing = cli(["run", "node", "--csi-endpoint", "/tmp/never.sock", "--metrics-port", "0"])
  assert.equal(missing.status, 2)
  assert.match(missing.stdout + missing.stderr, /Missing required flag: --node-name/u)
  const invalid = cli(["run", "node", "--csi-endpoint", "/tmp/never.sock", "--node-name", "n"], { LOG_FORMAT: "xml" })
  assert.equal(invalid.status, 2)
  assert.match(invalid.stdout + invalid.stderr, /LOG_FORMAT|xml/u)
})

test("an unreadable kubeconfig is one line naming the file and the cause, exit 2, no stack trace", () => {
  const run = cli(["run", "node", "--csi-endpoint", "/tmp/never.sock", "--node-name", "n", "--metrics-port", "0"])
  assert.equal(run.status, 2)
  assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr)
  assert.match(run.stderr, /^listener-operator: cannot load kubeconfig .*ENOENT.*\/nonexistent\/kubeconfig/u)
  assert.doesNotMatch(run.stderr, /\n\s+at /u)
})

test("an older Node.js is refused before any dependency loads, naming the version needed", () => {
  const old = cli(["--help"], {}, ["--import", 'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"20.20.2"})'])
  assert.equal(old.status, 2)
  assert.match(old.stderr, /needs Node\.js 24 or newer; this is Node\.js v20\.20\.2/u)
  assert.equal(old.stdout, "")
})

/** A kubeconfig that loads, for a server that does not answer. */
const unreachableKubeconfig = (dir: string): string => {
  const kubeconfig = join(dir, "kubeconfig")
  writeFileSync(kubeconfig, [
    "apiVersion: v1", "kind: Config", "current-context: c",
    "contexts: [{name: c, context: {cluster: c, user: u}}]",
    "clusters: [{name: c, cluster: {server: \"https://127.0.0.1:1\", insecure-skip-tls-verify: true}}]",
    "users: [{name: u, user: {token: x}}]", ""
  ].join("\n"))
  return kubeconfig
}

test("a blank node name is one line naming the setting, exit 2, no stack trace", () => {
  const dir = mkdtempSync(join(tmpdir(), "cli-node-name-"))
  try {
    const run = cli(["run", "node", "--csi-endpoint", join(dir, "csi.sock"), "--node-name", " ", "--metrics-port", "0"],
      { KUBECONFIG: unreachableKubeconfig(dir) }, [], 15000)
    assert.equal(run.status, 2, run.stdout + run.stderr)
    assert.match(run.stderr, /^listener-operator: the node role needs the node name: set KUBERNETES_NODE_NAME or --node-name\n$/u)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test("an API server that cannot be reached is one log line naming the address and the cause; the role keeps running", () => {
  const dir = mkdtempSync(join(tmpdir(), "cli-unreachable-"))
  try {
    const kubeconfig = unreachableKubeconfig(dir)
    const run = cli(["run", "node", "--csi-endpoint", join(dir, "csi.sock"), "--node-name", "n", "--metrics-port", "0", "--log-format", "text"],
      { KUBECONFIG: kubeconfig }, [], 15000)
    const output = run.stdout + run.stderr
    const lines = output.split("\n").filter((line) => line.includes("cannot be reached"))
    assert.equal(lines.length, 1, output)
    assert.match(lines[0]!, /level=WARN .*ECONNREFUSED 127\.0\.0\.1:1/u)
    assert.match(output, /CSI endpoint ready/u, "the role served its socket anyway")
    assert.doesNotMatch(output, /\n\s+at /u)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test("--help of each role lists upstream's settings under upstream's names", () => {
  for (const role of ["controller", "node"]) {
    const help = cli(["run", role, "--help"])
    assert.equal(help.status, 0, help.stderr)
    for (const env of ["CONSOLE_LOG_DISABLED", "CONSOLE_LOG_FORMAT", "FILE_LOG_DIRECTORY", "FILE_LOG_ROTATION_PERIOD", "FILE_LOG_MAX_FILES",
      "OTEL_TRACE_EXPORTER_ENABLED", "OTEL_LOG_EXPORTER_ENABLED", "DISABLE_CRD_MAINTENANCE", "EOS_CHECK_MODE", "EOS_INTERVAL", "EOS_DISABLED"]) {
      assert.match(help.stdout, new RegExp(`\\[env ${env}; default: [^\\]]+\\]`, "u"), `${role} --help names ${env}`)
    }
  }
})

test("an upstream setting we cannot honour is refused at start in one line saying what to use instead, exit 2", () => {
  const dir = mkdtempSync(join(tmpdir(), "cli-refused-"))
  try {
    const refusals: ReadonlyArray<readonly [Record<string, string>, RegExp]> = [
      [{ EOS_CHECK_MODE: "offline" }, /EOS_CHECK_MODE=offline is not supported: .*unset it/u],
      [{ EOS_INTERVAL: "1d" }, /EOS_INTERVAL=1d is not supported/u],
      [{ OTEL_TRACE_EXPORTER_ENABLED: "true", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }, /OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported: this operator exports OTLP over HTTP only; set http\/protobuf/u],
      [{ CONSOLE_LOG_FORMAT: "xml" }, /CONSOLE_LOG_FORMAT=xml is not supported: use plain or json/u],
      [{ FILE_LOG_ROTATION_PERIOD: "weekly" }, /FILE_LOG_ROTATION_PERIOD=weekly is not supported: use never, minutely, hourly or daily/u],
      [{ CONSOLE_LOG_LEVEL: "info,kube=debug" }, /CONSOLE_LOG_LEVEL=info,kube=debug is not supported: use one level/u]
    ]
    for (const [env, message] of refusals) {
      const run = cli(["run", "node", "--csi-endpoint", join(dir, "csi.sock"), "--node-name", "n", "--metrics-port", "0"],
        { KUBECONFIG: unreachableKubeconfig(dir), ...env }, [], 15000)
      assert.equal(run.status, 2, `${JSON.stringify(env)}: ${run.stdout}${run.stderr}`)
      assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr)
      assert.match(run.stderr, new RegExp(`^listener-operator: ${message.source}`, "u"))
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test("CONSOLE_LOG_DISABLED silences the console; FILE_LOG_DIRECTORY writes upstream's JSON lines to a rolling file", () => {
  const dir = mkdtempSync(join(tmpdir(), "cli-file-log-"))
  try {
    const logs = join(dir, "logs")
    const run = cli(["run", "node", "--csi-endpoint", join(dir, "csi.sock"), "--node-name", "n", "--metrics-port", "0"], {
      KUBECONFIG: unreachableKubeconfig(dir),
      CONSOLE_LOG_DISABLED: "true",
      FILE_LOG_DIRECTORY: logs,
      FILE_LOG_ROTATION_PERIOD: "hourly"
    }, [], 15000)
    assert.doesNotMatch(run.stdout + run.stderr, /CSI endpoint ready/u, "nothing on the console")
    const files = readdirSync(logs)
    assert.equal(files.length, 1, files.join(", "))
    assert.match(files[0]!, /^listener-operator-node\.\d{4}-\d\d-\d\d-\d\d\.tracing-rs\.json$/u)
    const lines = readFileSync(join(logs, files[0]!), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { level: string; fields: { message: string } })
    assert.ok(lines.some((l) => l.fields.message === "CSI endpoint ready" && l.level === "INFO"), JSON.stringify(lines.slice(0, 5)))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
