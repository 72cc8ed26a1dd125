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
exec node "/app/services/${service}/dist/main.js"
