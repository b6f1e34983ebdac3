"""An acceptance test of your own push sender against `herald simulate`.

The system under test here is three lines of firebase-admin (`send_news`);
yours is whatever sends your pushes. The test starts the simulator once,
points the client at it, and uses the simulator's admin API
(docs/simulator-admin.md) to reset what was recorded, make a token dead and
inject faults between cases, then asserts on what the simulator received.

Run it (pytest, firebase-admin and requests from PyPI; `herald` on PATH or
in $HERALD; the dev keys from `scripts/dev-keys`):

    HERALD=.build/debug/herald python -m pytest examples/simulator/test_push_sender.py

scripts/test runs it with the third-party clients (Tests/Clients).
"""
import json
import os
import pathlib
import socket
import ssl
import subprocess
import time
import urllib.request
import warnings

import firebase_admin
import pytest
from firebase_admin import credentials, exceptions, messaging

ROOT = pathlib.Path(__file__).resolve().parents[2]
KEYS = pathlib.Path(os.environ.get("HERALD_DEV_KEYS", ROOT / ".herald" / "dev"))
HERALD = os.environ.get("HERALD", "herald")


def send_news(app, token, title):
    """The system under test: one FCM notification through firebase-admin."""
    with warnings.catch_warnings():  # firebase-admin 7 prefers `fid`; registration tokens still work
        warnings.simplefilter("ignore", DeprecationWarning)
        message = messaging.Message(token=token, notification=messaging.Notification(title=title))
    return messaging.send(message, app=app)


@pytest.fixture(scope="module")
def simulator(tmp_path_factory):
    """`herald simulate` on a free port, serving FCM for the dev service account."""
    workdir = tmp_path_factory.mktemp("simulator")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    account = json.loads((KEYS / "fcm-service-account.json").read_text())
    account["token_uri"] = f"https://localhost:{port}/token"  # the simulator's Google OAuth endpoint
    (workdir / "account.json").write_text(json.dumps(account))
    settings = {"listen": f"127.0.0.1:{port}", "tls": {"directory": str(KEYS)},
                "fcm": {"service_accounts": [str(workdir / "account.json")]}}
    (workdir / "simulator.yaml").write_text(json.dumps(settings))  # JSON is YAML
    process = subprocess.Popen([HERALD, "simulate", "--config", str(workdir / "simulator.yaml")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    for _ in range(300):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    os.environ["REQUESTS_CA_BUNDLE"] = str(KEYS / "ca.pem")  # firebase-admin's transport trusts the simulator's CA
    messaging._MessagingService.FCM_URL = f"https://localhost:{port}/v1/projects/{{0}}/messages:send"
    app = firebase_admin.initialize_app(credentials.Certificate(str(workdir / "account.json")),
                                        {"projectId": account["project_id"]}, name=f"simulator-{port}")
    yield {"port": port, "app": app}
    firebase_admin.delete_app(app)
    process.terminate()
    process.wait(timeout=10)


def admin(simulator, method, path, body=None):
    """One admin API call (HTTP/1.1, JSON in and out)."""
    request = urllib.request.Request(
        f"https://localhost:{simulator['port']}/_herald/{path}", method=method,
        data=None if body is None else json.dumps(body).encode(), headers={"content-type": "application/json"})
    context = ssl.create_default_context(cafile=str(KEYS / "ca.pem"))
    with urllib.request.urlopen(request, context=context, timeout=10) as answer:
        return json.loads(answer.read())


@pytest.fixture(autouse=True)
def clean(simulator):
    """Every case starts from an empty record and no faults."""
    admin(simulator, "DELETE", "records")
    admin(simulator, "DELETE", "faults")


def test_a_notification_is_delivered_as_sent(simulator):
    name = send_news(simulator["app"], "fcm-token-of-a-phone", "Hello")
    delivered = admin(simulator, "GET", "delivered?provider=fcm")["delivered"]
    assert [d["message_id"] for d in delivered] == [name]
    assert delivered[0]["payload"]["notification"] == {"title": "Hello"}


def test_a_dead_token_raises_unregistered(simulator):
    admin(simulator, "PUT", "tokens/fcm/fcm-token-uninstalled", {"error": "UNREGISTERED"})
    with pytest.raises(messaging.UnregisteredError):
        send_news(simulator["app"], "fcm-token-uninstalled", "Hello")
    refused = admin(simulator, "GET", "refused?provider=fcm")["refused"]
    assert [(r["status"], r["reason"]) for r in refused] == [(404, "UNREGISTERED")]
    admin(simulator, "DELETE", "tokens/fcm/fcm-token-uninstalled")


def test_a_token_of_another_project_raises_sender_id_mismatch(simulator):
    # Any FcmError code can be set per token. (QUOTA_EXCEEDED and UNAVAILABLE carry
    # Retry-After, which firebase-admin honours for up to four retries: a slow case.)
    admin(simulator, "PUT", "tokens/fcm/fcm-token-of-another-project", {"error": "SENDER_ID_MISMATCH"})
    with pytest.raises(messaging.SenderIdMismatchError):
        send_news(simulator["app"], "fcm-token-of-another-project", "Hello")
    refused = admin(simulator, "GET", "refused?provider=fcm&status=403")["refused"]
    assert [r["reason"] for r in refused] == ["SENDER_ID_MISMATCH"]
    admin(simulator, "DELETE", "tokens/fcm/fcm-token-of-another-project")


def test_a_fault_aimed_at_one_token_spares_the_others(simulator):
    admin(simulator, "PUT", "faults", {"error_rate": 1, "error_status": 500, "services": ["fcm"], "tokens": ["fcm-token-a"]})
    send_news(simulator["app"], "fcm-token-b", "Hello")  # not aimed at: delivered
    assert [d["target"] for d in admin(simulator, "GET", "delivered")["delivered"]] == ["fcm-token-b"]
