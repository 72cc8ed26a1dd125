import { defineConfig } from "vitest/config"

/**
 * One Vitest configuration for every workspace: resolve `@parley/*` to their TypeScript sources
 * (the `source` export condition), run test files in forks so that each file owns its sockets,
 * and give integration tests room for real Postgres, Redis and Kafka.
 */
export const parleyVitestConfig = defineConfig({
  resolve: { conditions: ["source"] },
  ssr: { resolve: { conditions: ["source"], externalConditions: ["source"] } },
  test: {
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    reporters: ["default"],
  },
})
