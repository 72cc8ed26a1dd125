import { defineConfig } from "vitest/config"

/**
 * One Vitest configuration for every workspace: resolve `@parley/*` to their TypeScript sources
 * (the `source` export condition), run test files in forks so that each file owns its sockets,
 * and give integration tests room for real Postgres, Redis and Kafka. Two files at a time even on
 * a 2-core machine (Vitest's default there is one): the integration tests spend most of their time
 * waiting — on consumer groups joining, retry schedules, child processes starting — and one at a
 * time the suite took ~10 minutes of a CI run. More at once can exhaust a default Postgres's 100
 * connections (three gateway or e2e files peaked at 95); packages whose files use fewer raise it.
 */

export const parleyVitestConfig = defineConfig({
  resolve: { conditions: ["source"] },
  ssr: { resolve: { conditions: ["source"], externalConditions: ["source"] } },
  test: {
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    reporters: ["default"],
  },
})
