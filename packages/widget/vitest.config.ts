import { defineConfig, mergeConfig } from "vitest/config"
import { parleyVitestConfig } from "../../vitest.shared.ts"

/**
 * Unit tests beside the code (`src/**`), browser tests in `test/`: each browser test file starts its
 * own Parley (`npm start` as a child) and its own Chromium. The global setup builds the widget first
 * when its `dist/` is stale, as `npm start` would, so the tests always drive the current sources.
 */
export default mergeConfig(
  parleyVitestConfig,
  defineConfig({
    test: {
      globalSetup: ["test/support/build-first.ts"],
      testTimeout: 60_000,
      hookTimeout: 120_000,
      // Every wait in the browser tests is a bounded poll on something the page shows; 1 s (Vitest's
      // default) is too short for an assistant's reply on a loaded 2-core CI machine.
      expect: { poll: { timeout: 15_000 } },
    },
  }),
)
