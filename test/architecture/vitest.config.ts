import { defineConfig, mergeConfig } from "vitest/config"
import { parleyVitestConfig } from "../../vitest.shared.ts"

export default mergeConfig(
  parleyVitestConfig,
  defineConfig({ test: { include: ["**/*.test.ts"], exclude: ["node_modules/**"] } }),
)
