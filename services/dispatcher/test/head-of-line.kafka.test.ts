import { describe } from "vitest"
import { headOfLineAtScale } from "./head-of-line.ts"

describe("no head-of-line blocking on the kafka bus", () => headOfLineAtScale("kafka"))
