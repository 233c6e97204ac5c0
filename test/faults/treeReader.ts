/**
 * The reader process of nodePluginCrash.test.ts: polls every target it is told about, as
 * fast as it can, and counts what it sees — every look, and every tree that was not
 * complete (`treeCheck.ts`), or that vanished after it had been seen complete (a target
 * once published is never removed in that test).
 *
 *     node --import tsx treeReader.ts <control.json> <status.json>
 *
 * The test writes `control.json` (by rename: `{ seq, stop, targets: WatchedTarget[] }`);
 * the reader picks up each new version before its next sweep and answers in
 * `status.json` (by rename) with that `seq`, so the test knows the reader watches the new
 * targets before it publishes to them. On `stop` it writes its final counts and exits.
 */
import { readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { inspectTree, type WatchedTarget } from "./treeCheck.ts";

export interface ReaderControl {
  readonly seq: number;
  readonly stop: boolean;
  readonly targets: readonly WatchedTarget[];
}

export interface ReaderStatus {
  readonly seq: number;
  readonly done: boolean;
  readonly looks: number;
  readonly complete: number;
  readonly failures: number;
  /** The first failures, each `target: why`. */
  readonly samples: readonly string[];
}

const [controlPath, statusPath] = process.argv.slice(2) as [string, string];
if (controlPath === undefined || statusPath === undefined) throw new Error("usage: treeReader.ts <control.json> <status.json>");

let control: ReaderControl = { seq: 0, stop: false, targets: [] };
let controlInode = -1;
let looks = 0;
let complete = 0;
let failures = 0;
const samples: string[] = [];
/** Targets seen complete: they must never be absent again. */
const published = new Set<string>();

const writeStatus = (done: boolean): void => {
  const status: ReaderStatus = { seq: control.seq, done, looks, complete, failures, samples };
  writeFileSync(`${statusPath}.tmp`, JSON.stringify(status));
  renameSync(`${statusPath}.tmp`, statusPath);
};

const fail = (target: string, why: string): void => {
  failures++;
  if (samples.length < 20) samples.push(`${target}: ${why}`);
};

const reload = (): void => {
  let inode: number;
  try {
    inode = statSync(controlPath).ino;
  } catch {
    return; // not written yet
  }
  if (inode === controlInode) return;
  controlInode = inode;
  control = JSON.parse(readFileSync(controlPath, "utf8")) as ReaderControl;
  const watched = new Set(control.targets.map((t) => t.path));
  for (const path of [...published]) if (!watched.has(path)) published.delete(path);
  writeStatus(false);
};

let lastStatus = Date.now();
const sweep = (): void => {
  reload();
  if (control.stop) {
    writeStatus(true);
    process.exit(0);
  }
  for (const target of control.targets) {
    const seen = inspectTree(target);
    looks++;
    if (seen.kind === "complete") {
      complete++;
      published.add(target.path);
    } else if (seen.kind === "broken") fail(target.path, seen.why);
    else if (published.has(target.path)) fail(target.path, "vanished after it was complete");
  }
  if (Date.now() - lastStatus > 1000) {
    lastStatus = Date.now();
    writeStatus(false);
  }
  setImmediate(sweep);
};
sweep();
