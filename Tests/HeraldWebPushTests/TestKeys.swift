import HeraldCore
import HeraldCrypto
import HeraldWebPush
import Testing

/// The keys, salt and messages of RFC 8291 Appendix A, and helpers the suites share.
enum RFC8291Example {
    static let plaintext = "When I grow up, I want to be a watermelon"
    static let senderPrivateKey = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
    static let senderPublicKey =
        "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
    static let receiverPrivateKey = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
    static let receiverPublicKey =
        "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
    static let authSecret = "BTBZMqHH6r4Tts7J_aSIgg"
    static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
    static let body =
        "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27ml"
        + "mlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPT"
        + "pK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
    static let endpoint = "https://push.example.net/push/JzLQ3raZJfFBR0aqvOMsLrt54w4rJUsV"
}

/// URL-safe base64 the tests trust to decode.
func unbase64(_ text: String) throws -> [UInt8] {
    try #require(Base64URL.decode(text), "not base64url: \(text)")
}

func base64(_ bytes: [UInt8]) -> String { Base64URL.encode(bytes) }

/// A subscription with a fresh key pair, and that pair's private key (the browser's side).
func freshSubscription(endpoint: String = RFC8291Example.endpoint) throws -> (WebPushSubscription, PrivateKey) {
    let key = try PrivateKey.generateP256()
    let subscription = try WebPushSubscription(
        endpoint: endpoint, p256dh: key.publicKey.uncompressedP256(), authSecret: SecureRandom.bytes(16))
    return (subscription, key)
}
