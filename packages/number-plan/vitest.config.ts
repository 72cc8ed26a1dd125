import { parleyVitestConfig } from "../../vitest.shared.ts"

export default parleyVitestConfig
