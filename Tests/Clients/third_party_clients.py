"""Real third-party clients against `herald simulate`: the judges of its fidelity.

Each check uses a client library people deliver with in production, unchanged
but for the host it connects to:

- aioapns (APNs over HTTP/2, ES256 provider tokens): an alert is accepted; a
  dead token is answered 410 Unregistered with its time in milliseconds; an
  upper-case `apns-id` comes back exactly as sent.
- google-auth with its default transport (`requests`, HTTP/1.1): a service
  account's access token from the simulator's `/token`.
- firebase-admin `messaging.send` (HTTP/1.1, lower-case `android.priority`):
  a message is accepted; a dead token raises its `UnregisteredError`.
- httpx over HTTP/2: a message to a Firebase Installation ID (`fid`) is
  accepted; a non-string `data` value gets Google's 400 shape.
- httpx over HTTP/2 against the admin API (docs/simulator-admin.md): the
  clients' deliveries and refusals are listed, a token set to
  SENDER_ID_MISMATCH is answered so, the record is forgotten.
- pywebpush (`requests`, HTTP/1.1, aes128gcm, py_vapid's `vapid t=, k=`):
  a message to the subscription `herald simulate` printed at start is
  answered 201 with a Location, and the simulator records the plaintext it
  decrypted; a subscription issued for pywebpush's VAPID key accepts it and
  refuses another key 403; the draft `WebPush <JWT>` scheme is refused 403.

Run by scripts/test-third-party-clients, which makes the virtual environment
(Tests/Clients/requirements.txt), the dev keys and the `herald` binary:
  python third_party_clients.py HERALD_BINARY DEV_KEYS_DIR
"""
import asyncio
import json
import os
import pathlib
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import uuid
import warnings

import aioapns
import aioapns.connection
import firebase_admin
import google.auth.transport.requests
import httpx
from cryptography.hazmat.primitives import serialization
from firebase_admin import credentials, messaging
from google.oauth2 import service_account
from py_vapid import Vapid01, Vapid02, b64urlencode
from pywebpush import WebPushException, webpush

LIVE_APNS = "a1" * 32
DEAD_APNS = "dd" * 32
DEAD_SINCE = "2026-11-30T10:00:00Z"
DEAD_SINCE_MS = 1796032800000
DEAD_FCM = "fcm-token-of-an-uninstalled-app"
FID = "cXx2b9mAQ0aVXqY3pN7ZbD"  # 22 characters of URL-safe base64, as Firebase installation IDs are
SCOPE = "https://www.googleapis.com/auth/firebase.messaging"
failures = []


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message, flush=True)
    if not condition:
        failures.append(message)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Simulator:
    """`herald simulate` on a free port with the dev keys, until stopped."""

    def __init__(self, herald, keys, workdir):
        self.port = free_port()
        self.ca = str(keys / "ca.pem")
        account = json.loads((keys / "fcm-service-account.json").read_text())
        account["token_uri"] = f"https://localhost:{self.port}/token"
        self.account_file = workdir / "service-account.json"
        self.account_file.write_text(json.dumps(account))
        self.project = account["project_id"]
        settings = {  # JSON is YAML: the simulator's settings file
            "listen": f"127.0.0.1:{self.port}",
            "tls": {"directory": str(keys)},
            "apns": {"keys": [{"key_file": str(keys / "apns-AuthKey.p8"), "key_id": "HERALDKEY1", "team_id": "HERALDTEAM"}],
                     "topics": ["com.example.chat"], "dead_tokens": [{"token": DEAD_APNS, "since": DEAD_SINCE}]},
            "fcm": {"service_accounts": [str(self.account_file)], "dead_tokens": [DEAD_FCM]},
            "webpush": {"subscriptions": 1},
        }
        config = workdir / "simulator.yaml"
        config.write_text(json.dumps(settings))
        self.process = subprocess.Popen([herald, "simulate", "--config", str(config)],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                self.webpush_subscription = self.printed_subscription()
                return
            except OSError:
                if self.process.poll() is not None:
                    break
                time.sleep(0.1)
        self.stop()
        sys.exit(f"third-party clients: the simulator did not start: {self.process.stdout.read()}")

    def printed_subscription(self):
        """The Web Push subscription `webpush.subscriptions: 1` printed: the first JSON line of the output."""
        for line in self.process.stdout:
            if line.startswith("{"):
                return json.loads(line)
        return None

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()


async def apns_with_aioapns(sim, keys):
    # aioapns connects to Apple's host; point its production protocol at the simulator.
    aioapns.connection.APNsProductionClientProtocol.APNS_SERVER = "localhost"
    aioapns.connection.APNsProductionClientProtocol.APNS_PORT = sim.port
    client = aioapns.APNs(
        key=(keys / "apns-AuthKey.p8").read_text(), key_id="HERALDKEY1", team_id="HERALDTEAM",
        topic="com.example.chat", use_sandbox=False, ssl_context=ssl.create_default_context(cafile=sim.ca))

    def request(token, notification_id=None):
        return aioapns.NotificationRequest(
            device_token=token, message={"aps": {"alert": {"title": "Hello", "body": "from aioapns"}}},
            notification_id=notification_id or str(uuid.uuid4()))

    result = await asyncio.wait_for(client.send_notification(request(LIVE_APNS)), 15)
    check(result.is_successful and result.status == "200", f"aioapns: alert accepted ({result.status} {result.description})")

    result = await asyncio.wait_for(client.send_notification(request(DEAD_APNS)), 15)
    check(result.status == "410" and result.description == "Unregistered",
          f"aioapns: dead token answered 410 Unregistered ({result.status} {result.description})")
    check(result.timestamp == DEAD_SINCE_MS, f"aioapns: 410 carries the time in milliseconds ({result.timestamp})")

    upper = str(uuid.uuid4()).upper()
    try:
        result = await asyncio.wait_for(client.send_notification(request(LIVE_APNS, upper)), 10)
        check(result.notification_id == upper and result.is_successful,
              f"aioapns: upper-case apns-id echoed as sent ({result.notification_id})")
    except asyncio.TimeoutError:
        check(False, "aioapns: upper-case apns-id echoed as sent (no answer matched the id within 10 s)")


def oauth_with_google_auth(sim):
    creds = service_account.Credentials.from_service_account_file(str(sim.account_file), scopes=[SCOPE])
    creds.refresh(google.auth.transport.requests.Request())  # requests: HTTP/1.1
    check(bool(creds.token) and creds.expiry is not None,
          f"google-auth: access token over HTTP/1.1 (expires {creds.expiry})")
    return creds


def fcm_with_firebase_admin(sim):
    messaging._MessagingService.FCM_URL = f"https://localhost:{sim.port}/v1/projects/{{0}}/messages:send"
    app = firebase_admin.initialize_app(credentials.Certificate(str(sim.account_file)), {"projectId": sim.project})
    try:
        name = messaging.send(messaging.Message(
            token="fcm-token-of-a-phone", notification=messaging.Notification(title="Hi", body="from firebase-admin"),
            android=messaging.AndroidConfig(priority="high")), app=app)
        check(name.startswith(f"projects/{sim.project}/messages/"), f"firebase-admin: messaging.send delivered ({name})")
    except Exception as error:  # noqa: BLE001 - the check reports whatever the client raised
        check(False, f"firebase-admin: messaging.send delivered (raised {type(error).__name__}: {error})")
    try:
        messaging.send(messaging.Message(token=DEAD_FCM, data={"k": "v"}), app=app)
        check(False, "firebase-admin: dead token raises UnregisteredError (it was accepted)")
    except messaging.UnregisteredError:
        check(True, "firebase-admin: dead token raises UnregisteredError")
    except Exception as error:  # noqa: BLE001
        check(False, f"firebase-admin: dead token raises UnregisteredError (raised {type(error).__name__}: {error})")
    finally:
        firebase_admin.delete_app(app)


def fcm_with_httpx(sim, creds):
    url = f"https://localhost:{sim.port}/v1/projects/{sim.project}/messages:send"
    headers = {"authorization": f"Bearer {creds.token}"}
    with httpx.Client(http2=True, verify=ssl.create_default_context(cafile=sim.ca), timeout=15) as client:
        answer = client.post(url, headers=headers, json={"message": {"fid": FID, "notification": {"title": "Hi"}}})
        check(answer.http_version == "HTTP/2", f"httpx: spoke {answer.http_version}")
        check(answer.status_code == 200 and answer.json().get("name", "").startswith(f"projects/{sim.project}/messages/"),
              f"httpx: message to a fid accepted ({answer.status_code} {answer.text[:200]})")

        answer = client.post(url, headers=headers, json={"message": {"token": "fcm-token-of-a-phone", "data": {"n": 1}}})
        error = answer.json().get("error", {}) if answer.headers.get("content-type", "").startswith("application/json") else {}
        violations = [v for d in error.get("details", []) if d.get("@type") == "type.googleapis.com/google.rpc.BadRequest"
                      for v in d.get("fieldViolations", [])]
        check(answer.status_code == 400 and error.get("code") == 400 and error.get("status") == "INVALID_ARGUMENT",
              f"httpx: non-string data answered 400 INVALID_ARGUMENT ({answer.status_code} {answer.text[:200]})")
        check("Invalid value at 'message.data[0].value' (TYPE_STRING), 1" in error.get("message", "")
              and any(v.get("field") == "message.data[0].value" for v in violations),
              f"httpx: Google's message and field violation ({error.get('message')}; {violations})")


def admin_with_httpx(sim, creds):
    base = f"https://localhost:{sim.port}"
    with httpx.Client(http2=True, verify=ssl.create_default_context(cafile=sim.ca), timeout=15) as client:
        delivered = client.get(f"{base}/_herald/delivered", params={"provider": "apns"}).json()["delivered"]
        check([d["target"] for d in delivered] == [LIVE_APNS, LIVE_APNS],
              f"admin API: aioapns's two alerts listed ({[d['target'] for d in delivered]})")
        refused = client.get(f"{base}/_herald/refused", params={"status": "410"}).json()["refused"]
        check([(r["target"], r["reason"], r["answer"]["timestamp"]) for r in refused] == [(DEAD_APNS, "Unregistered", DEAD_SINCE_MS)],
              f"admin API: the dead token's 410 listed ({refused})")

        answer = client.put(f"{base}/_herald/tokens/fcm/fcm-token-of-another-app", json={"error": "SENDER_ID_MISMATCH"})
        check(answer.status_code == 200 and answer.json()["fcm"].get("fcm-token-of-another-app") == "SENDER_ID_MISMATCH",
              f"admin API: token error set ({answer.status_code} {answer.text[:200]})")
        if creds is not None:  # an access token from google-auth's check
            answer = client.post(f"{base}/v1/projects/{sim.project}/messages:send",
                                 headers={"authorization": f"Bearer {creds.token}"},
                                 json={"message": {"token": "fcm-token-of-another-app"}})
            codes = [d.get("errorCode") for d in answer.json().get("error", {}).get("details", [])]
            check(answer.status_code == 403 and codes == ["SENDER_ID_MISMATCH"],
                  f"admin API: the token is then answered 403 SENDER_ID_MISMATCH ({answer.status_code} {codes})")

        forgotten = client.delete(f"{base}/_herald/records").json()["forgotten"]
        check(forgotten["delivered"] > 0 and forgotten["refused"] > 0, f"admin API: the record forgotten ({forgotten})")
        check(client.get(f"{base}/_herald/delivered").json() == {"delivered": []}, "admin API: nothing listed after")


def webpush_with_pywebpush(sim):
    printed = sim.webpush_subscription
    check(printed is not None and printed["endpoint"].startswith(f"https://127.0.0.1:{sim.port}/push/"),
          f"herald simulate printed a Web Push subscription ({printed})")
    if printed is None:
        return
    vapid = Vapid02()
    vapid.generate_keys()
    claims = lambda: {"sub": "mailto:push@example.com"}  # noqa: E731 - webpush() adds aud and exp to the dict it is given
    payload = {"title": "Hi", "body": "from pywebpush"}
    answer = webpush(printed, json.dumps(payload), vapid_private_key=vapid, vapid_claims=claims(), ttl=60)
    check(answer.status_code == 201 and "/message/" in answer.headers.get("location", ""),
          f"pywebpush: message accepted 201 with a Location ({answer.status_code} {answer.headers.get('location')})")
    base = f"https://localhost:{sim.port}"
    with httpx.Client(http2=True, verify=ssl.create_default_context(cafile=sim.ca), timeout=15) as client:
        delivered = client.get(f"{base}/_herald/delivered", params={"provider": "webpush", "token": printed["id"]}).json()["delivered"]
        check([d["payload"] for d in delivered] == [payload] and delivered[0]["headers"].get("ttl") == "60",
              f"pywebpush: the simulator decrypted and recorded the plaintext ({delivered})")

        key = b64urlencode(vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))
        issued = client.post(f"{base}/_herald/webpush/subscriptions", json={"application_server_key": key})
        check(issued.status_code == 201 and issued.json().get("application_server_key") == key,
              f"admin API: a subscription issued for pywebpush's key ({issued.status_code} {issued.text[:200]})")
    restricted = issued.json()
    answer = webpush(restricted, "restricted", vapid_private_key=vapid, vapid_claims=claims(), ttl=60)
    check(answer.status_code == 201, f"pywebpush: the restricted subscription takes its key ({answer.status_code})")
    other = Vapid02()
    other.generate_keys()
    for name, key_holder in [("another VAPID key", other), ("the draft WebPush scheme", Vapid01(private_key=vapid.private_key))]:
        try:
            webpush(restricted, "refused", vapid_private_key=key_holder, vapid_claims=claims(), ttl=60)
            check(False, f"pywebpush: {name} refused 403 (it was accepted)")
        except WebPushException as error:
            status = error.response.status_code if error.response is not None else None
            check(status == 403, f"pywebpush: {name} refused 403 ({status} {error.response.text[:200] if error.response is not None else error})")


def run(client, step):
    """Runs one client's checks; an exception is that client's failure, not the run's end."""
    try:
        return step()
    except Exception as error:  # noqa: BLE001 - reported as a failed check
        check(False, f"{client}: raised {type(error).__name__}: {error}")
        return None


def main():
    herald, keys = sys.argv[1], pathlib.Path(sys.argv[2]).resolve()
    with tempfile.TemporaryDirectory(prefix="herald-clients-") as workdir:
        sim = Simulator(herald, keys, pathlib.Path(workdir))
        # `requests` (google-auth's and firebase-admin's transport) trusts this bundle only.
        os.environ["REQUESTS_CA_BUNDLE"] = sim.ca
        try:
            run("aioapns", lambda: asyncio.run(apns_with_aioapns(sim, keys)))
            creds = run("google-auth", lambda: oauth_with_google_auth(sim))
            run("firebase-admin", lambda: fcm_with_firebase_admin(sim))
            if creds is not None:
                run("httpx", lambda: fcm_with_httpx(sim, creds))
            run("admin API", lambda: admin_with_httpx(sim, creds))
            run("pywebpush", lambda: webpush_with_pywebpush(sim))
        finally:
            sim.stop()
    if failures:
        print(f"third-party clients: {len(failures)} failed", file=sys.stderr)
        sys.exit(1)
    print("third-party clients: all passed")


if __name__ == "__main__":
    # firebase-admin 7 deprecates Message.token in favour of fid; both are checked here.
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    main()
