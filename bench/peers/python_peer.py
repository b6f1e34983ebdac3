"""The consumer a Python team would write instead of Herald (benchmark peer).

aio-pika consumes the events queue (manual acks, prefetch), aioapns sends the
APNs targets (token auth), httpx over HTTP/2 sends the FCM targets with a
Google OAuth token fetched from the service account's token_uri, and every
target's outcome is published to the results exchange on a channel with
publisher confirms; the event is acked once all its outcomes are confirmed.
It handles the same event JSON and echoes `context` like Herald, so
bench/loadgen measures both the same way. It runs until SIGTERM.

    python_peer.py --amqp-url URL --events-exchange X --queue Q --queue-type quorum \
        --results-exchange R --prefetch 256 --endpoint 127.0.0.1:22197 --ca ca.pem \
        --apns-key key.p8 --key-id K --team-id T --topic com.example.chat \
        --service-account sa.json [--apns-connections 2]
"""

import argparse
import asyncio
import json
import signal
import ssl
import time
from datetime import datetime, timezone

import aio_pika
import httpx
import jwt
from aioapns import APNs, NotificationRequest, PushType
from aioapns.connection import APNsProductionClientProtocol

FCM_SCOPE = "https://www.googleapis.com/auth/firebase.messaging"


class FCMClient:
    def __init__(self, endpoint, service_account, ssl_context, project=None):
        self.account = service_account
        self.project = project or service_account["project_id"]
        self.url = f"https://{endpoint}/v1/projects/{self.project}/messages:send"
        self.http = httpx.AsyncClient(http2=True, verify=ssl_context, timeout=10.0,
                                      limits=httpx.Limits(max_connections=10, max_keepalive_connections=10))
        self.token = None
        self.expires = 0.0
        self.lock = asyncio.Lock()

    async def access_token(self, force=False):
        if not force and self.token and time.time() < self.expires - 300:
            return self.token
        async with self.lock:
            if not force and self.token and time.time() < self.expires - 300:
                return self.token
            now = int(time.time())
            assertion = jwt.encode(
                {"iss": self.account["client_email"], "scope": FCM_SCOPE, "aud": self.account["token_uri"],
                 "iat": now, "exp": now + 3600},
                self.account["private_key"], algorithm="RS256", headers={"kid": self.account["private_key_id"]})
            response = await self.http.post(self.account["token_uri"], data={
                "grant_type": "urn:ietf:params:oauth:grant-type:jwt-bearer", "assertion": assertion})
            response.raise_for_status()
            answer = response.json()
            self.token = answer["access_token"]
            self.expires = time.time() + int(answer.get("expires_in", 3600))
            return self.token

    async def send(self, message):
        for attempt in range(2):
            token = await self.access_token(force=attempt > 0)
            response = await self.http.post(self.url, json={"message": message},
                                            headers={"authorization": f"Bearer {token}"})
            if response.status_code != 401:
                return response
        return response


def fcm_message(event, target):
    message = {}
    for key in ("token", "topic", "condition"):
        if key in target:
            message[key] = target[key]
    note = event.get("notification") or {}
    notification = {k: note[k] for k in ("title", "body", "image") if k in note}
    if notification:
        message["notification"] = notification
    if event.get("data"):
        message["data"] = {k: v if isinstance(v, str) else json.dumps(v) for k, v in event["data"].items()}
    android = {"priority": "HIGH" if event.get("priority", "high") == "high" else "NORMAL"}
    if "ttl" in event:
        android["ttl"] = f"{int(event['ttl'])}s"
    if "collapse_id" in event:
        android["collapse_key"] = event["collapse_id"]
    message["android"] = android
    return message


def apns_payload(event):
    note = event.get("notification") or {}
    aps = {}
    alert = {k: note[k] for k in ("title", "subtitle", "body") if k in note}
    if alert:
        aps["alert"] = alert
    for key, name in (("badge", "badge"), ("sound", "sound"), ("category", "category"), ("thread_id", "thread-id")):
        if key in note:
            aps[name] = note[key]
    payload = dict(event.get("data") or {})
    payload["aps"] = aps
    return payload


class Peer:
    def __init__(self, args):
        self.args = args
        context = ssl.create_default_context(cafile=args.ca)
        host, port = args.endpoint.rsplit(":", 1)
        # aioapns has no endpoint option: point its production protocol at the simulator.
        APNsProductionClientProtocol.APNS_SERVER = host
        APNsProductionClientProtocol.APNS_PORT = int(port)
        with open(args.apns_key) as file:
            key = file.read()
        self.apns = APNs(key=key, key_id=args.key_id, team_id=args.team_id, topic=args.topic,
                         max_connections=args.apns_connections, ssl_context=context, err_func=self.ignore)
        with open(args.service_account) as file:
            account = json.load(file)
        self.fcm = FCMClient(args.endpoint, account, context)
        self.tasks = set()

    async def ignore(self, request, result):
        pass

    async def send_target(self, event, target):
        provider = {"ios": "apns", "android": "fcm"}.get(target.get("provider"), target.get("provider"))
        started = time.monotonic()
        outcome = {"event_id": event.get("id"), "app": event.get("app"), "provider": provider}
        for key in ("token", "topic", "condition"):
            if key in target:
                outcome[key] = target[key]
        try:
            if provider == "apns":
                request = NotificationRequest(
                    device_token=target["token"], message=apns_payload(event), time_to_live=event.get("ttl"),
                    priority=10, collapse_key=event.get("collapse_id"), push_type=PushType.ALERT)
                result = await self.apns.send_notification(request)
                status = int(result.status)
                outcome["provider_status"] = status
                if result.is_successful:
                    outcome["status"] = "delivered"
                    outcome["provider_message_id"] = result.notification_id
                else:
                    outcome["reason"] = result.description
                    invalid = status == 410 or result.description in ("BadDeviceToken", "DeviceTokenNotForTopic")
                    outcome["status"] = "invalid_token" if invalid else "retrying" if status in (429, 500, 503) else "failed"
            elif provider == "fcm":
                response = await self.fcm.send(fcm_message(event, target))
                outcome["provider_status"] = response.status_code
                body = response.json() if response.content else {}
                if response.status_code == 200:
                    outcome["status"] = "delivered"
                    outcome["provider_message_id"] = body.get("name")
                else:
                    error = body.get("error", {})
                    codes = [d.get("errorCode") for d in error.get("details", []) if "errorCode" in d]
                    reason = codes[0] if codes else error.get("status", "unknown")
                    outcome["reason"] = reason
                    invalid = reason in ("UNREGISTERED", "SENDER_ID_MISMATCH")
                    outcome["status"] = "invalid_token" if invalid else "retrying" if response.status_code in (429, 500, 503) else "failed"
            else:
                outcome["status"], outcome["reason"] = "rejected", f"unknown provider {provider}"
        except Exception as error:  # connection trouble: report it like a transient failure
            outcome["status"], outcome["reason"] = "retrying", repr(error)
        outcome["attempt"] = 1
        outcome["latency_ms"] = round((time.monotonic() - started) * 1000, 2)
        outcome["at"] = datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        if "context" in event:
            outcome["context"] = event["context"]
        return outcome

    async def handle(self, message):
        try:
            event = json.loads(message.body)
            targets = event.get("targets") or []
            outcomes = await asyncio.gather(*(self.send_target(event, t) for t in targets))
            await asyncio.gather(*(self.results.publish(
                aio_pika.Message(json.dumps(o).encode(), content_type="application/json",
                                 delivery_mode=aio_pika.DeliveryMode.PERSISTENT),
                routing_key=f"{o['status']}.{o['provider']}.{o.get('app')}") for o in outcomes))
            await message.ack()
        except Exception:
            await message.nack(requeue=True)

    async def on_message(self, message):
        task = asyncio.create_task(self.handle(message))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def run(self):
        a = self.args
        connection = await aio_pika.connect_robust(a.amqp_url)
        channel = await connection.channel(publisher_confirms=True)
        await channel.set_qos(prefetch_count=a.prefetch)
        events = await channel.declare_exchange(a.events_exchange, aio_pika.ExchangeType.TOPIC, durable=True)
        self.results = await channel.declare_exchange(a.results_exchange, aio_pika.ExchangeType.TOPIC, durable=True)
        queue = await channel.declare_queue(a.queue, durable=True, arguments={"x-queue-type": a.queue_type})
        await queue.bind(events, "#")
        await self.fcm.access_token()
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for number in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(number, stop.set)
        tag = await queue.consume(self.on_message)
        print("peer: ready", flush=True)
        await stop.wait()
        await queue.cancel(tag)
        if self.tasks:
            await asyncio.wait(self.tasks, timeout=10)
        self.apns.pool.close()
        await self.fcm.http.aclose()
        await connection.close()


def main():
    parser = argparse.ArgumentParser()
    for name in ("amqp-url", "events-exchange", "queue", "results-exchange", "endpoint", "ca", "apns-key", "key-id",
                 "team-id", "topic", "service-account"):
        parser.add_argument("--" + name, required=True)
    parser.add_argument("--queue-type", default="quorum")
    parser.add_argument("--prefetch", type=int, default=256)
    parser.add_argument("--apns-connections", type=int, default=2)
    args = parser.parse_args()

    async def amain():  # aioapns binds its pool to the loop running when it is made
        await Peer(args).run()

    asyncio.run(amain())


if __name__ == "__main__":
    main()
