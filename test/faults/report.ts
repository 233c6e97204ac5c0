/**
 * Figures of the fault suite: each scenario prints one `FAULTS <name> {json}` line and
 * appends it to $FAULTS_REPORT (a JSON-lines file) when set, so docs/reliability.md can
 * quote the last full run.
 */
import { appendFileSync } from "node:fs";

export const report = (scenario: string, figures: Record<string, unknown>): void => {
  const line = JSON.stringify({ scenario, at: new Date().toISOString(), ...figures });
  console.log(`FAULTS ${line}`);
  const file = process.env["FAULTS_REPORT"];
  if (file !== undefined && file !== "") appendFileSync(file, `${line}\n`);
};
