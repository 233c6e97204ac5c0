/**
 * `helm template` of the chart with the real Helm built by test/envtest, for the tests that
 * check the chart against its documentation and against upstream's values (no API server
 * needed). Helm's cache, config and data stay in a temporary directory.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseAllDocuments } from "yaml"
import { binDir, binary } from "../envtest/binDir.ts"

export const REPO_ROOT = join(import.meta.dirname, "..", "..")
export const CHART = join(REPO_ROOT, "deploy", "helm", "listener-operator")
export const RELEASE = "lo"
export const NAMESPACE = "listener-operator"
/** The object name prefix of release RELEASE (it does not contain the chart name). */
export const FULLNAME = `${RELEASE}-listener-operator`

export interface KubeObject {
  readonly apiVersion: string
  readonly kind: string
  readonly metadata: {
    readonly name: string
    readonly namespace?: string
    readonly labels?: Record<string, string>
    readonly annotations?: Record<string, string>
  }
  readonly [field: string]: unknown
}

export interface HelmRun {
  readonly status: number
  readonly stdout: string
  readonly stderr: string
}

let home: string | undefined

/** Runs helm with `args`. */
export const helm = (args: ReadonlyArray<string>): HelmRun => {
  home ??= mkdtempSync(join(tmpdir(), "chart-render-"))
  const run = spawnSync(binary("helm", binDir()), [...args], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, HELM_CACHE_HOME: join(home, "cache"), HELM_CONFIG_HOME: join(home, "config"), HELM_DATA_HOME: join(home, "data") }
  })
  return { status: run.status ?? -1, stdout: run.stdout, stderr: run.stderr }
}

/** `helm template` with extra arguments (e.g. ["--set", "a=b"], ["-f", file], ["--api-versions", "x/v1"]). */
export const template = (...args: ReadonlyArray<string>): HelmRun =>
  helm(["template", RELEASE, CHART, "--namespace", NAMESPACE, ...args])

export const objectsOf = (yaml: string): ReadonlyArray<KubeObject> =>
  parseAllDocuments(yaml).map((d) => d.toJS() as KubeObject | null).filter((o): o is KubeObject => o !== null)

/** Renders, failing with Helm's message when Helm refuses. */
export const render = (...args: ReadonlyArray<string>): ReadonlyArray<KubeObject> => {
  const run = template(...args)
  if (run.status !== 0) throw new Error(`helm template ${args.join(" ")} failed:\n${run.stderr}`)
  return objectsOf(run.stdout)
}

/** `--set` arguments for each `key=value`. */
export const sets = (...values: ReadonlyArray<string>): ReadonlyArray<string> => values.flatMap((v) => ["--set", v])

export const find = <T extends KubeObject = KubeObject>(objects: ReadonlyArray<KubeObject>, kind: string, name: string): T => {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name)
  if (found === undefined) throw new Error(`no ${kind} ${name}; rendered: ${objects.map((o) => `${o.kind}/${o.metadata.name}`).join(", ")}`)
  return found as T
}
