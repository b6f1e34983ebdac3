#!/usr/bin/env bash
# Channel fan-out benchmark: a channel of 100 000 registered devices expanded
# by `herald run` (release) through the SQLite and the PostgreSQL registry and
# delivered to the simulator, beside the same devices as explicit-token
# events; register operations/s per backend. See bench/README.md "Channel fan-out".
#   bench/channel.sh [--devices N] [--provider apns|fcm] [--backends sqlite,postgres] [--rounds N] [--profile]
# Env: HERALD_AMQP_URL, HERALD_POSTGRES_URL (default the local broker and scripts/postgres).
set -euo pipefail
cd "$(dirname "$0")/.."

bench/prepare.sh herald herald-bench
scripts/postgres start >&2
exec python3 bench/channel.py "$@"
