/**
 * Durations as Kubernetes APIs write them (Go's time.Duration text, e.g. `90s`, `10m`,
 * `1h30m`), restricted to whole hours, minutes, seconds and milliseconds so that the CRD
 * pattern and this parser accept exactly the same strings.
 */
import { Schema } from "effect"

export const DURATION_PATTERN = /^(?:[0-9]+(?:h|m|s|ms))+$/u

const UNIT_MILLIS: Readonly<Record<string, number>> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 }

/** Milliseconds of a duration text matching DURATION_PATTERN; undefined otherwise. */
export const parseDurationMillis = (text: string): number | undefined => {
  if (!DURATION_PATTERN.test(text)) return undefined
  let total = 0
  for (const [, amount, unit] of text.matchAll(/([0-9]+)(ms|h|m|s)/gu)) total += Number(amount) * UNIT_MILLIS[unit!]!
  return total
}

export const DurationText = Schema.String.check(
  Schema.isPattern(DURATION_PATTERN, { expected: "a duration such as 90s, 10m or 1h30m (units h, m, s, ms)" })
)
