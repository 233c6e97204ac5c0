import { test } from "node:test"
import assert from "node:assert/strict"
import { planVolumeTree, UnsafeVolumeEntry } from "../../../domain/volumeTree.ts"

test("the tree lists each address with its ports and links default-address to the first", () => {
  const plan = planVolumeTree([
    { address: "10.0.0.5", addressType: "IP", ports: { https: 31443, http: 31080 } },
    { address: "node-b.example", addressType: "Hostname", ports: { http: 80 } }
  ])
  assert.ok(!(plan instanceof UnsafeVolumeEntry))
  assert.deepEqual(plan.entries, [
    { type: "directory", path: "addresses" },
    { type: "directory", path: "addresses/10.0.0.5" },
    { type: "file", path: "addresses/10.0.0.5/address", contents: "10.0.0.5" },
    { type: "directory", path: "addresses/10.0.0.5/ports" },
    { type: "file", path: "addresses/10.0.0.5/ports/http", contents: "31080" },
    { type: "file", path: "addresses/10.0.0.5/ports/https", contents: "31443" },
    { type: "directory", path: "addresses/node-b.example" },
    { type: "file", path: "addresses/node-b.example/address", contents: "node-b.example" },
    { type: "directory", path: "addresses/node-b.example/ports" },
    { type: "file", path: "addresses/node-b.example/ports/http", contents: "80" },
    { type: "symlink", path: "default-address", target: "addresses/10.0.0.5" }
  ])
})

test("duplicate addresses collapse to one directory", () => {
  const plan = planVolumeTree([
    { address: "a.example", addressType: "Hostname", ports: { http: 1 } },
    { address: "a.example", addressType: "Hostname", ports: { http: 2 } }
  ])
  assert.ok(!(plan instanceof UnsafeVolumeEntry))
  assert.equal(plan.entries.filter((e) => e.path === "addresses/a.example").length, 1)
  assert.deepEqual(plan.entries.find((e) => e.path === "addresses/a.example/ports/http"), {
    type: "file", path: "addresses/a.example/ports/http", contents: "1"
  })
})

test("no addresses plans only the addresses directory", () => {
  assert.deepEqual(planVolumeTree([]), { entries: [{ type: "directory", path: "addresses" }] })
})

test("hostile addresses, port names and numbers are refused and name the value", () => {
  const cases: ReadonlyArray<[Parameters<typeof planVolumeTree>[0], string, string]> = [
    [[{ address: "../../x", addressType: "Hostname", ports: {} }], "address", "../../x"],
    [[{ address: "a/b", addressType: "Hostname", ports: {} }], "address", "a/b"],
    [[{ address: "", addressType: "IP", ports: {} }], "address", ""],
    [[{ address: "ok.example", addressType: "Hostname", ports: { "../evil": 1 } }], "port name", "../evil"],
    [[{ address: "ok.example", addressType: "Hostname", ports: { http: 0 } }], "port number", "0"],
    [[{ address: "ok.example", addressType: "Hostname", ports: { http: 1.5 } }], "port number", "1.5"]
  ]
  for (const [addresses, field, value] of cases) {
    const plan = planVolumeTree(addresses)
    assert.ok(plan instanceof UnsafeVolumeEntry, `${field} ${value} refused`)
    assert.equal(plan.field, field)
    assert.equal(plan.value, value)
    assert.match(plan.message, new RegExp(`refusing to write ${field}`))
  }
})
