import { test } from "node:test"
import assert from "node:assert/strict"
import { makeObjectBudgets } from "../../../adapters/events/objectBudgets.ts"

const MINUTE = 60_000

test("objectBudgets: burst tokens, then one per refill period", () => {
  const budgets = makeObjectBudgets({ burst: 2, refillMillis: MINUTE, maxObjects: 10 })
  assert.deepEqual([budgets.take("a", 0), budgets.take("a", 0), budgets.take("a", 0)], [true, true, false])
  assert.equal(budgets.take("a", MINUTE - 1), false)
  assert.deepEqual([budgets.take("a", MINUTE), budgets.take("a", MINUTE)], [true, false])
})

test("objectBudgets: at the bound, refilled buckets are dropped before any spent one", () => {
  const budgets = makeObjectBudgets({ burst: 2, refillMillis: MINUTE, maxObjects: 3 })
  budgets.take("spent", 0)
  budgets.take("spent", 0)
  budgets.take("full-again", 0)
  budgets.take("spent-too", 90_000)
  budgets.take("spent-too", 90_000)
  // At 2 minutes: "spent" has 2 back (full), "full-again" is full, "spent-too" has 0.
  budgets.take("newcomer", 2 * MINUTE)
  assert.equal(budgets.size(), 2, "both full buckets dropped: nothing is lost by forgetting them")
  assert.equal(budgets.take("spent-too", 2 * MINUTE), false, "the spent budget is remembered")
})

test("objectBudgets: with no bucket full, the least recently used goes, and the map never exceeds the bound", () => {
  const budgets = makeObjectBudgets({ burst: 1, refillMillis: 60 * MINUTE, maxObjects: 3 })
  for (const key of ["a", "b", "c"]) assert.equal(budgets.take(key, 0), true)
  assert.equal(budgets.take("a", 1), false, "a used recently (and spent)")
  assert.equal(budgets.take("d", 2), true)
  assert.equal(budgets.size(), 3)
  assert.equal(budgets.take("a", 3), false, "a was kept")
  assert.equal(budgets.take("c", 3), false, "c was kept")
  // b was the least recently used: forgotten, it starts full again.
  assert.equal(budgets.take("b", 3), true)
  // Node churn of objects: thousands of one-off objects keep the map at the bound.
  for (let i = 0; i < 5_000; i++) budgets.take(`object-${i}`, 10)
  assert.equal(budgets.size(), 3)
})
