#!/usr/bin/python3
"""Delete dead device tokens that Herald reports (pika).

    consume_invalid.py [--queue chat-backend.invalid-tokens] [--once] [--timeout SECONDS]

Binds a durable queue to the `herald.results` topic exchange with
`invalid_token.#` (routing keys are `<status>.<provider>.<app>`; use
`invalid_token.*.chat` for one app) and handles each outcome
(schemas/outcome.schema.json). This example prints the token where a real
service would delete it from its database.

Delivery is at least once: the same outcome can arrive twice, so deleting
must be idempotent (deleting a token that is already gone is fine).

The queue is durable and named (a quorum queue) on purpose: a service that
deletes dead tokens must not miss the outcomes published while it is down,
so the queue outlives this process and goes on collecting `invalid_token`
outcomes until it is deleted. After trying the example, delete it:
`rabbitmqctl delete_queue chat-backend.invalid-tokens` (or the management
UI). To watch outcomes only while a program runs, declare a server-named
exclusive queue instead: `channel.queue_declare("", exclusive=True)`.
"""
import argparse
import json
import os
import sys
import time

import pika

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--url", default=os.environ.get("HERALD_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2f"))
parser.add_argument("--exchange", default="herald.results")
parser.add_argument("--queue", default="chat-backend.invalid-tokens")
parser.add_argument("--binding", default="invalid_token.#")
parser.add_argument("--once", action="store_true", help="exit after the first outcome")
parser.add_argument("--timeout", type=float, help="exit 1 if no outcome arrives within this many seconds")
args = parser.parse_args()


def delete_token(outcome):
    """Where a real service deletes the token (or the FID, for an FCM device
    addressed by its Firebase installation ID). Apple's advice: keep it if the
    device registered it again after `invalidated_at`."""
    kind = next((field for field in ("token", "fid") if field in outcome), None)
    if kind is None:
        return  # topics and conditions are never invalid tokens
    print(
        f"delete {kind} {outcome[kind]} (provider {outcome.get('provider')}, app {outcome.get('app')}, "
        f"reason {outcome.get('reason')}, invalidated_at {outcome.get('invalidated_at', '-')}, "
        f"event {outcome['event_id']})",
        flush=True,
    )


connection = pika.BlockingConnection(pika.URLParameters(args.url))
channel = connection.channel()
channel.exchange_declare(args.exchange, exchange_type="topic", durable=True)  # same arguments as Herald
# Durable, named and replicated: outcomes published while this service is down
# wait for it (it stays until deleted; see the docstring).
channel.queue_declare(args.queue, durable=True, arguments={"x-queue-type": "quorum"})
channel.queue_bind(args.queue, args.exchange, routing_key=args.binding)
channel.basic_qos(prefetch_count=50)

deadline = time.monotonic() + args.timeout if args.timeout else None
status = 0
try:
    for method, _properties, body in channel.consume(args.queue, inactivity_timeout=1):
        if method is None:  # nothing for a second
            if deadline is not None and time.monotonic() > deadline:
                print(f"consume_invalid: no outcome within {args.timeout:g}s", file=sys.stderr)
                status = 1
                break
            continue
        try:
            outcome = json.loads(body)
        except ValueError:
            # Not an outcome: dead-letter it (or drop it) rather than loop on it forever.
            channel.basic_nack(method.delivery_tag, requeue=False)
            continue
        delete_token(outcome)
        channel.basic_ack(method.delivery_tag)  # only after the token is gone
        if args.once:
            break
except KeyboardInterrupt:
    pass
finally:
    channel.cancel()
    connection.close()
sys.exit(status)
