import { test } from "node:test"
import assert from "node:assert/strict"
import { Cause, Effect, Exit, Path, Terminal } from "effect"
import type { Scope } from "effect"
import { ChildProcessSpawner } from "effect/process"
import { cliServicesLayer } from "../../../k8s/operability/cliServices.ts"

const run = <A, E>(effect: Effect.Effect<A, E, Terminal.Terminal | Path.Path | ChildProcessSpawner.ChildProcessSpawner | Scope.Scope>) =>
  Effect.runPromiseExit(effect.pipe(Effect.scoped, Effect.provide(cliServicesLayer)))

test("the CLI's terminal writes to stdout and knows its width; prompts and child processes are refused, saying why", async () => {
  const columns = await run(Terminal.Terminal.use((terminal) => terminal.columns))
  assert.ok(Exit.isSuccess(columns) && columns.value > 0)
  const written: string[] = []
  const write = process.stdout.write.bind(process.stdout)
  process.stdout.write = ((chunk: string) => (written.push(chunk), true)) as typeof process.stdout.write
  try {
    assert.ok(Exit.isSuccess(await run(Terminal.Terminal.use((terminal) => terminal.display("shown\n")))))
  } finally {
    process.stdout.write = write
  }
  assert.deepEqual(written, ["shown\n"])

  const prompt = await run(Terminal.Terminal.use((terminal) => terminal.readLine))
  assert.ok(Exit.isFailure(prompt))
  assert.match(Cause.pretty(prompt.cause), /no interactive prompts/u)
  const spawned = await run(ChildProcessSpawner.ChildProcessSpawner.use((spawner) => spawner.spawn({} as never)))
  assert.ok(Exit.isFailure(spawned))
  assert.match(Cause.pretty(spawned.cause), /starts no child processes/u)
  const path = await run(Path.Path.useSync((p) => p.join("a", "b")))
  assert.ok(Exit.isSuccess(path) && path.value === "a/b")
})
