#!/usr/bin/env bash
# What the end-to-end benchmarks (bench/e2e.sh, bench/channel.sh) need before
# they start: the broker (scripts/rabbitmq start, if none answers), the
# development keys, release builds of the given SwiftPM products, and
# bench/loadgen in .build/bench.
#   bench/prepare.sh PRODUCT...
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/rabbitmq start >&2
scripts/dev-keys >/dev/null
echo "bench: building $* (release)" >&2
for product in "$@"; do
  swift build -c release --product "$product" 2>&1 | tail -1 >&2
done
mkdir -p .build/bench
cc -O2 -Wall -o .build/bench/loadgen bench/loadgen/loadgen.c -lrabbitmq -lpthread
