"""Web Push cross-check vectors between Herald and the Python reference libraries.

http_ece (RFC 8188/8291 `aes128gcm`, by the authors of the RFCs) and py_vapid
(RFC 8292) judge Herald's HeraldWebPush module, and Herald's tests judge
vectors these libraries made. Both directions go through JSON files committed
under Tests/HeraldWebPushTests/Fixtures:

- python-vectors.json: made here by `generate` with http_ece and py_vapid
  (fresh random keys and salts each time). HeraldWebPushTests' cross-check
  suite decrypts every body with Herald, re-encrypts it from the recorded
  sender key and salt to the same bytes, and verifies every VAPID header.
  Regenerate (after changing the pinned versions in requirements.txt) with
      .build/venv-clients/bin/python Tests/Clients/webpush_vectors.py generate
  using the virtual environment scripts/test-third-party-clients makes.
- herald-vectors.json: made by HeraldWebPushTests (see its
  WebPushCrossCheckTests for the command). `check` decrypts every body with
  http_ece, re-encrypts it with http_ece to the same bytes, verifies every
  VAPID header with py_vapid and compares its claims; it also re-checks
  python-vectors.json against the pinned libraries, and makes sure a tampered
  body and a tampered token are refused, so a checker that accepts anything
  fails here.

Run by scripts/test-third-party-clients (which scripts/test runs after the
Swift suite):
    python webpush_vectors.py check
"""
import base64
import copy
import json
import os
import pathlib
import sys
from importlib import metadata

import http_ece
import py_vapid
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import jwt as vapid_jwt

FIXTURES = pathlib.Path(__file__).resolve().parent.parent / "HeraldWebPushTests" / "Fixtures"
PYTHON_VECTORS = FIXTURES / "python-vectors.json"
HERALD_VECTORS = FIXTURES / "herald-vectors.json"
# The largest plaintext RFC 8291 allows in a 4096-byte body (86-byte header, 1-byte delimiter, 16-byte tag).
MAXIMUM_PLAINTEXT = 3993
PLAINTEXTS = [
    b"x",
    '{"title":"Hello","body":"from http_ece \u2603"}'.encode("utf-8"),
    bytes(range(256)) * 3,
    b"m" * MAXIMUM_PLAINTEXT,
]
VAPID_CLAIMS = [
    {"aud": "https://fcm.googleapis.com", "exp": 1893456000, "sub": "mailto:push@example.com"},
    {"aud": "https://push.example.net:8443", "exp": 1893459600, "sub": "https://sender.example.com"},
]
failures = []
passed = 0


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def scalar(key):
    return b64(key.private_numbers().private_value.to_bytes(32, "big"))


def private_key(text):
    return ec.derive_private_key(int.from_bytes(unb64(text), "big"), ec.SECP256R1())


def point(key):
    return key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)


def check(condition, message):
    global passed
    print(("ok   " if condition else "FAIL ") + message, flush=True)
    if condition:
        passed += 1
    else:
        failures.append(message)


def generate():
    messages = []
    for plaintext in PLAINTEXTS:
        receiver = ec.generate_private_key(ec.SECP256R1())
        sender = ec.generate_private_key(ec.SECP256R1())
        auth = os.urandom(16)
        salt = os.urandom(16)
        body = http_ece.encrypt(plaintext, salt=salt, private_key=sender, dh=point(receiver), auth_secret=auth,
                                version="aes128gcm", rs=4096)
        messages.append({"plaintext": b64(plaintext), "subscription_private_key": scalar(receiver),
                         "p256dh": b64(point(receiver)), "auth": b64(auth), "sender_private_key": scalar(sender),
                         "salt": b64(salt), "body": b64(body)})
    vapid = []
    for claims in VAPID_CLAIMS:
        signer = py_vapid.Vapid02()
        signer.generate_keys()
        header = signer.sign(claims)["Authorization"]
        vapid.append({"authorization": header, "private_key": scalar(signer.private_key),
                      "public_key": b64(point(signer.private_key)), "audience": claims["aud"],
                      "expires": claims["exp"], "subject": claims["sub"]})
    document = {
        "comment": "Made by Tests/Clients/webpush_vectors.py generate; checked by HeraldWebPushTests (WebPushCrossCheckTests).",
        "made_with": {name: metadata.version(name) for name in ("http_ece", "py_vapid", "cryptography")},
        "messages": messages,
        "vapid": vapid,
    }
    PYTHON_VECTORS.write_text(json.dumps(document, indent=2) + "\n")
    print(f"wrote {PYTHON_VECTORS}")


def each(source, kind, vectors, check_one):
    """Runs check_one on every vector; an exception is that vector's failure, not the run's end."""
    for index, vector in enumerate(vectors):
        try:
            check_one(f"{source} {kind} {index}", vector)
        except Exception as error:  # noqa: BLE001 - reported as a failed check
            check(False, f"{source} {kind} {index}: raised {type(error).__name__}: {error}")


def check_message(label, vector):
    plaintext, body, auth = unb64(vector["plaintext"]), unb64(vector["body"]), unb64(vector["auth"])
    receiver = private_key(vector["subscription_private_key"])
    check(b64(point(receiver)) == vector["p256dh"], f"{label}: p256dh is the subscription key's public point")
    try:
        opened = http_ece.decrypt(body, private_key=receiver, auth_secret=auth, version="aes128gcm")
        check(opened == plaintext, f"{label}: http_ece decrypts it to the plaintext")
    except http_ece.ECEException as error:
        check(False, f"{label}: http_ece decrypts it (raised {error.message})")
    again = http_ece.encrypt(plaintext, salt=unb64(vector["salt"]), private_key=private_key(vector["sender_private_key"]),
                             dh=unb64(vector["p256dh"]), auth_secret=auth, version="aes128gcm", rs=4096)
    check(again == body, f"{label}: http_ece encrypts the same plaintext, key and salt to the same bytes")
    check(len(body) <= 4096, f"{label}: the body is at most 4096 bytes ({len(body)})")
    tampered = bytearray(body)
    tampered[-1] ^= 0x01
    try:
        http_ece.decrypt(bytes(tampered), private_key=receiver, auth_secret=auth, version="aes128gcm")
        check(False, f"{label}: a tampered copy is refused (http_ece decrypted it)")
    except http_ece.ECEException:
        check(True, f"{label}: a tampered copy is refused")


def check_vapid(label, vector):
    header = vector["authorization"]
    scheme, _, parameters = header.partition(" ")
    parts = dict(item.strip().split("=", 1) for item in parameters.split(","))  # RFC 8292: "t=..., k=..." or "t=...,k=..."
    check(scheme == "vapid" and set(parts) == {"t", "k"}, f"{label}: is vapid t=..., k=... ({header[:24]}...)")
    check(parts.get("k") == vector["public_key"] == b64(point(private_key(vector["private_key"]))),
          f"{label}: k is the signing key's public point")
    # py_vapid's verify splits at the last space, so it reads RFC 8292's "t=..., k=..." only without the space.
    compact = f"vapid t={parts.get('t')},k={parts.get('k')}"
    check(py_vapid.Vapid02.verify(compact), f"{label}: py_vapid verifies the signature")
    claims = vapid_jwt.decode(parts["t"], parts["k"])
    check(claims == {"aud": vector["audience"], "exp": vector["expires"], "sub": vector["subject"]},
          f"{label}: the claims are aud, exp and sub as recorded ({claims})")
    jose = json.loads(unb64(parts["t"].split(".")[0]))
    check(jose == {"typ": "JWT", "alg": "ES256"}, f"{label}: the JWT header is typ JWT, alg ES256 ({jose})")
    forged = copy.deepcopy(claims)
    forged["aud"] = "https://attacker.example"
    token = parts["t"].split(".")
    token[1] = b64(json.dumps(forged, separators=(",", ":")).encode())
    check(not py_vapid.Vapid02.verify(f"vapid t={'.'.join(token)},k={parts['k']}"),
          f"{label}: the token with another aud is refused")


def main():
    if sys.argv[1:] == ["generate"]:
        generate()
        return
    if sys.argv[1:] != ["check"]:
        sys.exit("usage: webpush_vectors.py generate | check")
    herald = json.loads(HERALD_VECTORS.read_text())
    python = json.loads(PYTHON_VECTORS.read_text())
    check(len(herald["messages"]) >= 3 and len(herald["vapid"]) >= 1, "herald-vectors.json has messages and VAPID headers")
    each("Herald", "message", herald["messages"], check_message)
    each("Herald", "VAPID header", herald["vapid"], check_vapid)
    each("http_ece", "message", python["messages"], check_message)
    each("py_vapid", "VAPID header", python["vapid"], check_vapid)
    if failures:
        print(f"web push vectors: {len(failures)} failed", file=sys.stderr)
        sys.exit(1)
    print(f"web push vectors: all {passed} checks passed")


if __name__ == "__main__":
    main()
