// Renders the Helm chart with its default values into plain manifests for users without
// Helm (`kubectl apply -f deploy/manifests/`). Run `npm run manifests` after changing the
// chart; test/integration/manifests.test.ts fails when the committed files drift.
//
// Usage: tsx deploy/renderManifests.ts [--check]   (--check: exit 1 if the files differ)
import { execFileSync } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { binary, binDir } from "../test/envtest/binDir.ts"

const here = import.meta.dirname
const CHART = join(here, "helm", "listener-operator")
export const MANIFESTS = join(here, "manifests", "listener-operator.yaml")
const NAMESPACE = "listener-operator"

export function renderManifests(): string {
  const rendered = execFileSync(binary("helm", binDir()), [
    "template", "listener-operator", CHART, "--namespace", NAMESPACE, "--include-crds"
  ], { encoding: "utf8", env: { ...process.env, HELM_CACHE_HOME: "/tmp/helm-cache", HELM_CONFIG_HOME: "/tmp/helm-config", HELM_DATA_HOME: "/tmp/helm-data" } })
  return [
    "# listener-operator, rendered from deploy/helm/listener-operator with its default values",
    "# by `npm run manifests` (do not edit: change the chart and re-render).",
    "# Install: kubectl apply --server-side -f deploy/manifests/",
    "---",
    "apiVersion: v1",
    "kind: Namespace",
    "metadata:",
    `  name: ${NAMESPACE}`,
    rendered.trimEnd(),
    ""
  ].join("\n")
}

if (process.argv[1] === import.meta.filename) {
  const rendered = renderManifests()
  if (process.argv.includes("--check")) {
    const committed = readFileSync(MANIFESTS, "utf8")
    if (committed !== rendered) {
      process.stderr.write(`${MANIFESTS} differs from the chart: run npm run manifests\n`)
      process.exitCode = 1
    }
  } else {
    writeFileSync(MANIFESTS, rendered)
    process.stdout.write(`wrote ${MANIFESTS}\n`)
  }
}
