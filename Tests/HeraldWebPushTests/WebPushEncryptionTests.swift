import HeraldCrypto
@testable import HeraldWebPush
import Testing

@Suite struct WebPushEncryptionTests {
    @Test func encryptsTheRFC8291ExampleToTheRFCsBody() throws {
        let subscription = try WebPushSubscription(
            endpoint: RFC8291Example.endpoint, p256dh: RFC8291Example.receiverPublicKey, auth: RFC8291Example.authSecret
        )
        let sender = try PrivateKey(rawP256Scalar: unbase64(RFC8291Example.senderPrivateKey))
        #expect(try sender.publicKey.uncompressedP256() == unbase64(RFC8291Example.senderPublicKey))
        let body = try WebPushEncryption.encrypt(
            Array(RFC8291Example.plaintext.utf8), for: subscription, salt: unbase64(RFC8291Example.salt),
            senderKey: sender)
        #expect(base64(body) == RFC8291Example.body)
    }

    @Test func decryptsTheRFCsBodyToTheRFCsPlaintext() throws {
        let receiver = try PrivateKey(rawP256Scalar: unbase64(RFC8291Example.receiverPrivateKey))
        let plaintext = try WebPushEncryption.decrypt(
            unbase64(RFC8291Example.body), privateKey: receiver, authSecret: unbase64(RFC8291Example.authSecret))
        #expect(String(decoding: plaintext, as: UTF8.self) == RFC8291Example.plaintext)
    }

    @Test func bodyLayoutAndRoundTrip() throws {
        let (subscription, key) = try freshSubscription()
        for size in [0, 1, 100, WebPushEncryption.maximumPlaintextSize] {
            let plaintext = (0..<size).map { UInt8(truncatingIfNeeded: $0) }
            let body = try WebPushEncryption.encrypt(plaintext, for: subscription)
            #expect(body.count == WebPushEncryption.headerSize + size + 1 + AES128GCM.tagSize)
            #expect(Array(body[16..<20]) == [0, 0, 0x10, 0], "rs is 4096, big-endian")
            #expect(body[20] == 65)
            #expect(body[21] == 0x04, "the key id is an uncompressed point")
            #expect(
                try WebPushEncryption.decrypt(body, privateKey: key, authSecret: subscription.authSecret) == plaintext)
        }
        let largest = try WebPushEncryption.encrypt(
            [UInt8](repeating: 7, count: WebPushEncryption.maximumPlaintextSize), for: subscription)
        #expect(largest.count == 4096)
        #expect(WebPushEncryption.maximumPlaintextSize == 3993)
    }

    @Test func eachMessageHasAFreshSaltAndSenderKey() throws {
        let (subscription, _) = try freshSubscription()
        let first = try WebPushEncryption.encrypt([1, 2, 3], for: subscription)
        let second = try WebPushEncryption.encrypt([1, 2, 3], for: subscription)
        #expect(first[0..<16] != second[0..<16])
        #expect(first[21..<86] != second[21..<86])
    }

    @Test func oversizePlaintextIsRefusedWithItsSizeAndTheLimit() throws {
        let (subscription, _) = try freshSubscription()
        #expect(throws: WebPushEncryptionError.plaintextTooLarge(size: 3994, limit: 3993)) {
            try WebPushEncryption.encrypt([UInt8](repeating: 0, count: 3994), for: subscription)
        }
        #expect(
            WebPushEncryptionError.plaintextTooLarge(size: 3994, limit: 3993).description
                == "the payload is 3994 bytes; Web Push encrypts at most 3993 bytes "
                + "(4096-byte body: 86-byte header, 1-byte padding delimiter, 16-byte tag)")
    }

    @Test func badArgumentsAreRefused() throws {
        let (subscription, key) = try freshSubscription()
        #expect(throws: WebPushEncryptionError.invalidArgument("the salt must be 16 bytes, found 12")) {
            try WebPushEncryption.encrypt([1], for: subscription, salt: [UInt8](repeating: 0, count: 12))
        }
        #expect(throws: WebPushEncryptionError.invalidArgument("the auth secret must be 16 bytes, found 15")) {
            try WebPushEncryption.decrypt([], privateKey: key, authSecret: [UInt8](repeating: 0, count: 15))
        }
    }

    @Test func wrongKeyOrAuthSecretOrAlteredBytesFailAuthentication() throws {
        let (subscription, key) = try freshSubscription()
        let body = try WebPushEncryption.encrypt(Array("secret".utf8), for: subscription)
        var otherAuth = subscription.authSecret
        otherAuth[0] ^= 1
        #expect(throws: WebPushEncryptionError.authenticationFailed) {
            try WebPushEncryption.decrypt(body, privateKey: key, authSecret: otherAuth)
        }
        #expect(throws: WebPushEncryptionError.authenticationFailed) {
            try WebPushEncryption.decrypt(
                body, privateKey: PrivateKey.generateP256(), authSecret: subscription.authSecret)
        }
        var altered = body
        altered[0] ^= 1  // the salt
        #expect(throws: WebPushEncryptionError.authenticationFailed) {
            try WebPushEncryption.decrypt(altered, privateKey: key, authSecret: subscription.authSecret)
        }
    }

    @Test func malformedBodiesAreRefusedWithWhatIsWrong() throws {
        let (subscription, key) = try freshSubscription()
        let auth = subscription.authSecret
        let body = try WebPushEncryption.encrypt(Array("hello".utf8), for: subscription)
        func refusal(_ bytes: [UInt8]) -> String {
            do {
                _ = try WebPushEncryption.decrypt(bytes, privateKey: key, authSecret: auth)
                return "accepted"
            } catch {
                if case .malformedBody(let message) = error { return message }
                return "\(error)"
            }
        }
        #expect(
            refusal(Array(body.prefix(10)))
                == "10 bytes is shorter than the 21-byte salt, record size and key id length")
        var keyID = body
        keyID[20] = 33
        #expect(refusal(keyID) == "the key id is 33 bytes; RFC 8291 puts the sender's 65-byte P-256 public key there")
        #expect(refusal(Array(body.prefix(60))) == "60 bytes is shorter than the 86-byte header")
        #expect(
            refusal(Array(body.prefix(100))) == "the record is 14 bytes, too short for a delimiter and the 16-byte tag")
        var tinyRecordSize = body
        tinyRecordSize.replaceSubrange(16..<20, with: [0, 0, 0, 17])
        #expect(refusal(tinyRecordSize) == "the record size is 17, below the minimum of 18")
        var twoRecords = body
        twoRecords.replaceSubrange(16..<20, with: [0, 0, 0, 18])
        #expect(
            refusal(twoRecords) == "22 bytes of records exceed the record size 18; RFC 8291 sends exactly one record")
        var offCurve = body
        offCurve[85] ^= 1
        #expect(refusal(offCurve) == "the key id is not the sender's public key: the point is not on the P-256 curve")
    }

    @Test func paddingMustEndInTheLastRecordDelimiter() throws {
        let (subscription, key) = try freshSubscription()
        let sender = try PrivateKey.generateP256()
        let senderPoint = try sender.publicKey.uncompressedP256()
        let salt = try SecureRandom.bytes(16)
        let keys = try ContentKeys(
            sharedSecret: sender.sharedSecret(with: subscription.userAgentPublicKey),
            authSecret: subscription.authSecret,
            salt: salt, userAgentPublicKey: subscription.userAgentPublicKeyBytes, senderPublicKey: senderPoint)
        func body(padded: [UInt8]) throws -> [UInt8] {
            try salt + [0, 0, 0x10, 0, 65] + senderPoint + AES128GCM.encrypt(padded, key: keys.key, nonce: keys.nonce)
        }
        #expect(
            try WebPushEncryption.decrypt(
                body(padded: [0x68, 0x69, 0x02, 0, 0, 0]), privateKey: key, authSecret: subscription.authSecret)
                == [0x68, 0x69], "zero padding after the delimiter is removed")
        #expect(
            throws: WebPushEncryptionError.malformedBody("the padding delimiter is 0x01 where the last record has 0x02")
        ) {
            try WebPushEncryption.decrypt(
                body(padded: [0x68, 0x69, 0x01]), privateKey: key, authSecret: subscription.authSecret)
        }
        #expect(
            throws: WebPushEncryptionError.malformedBody(
                "the record has no padding delimiter (its plaintext is all zero bytes)")
        ) {
            try WebPushEncryption.decrypt(body(padded: [0, 0]), privateKey: key, authSecret: subscription.authSecret)
        }
    }
}
