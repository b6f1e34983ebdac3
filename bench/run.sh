#!/usr/bin/env bash
# HTTP/2 transport benchmark: builds herald-bench (release) and the C
# reference client, then runs our client → our server, the C reference →
# our server and h2load → our server in one run. Figures go in bench/README.md.
#
# usage: bench/run.sh [herald-bench http2 options], e.g. --requests 100000 --repeat 5
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product herald-bench >&2
mkdir -p .build/bench
cc -O2 -o .build/bench/curl-ref bench/curl-reference/ref.c $(pkg-config --cflags --libs libcurl)
exec .build/release/herald-bench http2 --ref .build/bench/curl-ref "$@"
