/**
 * The Kafka client outside the cluster: Debian's kcat (librdkafka 2.0.2) run on the host, as
 * a user's laptop would run it — one command per look-up, produce or read, and one
 * long-running consumer that must go on across broker restarts and a lost node.
 */
import { spawn } from "node:child_process"
import { join } from "node:path"
import { spawnTracked } from "../envtest/processes.ts"
import type { TrackedProcess } from "../envtest/processes.ts"

export interface KcatResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs kcat with `input` on stdin; killed after `timeoutMs` (a dead bootstrap address makes it retry for ever). */
export const kcat = (args: ReadonlyArray<string>, input = "", timeoutMs = 20_000): Promise<KcatResult> =>
  new Promise((resolve, reject) => {
    const child = spawn("kcat", [...args], { stdio: ["pipe", "pipe", "pipe"], timeout: timeoutMs, killSignal: "SIGKILL" })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => { stdout += chunk.toString() })
    child.stderr.on("data", (chunk: Buffer) => { stderr += chunk.toString() })
    child.on("error", (error) => reject(new Error(`kcat: ${error.message} (install Debian's kcat: test/install-deps.sh)`, { cause: error })))
    child.on("close", (code) => resolve({ code, stdout, stderr }))
    child.stdin.end(input)
  })

export interface Metadata {
  readonly brokers: ReadonlyArray<{ readonly id: number; readonly name: string }>
  readonly topics: ReadonlyArray<{
    readonly topic: string
    readonly error?: string
    readonly partitions: ReadonlyArray<{ readonly partition: number; readonly leader: number; readonly replicas: ReadonlyArray<{ id: number }>; readonly isrs: ReadonlyArray<{ id: number }> }>
  }>
}

/** `kcat -L -J`: the brokers (id, advertised `host:port`) and topics the cluster reports; undefined if it could not. */
export const metadata = async (bootstrap: string, topic?: string): Promise<Metadata | undefined> => {
  const run = await kcat(["-b", bootstrap, "-L", "-J", "-m", "5", ...(topic !== undefined ? ["-t", topic] : [])], "", 15_000)
  if (run.code !== 0) return undefined
  try {
    return JSON.parse(run.stdout) as Metadata
  } catch {
    return undefined
  }
}

/** Produces `message` to `partition` of `topic` and waits for the broker's acknowledgement (acks=all). */
export const produce = async (bootstrap: string, topic: string, partition: number, message: string): Promise<KcatResult> =>
  kcat(["-b", bootstrap, "-P", "-t", topic, "-p", String(partition), "-X", "message.timeout.ms=8000"], `${message}\n`, 15_000)

/** Every message of `partition` from the beginning (kcat exits at its end); undefined if it failed. */
export const readPartition = async (bootstrap: string, topic: string, partition: number): Promise<string[] | undefined> => {
  const run = await kcat(["-b", bootstrap, "-C", "-t", topic, "-p", String(partition), "-o", "beginning", "-e", "-f", "%s\\n"], "", 15_000)
  return run.code === 0 ? run.stdout.split("\n").filter((line) => line !== "") : undefined
}

export interface LongConsumer {
  /** `partition message` lines received so far. */
  readonly received: ReadonlyArray<{ readonly partition: number; readonly message: string; readonly at: number }>
  readonly process: TrackedProcess
  stop(): Promise<void>
}

/** One kcat consuming every partition of `topic` from the beginning, for as long as the test runs. */
export const startConsumer = (bootstrap: string, topic: string, logDir: string): LongConsumer => {
  const received: Array<{ partition: number; message: string; at: number }> = []
  const process = spawnTracked({
    name: "kcat-consumer",
    command: "kcat",
    args: ["-b", bootstrap, "-C", "-t", topic, "-o", "beginning", "-u", "-f", "received %p %s\\n"],
    logPath: join(logDir, "kcat-consumer.log"),
    onLine: (line) => {
      const match = /^received (\d+) (.*)$/u.exec(line)
      if (match !== null) received.push({ partition: Number(match[1]), message: match[2]!, at: Date.now() })
    }
  })
  return { received, process, stop: () => process.stop(2000) }
}
