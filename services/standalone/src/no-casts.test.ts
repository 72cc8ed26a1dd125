import { typeCastsIn } from "@parley/platform/testing"
import { describe, expect, it } from "vitest"

describe("the standalone process's sources", () => {
  it("keep their types from the decoder to the handler: no cast to never, through unknown, or to a branded id", () => {
    expect(typeCastsIn(new URL("./", import.meta.url))).toEqual([])
  })
})
