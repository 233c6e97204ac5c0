/**
 * The platform services the command-line parser asks for (effect/cli's Command.run):
 * Node's file system, paths and standard streams, and a terminal that writes to stdout.
 * Interactive prompts and child processes are never used by this program, so their
 * services refuse instead of loading Node's readline and child_process (and their
 * dependencies) into every role process (docs/performance.md, footprint).
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import * as NodeStdio from "@effect/platform-node/NodeStdio"
import { Effect, Layer, Terminal } from "effect"
import { ChildProcessSpawner } from "effect/process"

const notInteractive = Effect.die(new Error("listener-operator has no interactive prompts"))

const terminal = Terminal.make({
  columns: Effect.sync(() => process.stdout.columns ?? 80),
  rows: Effect.sync(() => process.stdout.rows ?? 24),
  size: notInteractive,
  readInput: notInteractive,
  readLine: notInteractive,
  display: (text) => Effect.sync(() => void process.stdout.write(text))
})

export const cliServicesLayer = Layer.mergeAll(
  NodeFileSystem.layer,
  NodePath.layer,
  NodeStdio.layer,
  Layer.succeed(Terminal.Terminal, terminal),
  Layer.succeed(
    ChildProcessSpawner.ChildProcessSpawner,
    ChildProcessSpawner.make(() => Effect.die(new Error("listener-operator starts no child processes")))
  )
)
