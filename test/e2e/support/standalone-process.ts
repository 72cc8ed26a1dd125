/** `npm start` as a child process: the helper lives with the standalone service it starts. */
export {
  embeddedEnvironment,
  type FirstStartCredentials,
  firstStartCredentials,
  type StandaloneProcess,
  startStandaloneProcess,
  temporaryRoot,
} from "@parley/standalone/testing"
