import { defineConfig, mergeConfig } from "vitest/config"
import { parleyVitestConfig } from "../../vitest.shared.ts"

/**
 * Unit tests beside the code (`src/**`) and browser tests (`test/**`), each browser test file
 * with one Parley (`npm start`'s entry point) and one Chromium of its own. The global setup builds
 * the console when its `dist/` is stale, as `npm start` does.
 */
export default mergeConfig(
  parleyVitestConfig,
  defineConfig({
    test: {
      globalSetup: ["test/support/global-setup.ts"],
      // One Parley and one Chromium at a time: two of each at once on a 2-core machine starve both.
      fileParallelism: false,
      testTimeout: 60_000,
      hookTimeout: 120_000,
    },
  }),
)
