/** Helpers shared by the domain decoding tests. */
import assert from "node:assert/strict"
import { Result } from "effect"
import type { DecodeError } from "../../../domain/decode.ts"

export const expectSuccess = <A>(result: Result.Result<A, DecodeError>): A => {
  if (Result.isFailure(result)) assert.fail(`expected success, got: ${result.failure.message}`)
  return result.success
}

export const expectFailure = <A>(result: Result.Result<A, DecodeError>): DecodeError => {
  if (Result.isSuccess(result)) assert.fail(`expected a DecodeError, decoded: ${JSON.stringify(result.success)}`)
  return result.failure
}

/** Asserts that the error names `path` and that its message says `fragment` there. */
export const assertIssue = (error: DecodeError, path: string, fragment: string | RegExp): void => {
  const issue = error.issues.find((i) => i.path === path)
  assert.ok(issue, `no issue at ${path}; issues: ${JSON.stringify(error.issues)}`)
  if (typeof fragment === "string") assert.ok(issue.message.includes(fragment), `message at ${path}: ${issue.message}`)
  else assert.match(issue.message, fragment)
  assert.ok(error.message.includes(`${path === "" ? "" : `${path}: `}${issue.message}`), error.message)
}

/** Metadata as the API server stores it. */
export const storedMeta = (name: string, namespace?: string) => ({
  name,
  uid: `uid-${name}`,
  resourceVersion: "1",
  creationTimestamp: "2024-05-01T10:00:00Z",
  ...(namespace === undefined ? {} : { namespace })
})
