/**
 * Which Listener a listener volume binds to: exactly one of the two PVC annotations
 * (spec §4), read from the PVC at provisioning and from the frozen volume context at
 * publishing. Both or neither is refused (INVALID_ARGUMENT).
 */
import { PVC_ANNOTATION_LISTENER_CLASS, PVC_ANNOTATION_LISTENER_NAME } from "../../domain/constants.ts"
import { ListenerSelectionInvalid } from "./volumeErrors.ts"

export type ListenerSelection =
  | { readonly _tag: "ListenerName"; readonly listenerName: string }
  | { readonly _tag: "ListenerClass"; readonly className: string }

const nonEmpty = (value: string | undefined): string | undefined =>
  value === undefined || value === "" ? undefined : value

/**
 * The selection named by `annotations` (PVC annotations or a volume context). An empty
 * value counts as absent. `source` names what was inspected, for the error message.
 */
export const listenerSelectionOf = (
  annotations: Readonly<Record<string, string>> | undefined,
  source: string
): ListenerSelection | ListenerSelectionInvalid => {
  const listenerName = nonEmpty(annotations?.[PVC_ANNOTATION_LISTENER_NAME])
  const className = nonEmpty(annotations?.[PVC_ANNOTATION_LISTENER_CLASS])
  if (listenerName !== undefined && className !== undefined) return new ListenerSelectionInvalid({ source, problem: "both" })
  if (listenerName !== undefined) return { _tag: "ListenerName", listenerName }
  if (className !== undefined) return { _tag: "ListenerClass", className }
  return new ListenerSelectionInvalid({ source, problem: "neither" })
}

/** The annotations that record `selection`: what the volume context freezes. */
export const selectionAnnotations = (selection: ListenerSelection): Record<string, string> =>
  selection._tag === "ListenerName"
    ? { [PVC_ANNOTATION_LISTENER_NAME]: selection.listenerName }
    : { [PVC_ANNOTATION_LISTENER_CLASS]: selection.className }
