#!/bin/sh
# Builds the mock Kafka launcher into build/ with the system C compiler.
# Needs Debian's librdkafka-dev (rdkafka_mock.h) and cc. Builds under a per-process name and renames,
# so test files compiling at the same time never see a half-written binary.
set -eu
cd "$(dirname "$0")"
mkdir -p build
${CC:-cc} -O2 -Wall -Wextra -o "build/kafka-mock.$$" kafka-mock.c -lrdkafka
mv "build/kafka-mock.$$" build/kafka-mock
