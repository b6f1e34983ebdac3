import HeraldConfig
import HeraldCore
import HeraldCrypto
import HeraldHTTPClient
import HeraldWebPush

/// Why an app's `webpush:` section cannot make a provider: its VAPID key or
/// subject, named by where it came from.
public struct WebPushCredentialsError: Error, Sendable, CustomStringConvertible {
    public let source: String
    public let message: String
    public var description: String { "\(source): \(message)" }
}

extension WebPushSettings {
    /// The provider's configuration: the VAPID key loaded (file, PEM or the
    /// raw 32-byte key) and proven to sign, the subject checked as Safari's
    /// push service checks it, and the message defaults.
    public func providerConfiguration(resolve: (String) -> String) throws(WebPushCredentialsError) -> WebPushProviderConfiguration {
        let key: PrivateKey
        let source: String
        do {
            switch (vapid.privateKeyFile, vapid.privateKeyPEM, vapid.privateKey) {
            case (let file?, nil, nil):
                source = resolve(file)
                let contents: BoundedFile
                do {
                    contents = try BoundedFile(path: source, limit: .key)
                } catch {
                    throw WebPushCredentialsError(source: source, message: "the VAPID key file \(error.problem)")
                }
                key = try PrivateKey(pem: String(decoding: contents.bytes, as: UTF8.self))
            case (nil, let pem?, nil):
                source = "vapid.private_key_pem"
                key = try PrivateKey(pem: pem)
            case (nil, nil, let raw?):
                source = "vapid.private_key"
                guard let scalar = Base64URL.decode(raw) else {
                    throw WebPushCredentialsError(source: source, message: "not URL-safe base64")
                }
                key = try PrivateKey(rawP256Scalar: scalar)
            default:
                throw WebPushCredentialsError(source: "vapid", message: "give exactly one of private_key_file, private_key_pem or private_key")
            }
        } catch let error as WebPushCredentialsError {
            throw error
        } catch {
            throw WebPushCredentialsError(source: "vapid", message: "the VAPID key cannot be read: \(error)")
        }
        do {
            // The signer proves the key is P-256 and signs; the subject is checked as Safari's push service checks it.
            let signer = try VAPIDSigner(key: key, subject: try VAPIDSubject(vapid.subject))
            return WebPushProviderConfiguration(vapid: try VAPIDTokenCache(signer: signer), defaultTTL: defaultTTL.duration,
                                                requestTimeout: timeout.duration)
        } catch {
            throw WebPushCredentialsError(source: source, message: error.description)
        }
    }

    /// The HTTP client a `webpush:` section asks for: libcurl, which speaks
    /// HTTP/2 or HTTP/1.1 as the push service does and pools connections per
    /// origin; the connection ceiling, timeout and extra CA.
    public func httpClientConfiguration(resolve: (String) -> String) -> HTTPClientConfiguration {
        let engine = HTTPClientConfiguration.Engine.libcurl
        var configuration = HTTPClientConfiguration(
            maxConnectionsPerHost: connections.maximum(automatic: engine.automaticConnections), requestTimeout: timeout.duration,
            tls: HTTPClientTLSConfiguration(caFile: caFile.map(resolve)), engine: engine)
        configuration.acceptsHTTP1 = true
        return configuration
    }
}
