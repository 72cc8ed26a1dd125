import { describe } from "vitest"
import { headOfLineAtScale } from "./head-of-line.ts"

describe("no head-of-line blocking on the single-node bus", () => headOfLineAtScale("single-node"))
