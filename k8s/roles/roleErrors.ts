/**
 * How a role fails to start, as typed errors (every failure of a running role is handled
 * inside it: logged, retried, or reported by readiness):
 * - `RoleSettingMissing`: a setting the role cannot run without (the node role's node name).
 * - `CsiServerError` (csi/socket.ts): the CSI or registration socket cannot be served.
 */
import { Data } from "effect"
import type { CsiServerError } from "../../csi/socket.ts"

export class RoleSettingMissing extends Data.TaggedError("RoleSettingMissing")<{
  /** The flag that sets it (its environment variable is named in the message). */
  readonly flag: string
  readonly message: string
}> {}

export type ControllerRoleError = CsiServerError
export type NodeRoleError = CsiServerError | RoleSettingMissing
