#!/bin/sh
# Runs the service named by PARLEY_SERVICE (or the first argument) from its built output.
set -eu
service="${1:-${PARLEY_SERVICE:-}}"
case "$service" in
  gateway|identity|webhook-registry|dispatcher|assistant|messaging|standalone) ;;
  *)
    echo "parley: PARLEY_SERVICE must be one of gateway, identity, webhook-registry, dispatcher, assistant, messaging, standalone (got '${service}')" >&2
    exit 64
    ;;
esac
# A service's Node/V8 flags, if it has any (services/<name>/node-options; `#` lines are comments).
options="$(grep -v '^#' "/app/services/${service}/node-options" 2>/dev/null || true)"
# shellcheck disable=SC2086 # the flags are words
exec node $options "/app/services/${service}/dist/main.js"
