import { defineConfig, mergeConfig } from "vitest/config"
import { parleyVitestConfig } from "../../vitest.shared.ts"

// Three files at a time: they mostly wait (Kafka joins, retry schedules, killed and restarted
// processes), and three of them peaked at 53 Postgres connections.
export default mergeConfig(parleyVitestConfig, defineConfig({ test: { maxWorkers: 3 } }))
