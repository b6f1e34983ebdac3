#!/usr/bin/python3
"""Register a device on channels in Herald's registry, or change its registration (pika).

    register.py --token 0a1b... --channel user:42 [--channel room:general]
    register.py --token 0a1b... --channel user:42 --timezone Europe/Paris --locale fr-FR --attribute plan=pro
    register.py --provider webpush --subscription subscription.json --channel user:42 --timezone Europe/Paris
    register.py --command unregister --token 0a1b... --channel room:general
    register.py --command unregister_device --token 0a1b...
    register.py --command replace_token --token 0a1b... --new-token 0c0d...
    register.py ... --wait 10     # also wait for Herald's result and print it

The command goes to the `herald.registry` topic exchange, the routing key
naming it, as a persistent message with publisher confirms and `mandatory`:
when this script returns, the broker has it, and Herald will apply it at
least once. Herald acks it only after the database commit and after one
result reached `herald.results` with routing key `<result>.<provider>.<app>`
(`registered.apns.chat`, `registry_rejected.apns.chat`); --wait binds a
queue of its own for it before publishing. Bodies:
schemas/registry-command.schema.json; results: schemas/registry-result.schema.json.
Then an event with "targets": [{"channel": "user:42"}] reaches the device
(docs/registry.md).
"""
import argparse
import json
import os
import sys
import time
import uuid

import pika

CANONICAL = {"apns": "apns", "ios": "apns", "fcm": "fcm", "android": "fcm", "webpush": "webpush"}

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--url", default=os.environ.get("HERALD_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2f"))
parser.add_argument("--exchange", default="herald.registry")
parser.add_argument("--results-exchange", default="herald.results")
parser.add_argument("--command", default="register", choices=["register", "unregister", "unregister_device", "replace_token"])
parser.add_argument("--app", default="chat", help="an app under `apps:` in Herald's config.yaml")
parser.add_argument("--provider", default="apns", choices=sorted(CANONICAL))
device = parser.add_mutually_exclusive_group(required=True)
device.add_argument("--token", help="the device token (APNs: hexadecimal)")
device.add_argument("--fid", help="FCM only: the device's Firebase installation ID")
device.add_argument("--subscription", metavar="FILE", help="Web Push: a browser's PushSubscription.toJSON(), as a file")
parser.add_argument("--channel", action="append", default=[], help="register, unregister: a channel (repeat for more)")
parser.add_argument("--environment", choices=["production", "sandbox"], help="register, APNs: the token's environment")
parser.add_argument("--topic", help="register, APNs: the bundle ID, when it is not the app's")
parser.add_argument("--timezone", help="register: the device's IANA time zone (Europe/Paris); \"\" clears it")
parser.add_argument("--locale", help="register: the device's BCP 47 locale (pt-BR); \"\" clears it")
parser.add_argument("--attribute", action="append", default=[], metavar="KEY=VALUE",
                    help="register: one of the app's own attributes of the device (repeat; they replace the stored map)")
parser.add_argument("--new-token", help="replace_token: the device's new token")
parser.add_argument("--wait", type=float, metavar="SECONDS", help="wait this long for Herald's result and print it")
args = parser.parse_args()

command_id = f"reg-{uuid.uuid4()}"  # echoed as command_id in the result, and its message-id
command = {"id": command_id, "app": args.app, "provider": args.provider}
if args.subscription:
    # Web Push: the browser's subscription as it gave it (endpoint and keys).
    with open(args.subscription, encoding="utf-8") as file:
        command["subscription"] = json.load(file)
else:
    command["token" if args.token else "fid"] = args.token or args.fid
if args.command in ("register", "unregister"):
    if not args.channel:
        parser.error(f"{args.command} needs at least one --channel")
    command["channels"] = args.channel
if args.command == "register":
    if args.environment:
        command["environment"] = args.environment
    if args.topic:
        command["topic"] = args.topic
    # Kept once per device, the same on every channel; a register without
    # them keeps the stored ones. Herald checks the time zone against its tz
    # database and the locale's BCP 47 syntax (registry_rejected naming the field).
    if args.timezone is not None:
        command["timezone"] = args.timezone
    if args.locale is not None:
        command["locale"] = args.locale
    if args.attribute:
        if any("=" not in pair for pair in args.attribute):
            parser.error("--attribute takes KEY=VALUE")
        command["attributes"] = dict(pair.split("=", 1) for pair in args.attribute)
if args.command == "replace_token":
    if not args.new_token:
        parser.error("replace_token needs --new-token")
    command["new_token"] = args.new_token

parameters = pika.URLParameters(args.url)
connection = pika.BlockingConnection(parameters)
channel = connection.channel()
# Herald declares these exchanges at start-up (the registry's only with a
# registry: section); declaring them here too (same arguments) is harmless.
channel.exchange_declare(args.exchange, exchange_type="topic", durable=True)
results = None
if args.wait is not None:
    channel.exchange_declare(args.results_exchange, exchange_type="topic", durable=True)
    # Exclusive: gone with this connection (RabbitMQ 4.3 refuses a transient shared queue).
    results = channel.queue_declare("", exclusive=True).method.queue
    channel.queue_bind(results, args.results_exchange, routing_key=f"*.{CANONICAL[args.provider]}.{args.app}")
channel.confirm_delivery()  # every publish now waits for the broker's ack

try:
    channel.basic_publish(
        exchange=args.exchange,
        routing_key=args.command,
        body=json.dumps(command).encode(),
        # user_id: the broker checks it is this connection's user; an app with
        # registry publishers takes commands from those users only.
        properties=pika.BasicProperties(content_type="application/json", delivery_mode=2, message_id=command_id,
                                        user_id=parameters.credentials.username),
        mandatory=True,  # no queue bound (no registry configured, Herald never started)? fail instead of losing it
    )
except pika.exceptions.UnroutableError:
    connection.close()
    sys.exit(f"register: no queue is bound to {args.exchange} for {args.command!r}; does Herald's config have a registry: section?")
except pika.exceptions.NackError:
    connection.close()
    sys.exit("register: the broker refused the command (nack); retry later")
print(f"sent {command_id}: {args.command} to {args.exchange}", flush=True)

if results is None:
    connection.close()
    sys.exit(0)
deadline = time.monotonic() + args.wait
try:
    while time.monotonic() < deadline:
        method, properties, body = channel.basic_get(results, auto_ack=True)
        if method is None:
            connection.process_data_events(time_limit=0.1)
            continue
        result = json.loads(body)
        if result.get("command_id") != command_id:
            continue  # another sender's result for the same app and provider
        print(f"{method.routing_key} {json.dumps(result)}")
        sys.exit(1 if result.get("result") == "registry_rejected" else 0)
finally:
    connection.close()
sys.exit(f"register: no result for {command_id} within {args.wait:g}s; is Herald running with a registry: section?")
