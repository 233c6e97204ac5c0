/** The Grafana dashboard of deploy/grafana/ and its panels' queries, as Prometheus runs them. */
import { readFileSync } from "node:fs"
import { join } from "node:path"

export const DASHBOARD_PATH = join(import.meta.dirname, "..", "..", "deploy", "grafana", "listener-operator.json")

export interface DashboardPanel {
  readonly title: string
  readonly type: string
  readonly targets: ReadonlyArray<{ readonly expr: string }>
}

export const dashboardPanels = (): ReadonlyArray<DashboardPanel> =>
  (JSON.parse(readFileSync(DASHBOARD_PATH, "utf8")) as { panels: DashboardPanel[] }).panels

/** A panel query with Grafana's variables replaced: `$__rate_interval` becomes `rateWindow`. */
export const promql = (expr: string, rateWindow: string): string => expr.replaceAll("$__rate_interval", rateWindow)
