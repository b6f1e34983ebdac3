import Foundation
import HeraldCore
import HeraldCrypto
import HeraldHTTPClient

/// Everything an `APNsProvider` needs: where to connect, which bundle id, how
/// to authenticate. The service maps an app's `apns:` section onto it.
public struct APNsProviderConfiguration: Sendable {
    /// The app's bundle id; push types add their topic suffix to it.
    public var bundleID: String
    /// The `apns-topic` values this app's requests may carry
    /// (`APNsTopic.allowed`); any other is the target's `TopicNotAllowed`.
    public var allowedTopics: Set<String>
    /// `https://api.push.apple.com`, the sandbox host, or an override (the simulator).
    public var baseURL: String
    public var authentication: APNsAuthentication
    public var requestTimeout: Duration
    /// An extra trust root (the simulator's CA).
    public var caFile: String?
    /// The most connections to Apple's host (`connections`; nil in `init`: the engine's `auto`).
    public var connections: Int
    /// Connections beyond the first idle this long are closed.
    public var idleTimeout: Duration
    /// The HTTP/2 client implementation under the provider.
    public var engine: HTTPClientConfiguration.Engine

    public init(
        bundleID: String, baseURL: String, authentication: APNsAuthentication, requestTimeout: Duration = .seconds(10),
        caFile: String? = nil, connections: Int? = nil, engine: HTTPClientConfiguration.Engine = .nghttp2,
        idleTimeout: Duration = .seconds(60), allowedTopics: Set<String>? = nil
    ) {
        self.idleTimeout = idleTimeout
        self.engine = engine
        self.bundleID = bundleID
        self.allowedTopics = allowedTopics ?? APNsTopic.allowed(bundleIDs: [bundleID])
        self.baseURL = Self.withoutTrailingSlash(baseURL)
        self.authentication = authentication
        self.requestTimeout = requestTimeout
        self.caFile = caFile
        self.connections = connections ?? engine.automaticConnections
    }

    /// The same credentials and settings, sending to `baseURL` (the other
    /// APNs environment's host).
    public func sending(to baseURL: String) -> APNsProviderConfiguration {
        var copy = self
        copy.baseURL = Self.withoutTrailingSlash(baseURL)
        return copy
    }

    private static func withoutTrailingSlash(_ url: String) -> String {
        url.hasSuffix("/") ? String(url.dropLast()) : url
    }

    /// The provider-token manager of a `.p8` key given as PEM text; `source`
    /// names where the key came from in errors. Apps signing with the same
    /// key share one manager through `tokens` (Apple allows one token per key).
    public static func tokenManager(
        pem: String, source: String, teamID: String, keyID: String, clock: @escaping @Sendable () -> Timestamp,
        onRefresh: CredentialRefreshHook?, tokens: ProviderTokenRegistry?
    ) throws(APNsConfigurationError) -> ProviderTokenManager {
        let key: PrivateKey
        do { key = try PrivateKey(pem: pem) } catch { throw APNsConfigurationError("\(source): \(error)") }
        guard !teamID.isEmpty, !keyID.isEmpty else {
            throw APNsConfigurationError("token auth needs team_id and key_id")
        }
        let make = { () throws(APNsConfigurationError) -> ProviderTokenManager in
            ProviderTokenManager(
                signer: try ProviderTokenSigner(key: key, teamID: teamID, keyID: keyID), clock: clock,
                onRefresh: onRefresh)
        }
        do {
            guard let tokens else { return try make() }
            return try tokens.manager(for: key, teamID: teamID, keyID: keyID, make: make)
        } catch {
            throw APNsConfigurationError("\(source): \(error.message)")
        }
    }

    /// The HTTP client settings this provider needs: CA file, client
    /// certificate (certificate auth), connection ceiling, idle time and timeout.
    public var httpClientConfiguration: HTTPClientConfiguration {
        var certificate: HTTPClientTLSConfiguration.ClientCertificate?
        if case .certificate(let identity) = authentication { certificate = identity }
        return HTTPClientConfiguration(
            maxConnectionsPerHost: max(1, connections), requestTimeout: requestTimeout,
            tls: HTTPClientTLSConfiguration(caFile: caFile, clientCertificate: certificate), engine: engine,
            extraConnectionIdleTimeout: idleTimeout)
    }
}

/// APNs settings that cannot work (unreadable key, wrong key type, bad
/// endpoint). The message names the file or setting, never key material.
public struct APNsConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { "apns: \(message)" }
}

/// How the provider proves who it is to APNs: a provider token (JWT) in each
/// request, or a TLS client certificate on each connection (no JWT).
public enum APNsAuthentication: Sendable {
    case token(ProviderTokenManager)
    case certificate(HTTPClientTLSConfiguration.ClientCertificate)

    /// The client certificate for `path`: PKCS#12 for `.p12`/`.pfx` files
    /// (Keychain exports), else a PEM file holding certificate and key.
    public static func certificate(path: String, password: String?) -> APNsAuthentication {
        let lower = path.lowercased()
        if lower.hasSuffix(".p12") || lower.hasSuffix(".pfx") {
            return .certificate(.pkcs12(file: path, password: password ?? ""))
        }
        return .certificate(.pem(certificateFile: path, keyFile: path, keyPassword: password))
    }
}
