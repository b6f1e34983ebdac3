#!/usr/bin/env bash
# End-to-end benchmark: Herald (release) between RabbitMQ and the APNs/FCM
# simulator, side by side with a Python peer (aio-pika + aioapns + httpx) and
# the limits (h2load and the C libcurl reference against the simulator, a raw
# rabbitmq-c consume/ack/confirmed-publish loop, herald-bench-amqp), plus
# scaling curves and a plot. See bench/README.md "End to end".
#   bench/e2e.sh [--quick] [--queue-type quorum|classic] [--events N] [--only main,peer,limits,...]
# Env: HERALD_AMQP_URL (default the local broker; scripts/rabbitmq starts one if none answers).
set -euo pipefail
cd "$(dirname "$0")/.."

bench/prepare.sh herald herald-bench-amqp
cc -O2 -o .build/bench/curl-ref bench/curl-reference/ref.c $(pkg-config --cflags --libs libcurl)

if [ ! -x bench/.venv/bin/python ] || ! bench/.venv/bin/python -c 'import aio_pika, aioapns, httpx, h2, jwt, matplotlib' 2>/dev/null; then
  echo "e2e: creating bench/.venv (aio-pika, aioapns, httpx[http2], pyjwt, matplotlib from PyPI)" >&2
  python3 -m venv bench/.venv
  bench/.venv/bin/pip install -q -r bench/peers/requirements.txt
fi
exec bench/.venv/bin/python bench/e2e.py "$@"
