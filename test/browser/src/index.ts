/** `@parley/browser-testing`: the one browser-test setup of the console and the widget. */
export { type AccessibilityScanOptions, expectAccessible } from "./accessibility.ts"
export { chromiumPath, launchChromium } from "./chromium.ts"
export { expectNothingCutOff, type LayoutCheckOptions, layoutProblems } from "./layout.ts"
export { type PageWatch, type PageWatchOptions, watchPage } from "./page-watch.ts"
export { saveScreenshot, screenshotDir, VIEWPORTS } from "./screenshots.ts"
