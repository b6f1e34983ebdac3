import Foundation
import HeraldCore
import HeraldCrypto
import HeraldWebPush
import Testing

/// Herald against the Python reference libraries, both ways, through JSON
/// files under Fixtures/ (the format is Tests/Clients/webpush_vectors.py's):
///
/// - python-vectors.json was made by http_ece and py_vapid
///   (`webpush_vectors.py generate`); Herald must decrypt every body,
///   re-encrypt it to the same bytes, and verify every VAPID header.
/// - herald-vectors.json was made by this suite; `webpush_vectors.py check`
///   (run by scripts/test-third-party-clients) decrypts and verifies it with
///   http_ece and py_vapid. This suite checks that Herald still makes exactly
///   those bytes, so the committed file cannot go stale. After a deliberate
///   change to what Herald sends, regenerate it with
///       HERALD_WRITE_WEBPUSH_VECTORS=1 swift test --filter WebPushCrossCheckTests
@Suite struct WebPushCrossCheckTests {
    struct Vectors: Codable {
        var comment: String
        var messages: [Message]
        var vapid: [VAPIDHeader]
    }

    struct Message: Codable {
        var plaintext: String
        var subscriptionPrivateKey: String
        var p256dh: String
        var auth: String
        var senderPrivateKey: String
        var salt: String
        var body: String
    }

    struct VAPIDHeader: Codable {
        var authorization: String
        var privateKey: String
        var publicKey: String
        var audience: String
        var expires: Int64
        var subject: String
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let endpoint = "https://push.example.net/push/vector"
    static let heraldPlaintexts = [
        Array("x".utf8), Array(#"{"title":"Hello","body":"from Herald ☃"}"#.utf8),
        (0..<768).map { UInt8(truncatingIfNeeded: $0) },
        [UInt8](repeating: 0x6D, count: WebPushEncryption.maximumPlaintextSize),
    ]
    static let heraldVAPID = [
        (audience: "https://fcm.googleapis.com", expires: Int64(1_893_456_000), subject: "mailto:push@example.com"),
        (
            audience: "https://push.example.net:8443", expires: Int64(1_893_459_600),
            subject: "https://sender.example.com"
        ),
    ]

    static func load(_ name: String) throws -> Vectors {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Vectors.self, from: Data(contentsOf: fixtures.appendingPathComponent(name)))
    }

    /// Decrypts `message` with Herald and re-encrypts it from its sender key and salt.
    static func checkMessage(_ message: Message, _ label: String) throws {
        let receiver = try PrivateKey(rawP256Scalar: unbase64(message.subscriptionPrivateKey))
        let body = try unbase64(message.body)
        let plaintext = try unbase64(message.plaintext)
        #expect(
            try WebPushEncryption.decrypt(body, privateKey: receiver, authSecret: unbase64(message.auth)) == plaintext,
            "\(label)")
        let subscription = try WebPushSubscription(endpoint: endpoint, p256dh: message.p256dh, auth: message.auth)
        let again = try WebPushEncryption.encrypt(
            plaintext, for: subscription, salt: unbase64(message.salt),
            senderKey: PrivateKey(rawP256Scalar: unbase64(message.senderPrivateKey)))
        #expect(again == body, "\(label): re-encrypted to other bytes")
    }

    /// Verifies `vector` with Herald at 12 hours before its expiry.
    static func checkVAPID(_ vector: VAPIDHeader, _ label: String) throws -> VAPIDAuthorization {
        let authorization = try VAPIDAuthorization(parsing: vector.authorization)
        let expiresAt = Timestamp(seconds: vector.expires)
        let claims = try authorization.verify(
            origin: vector.audience, now: expiresAt + .seconds(-12 * 3600),
            expectedPublicKey: unbase64(vector.publicKey))
        #expect(
            claims == VAPIDClaims(audience: vector.audience, expiresAt: expiresAt, subject: vector.subject), "\(label)")
        #expect(throws: VAPIDError.self, "\(label): accepted after expiry") {
            try authorization.verify(origin: vector.audience, now: expiresAt)
        }
        return authorization
    }

    @Test func httpECEBodiesDecryptAndReencryptWithHerald() throws {
        let vectors = try Self.load("python-vectors.json")
        #expect(vectors.messages.count >= 3)
        for (index, message) in vectors.messages.enumerated() {
            try Self.checkMessage(message, "http_ece message \(index)")
        }
    }

    @Test func pyVAPIDHeadersVerifyWithHerald() throws {
        let vectors = try Self.load("python-vectors.json")
        #expect(vectors.vapid.count >= 1)
        for (index, vector) in vectors.vapid.enumerated() {
            _ = try Self.checkVAPID(vector, "py_vapid header \(index)")
        }
    }

    /// What Herald makes for the fixed inputs of `vectors`: the same messages
    /// byte for byte, and VAPID headers that differ only in their (random) ES256 signatures.
    @Test func heraldVectorsAreWhatHeraldMakesNow() throws {
        if ProcessInfo.processInfo.environment["HERALD_WRITE_WEBPUSH_VECTORS"] == "1" { try Self.writeHeraldVectors() }
        let vectors = try Self.load("herald-vectors.json")
        #expect(vectors.messages.map(\.plaintext) == Self.heraldPlaintexts.map(base64))
        for (index, message) in vectors.messages.enumerated() {
            try Self.checkMessage(message, "Herald message \(index)")
        }
        #expect(vectors.vapid.count == Self.heraldVAPID.count)
        for (index, vector) in vectors.vapid.enumerated() {
            let fixture = try Self.checkVAPID(vector, "Herald header \(index)")
            let now = try Self.makeVAPID(vector.privateKey, vector.audience, vector.expires, vector.subject)
            let made = try VAPIDAuthorization(parsing: now)
            #expect(
                made.token.signingInput == fixture.token.signingInput, "Herald header \(index): other header or claims")
            #expect(
                now.replacingOccurrences(of: base64(made.token.signature), with: base64(fixture.token.signature))
                    == vector.authorization)
        }
    }

    /// A header from `VAPIDTokenCache` at 12 hours before `expires`.
    static func makeVAPID(_ scalar: String, _ audience: String, _ expires: Int64, _ subject: String) throws -> String {
        let signer = try VAPIDSigner(key: PrivateKey(rawP256Scalar: unbase64(scalar)), subject: VAPIDSubject(subject))
        let cache = try VAPIDTokenCache(signer: signer, clock: { Timestamp(seconds: expires - 12 * 3600) })
        return try cache.authorization(for: audience)
    }

    static func writeHeraldVectors() throws {
        var messages: [Message] = []
        for plaintext in heraldPlaintexts {
            let (subscription, receiver) = try freshSubscription(endpoint: endpoint)
            let sender = try PrivateKey.generateP256()
            let salt = try SecureRandom.bytes(WebPushEncryption.saltSize)
            let body = try WebPushEncryption.encrypt(plaintext, for: subscription, salt: salt, senderKey: sender)
            messages.append(
                Message(
                    plaintext: base64(plaintext), subscriptionPrivateKey: base64(try receiver.rawP256Scalar()),
                    p256dh: base64(subscription.userAgentPublicKeyBytes), auth: base64(subscription.authSecret),
                    senderPrivateKey: base64(try sender.rawP256Scalar()), salt: base64(salt), body: base64(body)))
        }
        var vapid: [VAPIDHeader] = []
        for fixed in heraldVAPID {
            let key = try PrivateKey.generateP256()
            let scalar = base64(try key.rawP256Scalar())
            vapid.append(
                VAPIDHeader(
                    authorization: try makeVAPID(scalar, fixed.audience, fixed.expires, fixed.subject),
                    privateKey: scalar,
                    publicKey: base64(try key.publicKey.uncompressedP256()), audience: fixed.audience,
                    expires: fixed.expires,
                    subject: fixed.subject))
        }
        let vectors = Vectors(
            comment: "Made by HeraldWebPushTests (WebPushCrossCheckTests, HERALD_WRITE_WEBPUSH_VECTORS=1); "
                + "checked by Tests/Clients/webpush_vectors.py check.",
            messages: messages, vapid: vapid)
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try (encoder.encode(vectors) + Data("\n".utf8)).write(
            to: fixtures.appendingPathComponent("herald-vectors.json"))
    }
}
