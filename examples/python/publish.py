#!/usr/bin/python3
"""Publish one notification event to Herald (pika).

    publish.py --token 0a1b... [--provider apns] [--routing-key chat.message]

The event goes to the `herald.events` topic exchange as a persistent message
with publisher confirms: when this script returns, the broker has the event
on disk and Herald will deliver it at least once. The schema of the body is
schemas/event.schema.json.
"""
import argparse
import json
import os
import sys
import uuid

import pika

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--url", default=os.environ.get("HERALD_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2f"))
parser.add_argument("--exchange", default="herald.events")
parser.add_argument("--routing-key", default="chat.message", help="routing rules in config.yaml can match on it")
parser.add_argument("--provider", default="apns", choices=["apns", "fcm", "ios", "android"])
parser.add_argument("--token", required=True, help="the device token (APNs: hexadecimal)")
parser.add_argument("--app", default="chat", help="an app under `apps:` in Herald's config.yaml")
args = parser.parse_args()

event_id = f"evt-{uuid.uuid4()}"  # idempotency key: a redelivered event keeps it
event = {
    "id": event_id,
    "app": args.app,
    "targets": [{"provider": args.provider, "token": args.token}],
    "notification": {"title": "New message", "body": "Alice: hi", "sound": "default"},
    "data": {"thread_id": 42},          # FCM receives every value as a string
    "collapse_id": "thread-42",         # a newer message replaces an older one on the device
    "ttl": 3600,                        # not worth delivering after an hour
    "context": {"user_id": "u-1"},      # echoed in every outcome
}

parameters = pika.URLParameters(args.url)
connection = pika.BlockingConnection(parameters)
channel = connection.channel()
# Herald declares this exchange at start-up; declaring it here too (same
# arguments) lets the publisher start first.
channel.exchange_declare(args.exchange, exchange_type="topic", durable=True)
channel.confirm_delivery()  # every publish now waits for the broker's ack

try:
    channel.basic_publish(
        exchange=args.exchange,
        routing_key=args.routing_key,
        body=json.dumps(event).encode(),
        properties=pika.BasicProperties(
            content_type="application/json",
            delivery_mode=2,  # persistent
            message_id=event_id,
            # Who sent it: the broker checks it is this connection's user, and
            # an app with a publishers list takes events from its users only.
            user_id=parameters.credentials.username,
        ),
        mandatory=True,  # no queue bound (Herald never started)? fail instead of losing it
    )
except pika.exceptions.UnroutableError:
    sys.exit(f"publish: no queue is bound to {args.exchange} for {args.routing_key!r}; is Herald running?")
except pika.exceptions.NackError:
    sys.exit("publish: the broker refused the event (nack); retry later")
finally:
    connection.close()

print(f"published {event_id} to {args.exchange} with routing key {args.routing_key}")
