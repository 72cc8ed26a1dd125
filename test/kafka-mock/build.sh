#!/bin/sh
# Builds the mock Kafka launcher into build/ with the system C compiler.
# Needs Debian's librdkafka-dev (rdkafka_mock.h) and cc.
set -eu
cd "$(dirname "$0")"
mkdir -p build
${CC:-cc} -O2 -Wall -Wextra -o build/kafka-mock.tmp kafka-mock.c -lrdkafka
mv build/kafka-mock.tmp build/kafka-mock
