// Reads what the Dockerfile's final stage says about the image — base, WORKDIR, ENV,
// COPY (with the stage each source comes from), USER, ENTRYPOINT — so that the offline
// image recipe (images.ts) builds the same image, and a test can check they agree.
import { readFileSync } from "node:fs";

export interface DockerCopy {
  /** The stage named by --from, or undefined for the build context. */
  readonly from: string | undefined;
  readonly source: string;
  /** Absolute path in the image (relative destinations resolve against WORKDIR). */
  readonly destination: string;
  readonly line: number;
}

export interface FinalStage {
  readonly base: string;
  readonly workdir: string;
  readonly env: readonly string[];
  readonly copies: readonly DockerCopy[];
  readonly user: string | undefined;
  readonly entrypoint: readonly string[];
}

/** Logical lines: comments dropped, backslash continuations joined, with their first line number. */
const logicalLines = (text: string): Array<{ text: string; line: number }> => {
  const out: Array<{ text: string; line: number }> = [];
  let current = "";
  let start = 0;
  text.split("\n").forEach((raw, index) => {
    const trimmed = raw.trim();
    if (current === "" && (trimmed === "" || trimmed.startsWith("#"))) return;
    if (current === "") start = index + 1;
    if (trimmed.endsWith("\\")) current += `${trimmed.slice(0, -1)} `;
    else {
      out.push({ text: current + trimmed, line: start });
      current = "";
    }
  });
  return out;
};

const resolveIn = (workdir: string, path: string): string => {
  if (path.startsWith("/")) return path;
  const joined = `${workdir.replace(/\/$/u, "")}/${path.replace(/^\.\//u, "")}`;
  return joined.replace(/\/\.?$/u, "");
};

export function readFinalStage(dockerfilePath: string): FinalStage {
  const lines = logicalLines(readFileSync(dockerfilePath, "utf8"));
  const lastFrom = lines.map((l) => /^FROM\s/iu.test(l.text)).lastIndexOf(true);
  if (lastFrom < 0) throw new Error(`${dockerfilePath}: no FROM instruction`);
  const args = new Map<string, string>();
  for (const l of lines.slice(0, lastFrom)) {
    const m = /^ARG\s+([A-Za-z_][A-Za-z0-9_]*)=(\S+)$/u.exec(l.text);
    if (m !== null) args.set(m[1]!, m[2]!);
  }
  const expand = (s: string): string => s.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/gu, (_, name: string) => args.get(name) ?? "");
  let workdir = "/";
  const env: string[] = [];
  const copies: DockerCopy[] = [];
  let user: string | undefined;
  let entrypoint: string[] = [];
  const base = expand(lines[lastFrom]!.text.split(/\s+/u)[1] ?? "");
  for (const { text, line } of lines.slice(lastFrom + 1)) {
    const [instruction, ...rest] = text.split(/\s+/u);
    const argument = text.slice(instruction!.length).trim();
    switch (instruction!.toUpperCase()) {
      case "WORKDIR":
        workdir = resolveIn(workdir, argument);
        break;
      case "ENV":
        env.push(...rest);
        break;
      case "USER":
        user = argument;
        break;
      case "ENTRYPOINT":
        entrypoint = JSON.parse(argument) as string[];
        break;
      case "COPY": {
        const from = rest.find((r) => r.startsWith("--from="))?.slice("--from=".length);
        const paths = rest.filter((r) => !r.startsWith("--"));
        if (paths.length !== 2) throw new Error(`${dockerfilePath}:${line}: COPY with ${paths.length} paths is not supported by the offline recipe`);
        copies.push({ from, source: paths[0]!, destination: resolveIn(workdir, paths[1]!), line });
        break;
      }
      default:
        throw new Error(`${dockerfilePath}:${line}: ${instruction} in the final stage is not supported by the offline recipe`);
    }
  }
  return { base, workdir, env, copies, user, entrypoint };
}
