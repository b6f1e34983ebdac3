#!/usr/bin/env bash
# Confirmed-publish and consume+ack rates: HeraldAMQP (herald-bench-amqp) side
# by side with Debian's amqp-tools, against one broker, in one run.
#   bench/amqp.sh [COUNT] [SIZE]     (defaults 20000 messages of 256 bytes)
# Env: HERALD_AMQP_URL (default the local test broker), TOOLS_CONSUME_COUNT
# (default 2000: amqp-consume runs a command per message, so it is slow).
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-20000}
size=${2:-256}
url=${HERALD_AMQP_URL:-amqp://guest:guest@127.0.0.1:5672/%2f}
tools_consume=${TOOLS_CONSUME_COUNT:-2000}
queue="bench.amqp.$$"

swift build -c release --product herald-bench-amqp >/dev/null
bin=$(swift build -c release --show-bin-path)/herald-bench-amqp

now() { date +%s.%N; }
rate() { awk -v n="$1" -v s="$2" -v e="$3" 'BEGIN { d = e - s; printf "messages=%d seconds=%.3f rate=%d/s", n, d, n / d }'; }

echo "# $(date -u +%FT%TZ) $(nproc) cores, broker $(rabbitmqctl version 2>/dev/null || echo '?'), $count x ${size} B, queue $queue"
"$bin" setup --url "$url" --queue "$queue"
"$bin" publish --url "$url" --queue "$queue" --count "$count" --size "$size" --window 512
"$bin" consume --url "$url" --queue "$queue" --count "$count" --prefetch 256

body=$(head -c "$size" /dev/zero | tr '\0' x)
start=$(now)
set +o pipefail  # `yes` dies of SIGPIPE once head has enough
yes "$body" | head -n "$count" | amqp-publish --url "$url" -r "$queue" -p -l
set -o pipefail
end=$(now)
echo "tool=amqp-publish op=publish-unconfirmed $(rate "$count" "$start" "$end") size=$size"

start=$(now)
amqp-consume --url "$url" -q "$queue" -c "$tools_consume" -p 256 cat >/dev/null
end=$(now)
echo "tool=amqp-consume op=consume-ack $(rate "$tools_consume" "$start" "$end") prefetch=256 (forks 'cat' per message)"

"$bin" teardown --url "$url" --queue "$queue"
