import Foundation
import HeraldConfig
import HeraldCore
import HeraldCrypto
import HeraldHTTPClient

/// Everything an `APNsProvider` needs, resolved from an app's `apns:` settings:
/// where to connect, which bundle id, how to authenticate.
public struct APNsProviderConfiguration: Sendable {
    /// The app's bundle id; push types add their topic suffix to it.
    public var bundleID: String
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
        idleTimeout: Duration = .seconds(60)
    ) {
        self.idleTimeout = idleTimeout
        self.engine = engine
        self.bundleID = bundleID
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

    /// Loads the key (or names the certificate) from `settings`.
    /// - Parameters:
    ///   - resolvePath: makes config-relative paths absolute (`LoadedConfig.resolve`).
    ///   - clock: the wall clock provider tokens are issued by.
    ///   - onRefresh: told of every provider-token signing (metrics).
    ///   - tokens: where apps signing with the same key share one provider
    ///     token; without one, this app's key gets a manager of its own.
    public init(
        settings: APNsSettings, resolvePath: (String) -> String = { $0 },
        clock: @escaping @Sendable () -> Timestamp = { Timestamp.now() }, onRefresh: CredentialRefreshHook? = nil,
        tokens: ProviderTokenRegistry? = nil
    ) throws(APNsConfigurationError) {
        let authentication: APNsAuthentication
        switch settings.auth {
        case .keyFile(let path, let teamID, let keyID)?:
            let resolved = resolvePath(path)
            let file: BoundedFile
            do { file = try BoundedFile(path: resolved, limit: .key) } catch { throw APNsConfigurationError("key_file \(error)") }
            guard let pem = file.utf8Text else { throw APNsConfigurationError("key_file '\(resolved)' is not UTF-8 text (a .p8 key is PEM)") }
            authentication = .token(try Self.tokenManager(
                pem: pem, source: "key_file '\(resolved)'", teamID: teamID, keyID: keyID, clock: clock, onRefresh: onRefresh,
                tokens: tokens))
        case .keyPEM(let pem, let teamID, let keyID)?:
            authentication = .token(try Self.tokenManager(
                pem: pem, source: "key_pem", teamID: teamID, keyID: keyID, clock: clock, onRefresh: onRefresh, tokens: tokens))
        case .certificate(let path, let password)?:
            authentication = .certificate(path: resolvePath(path), password: password)
        case nil:
            throw APNsConfigurationError("give exactly one of key_file, key_pem or certificate_file")
        }
        let engine = HTTPClientConfiguration.Engine(rawValue: settings.httpEngine.rawValue) ?? .nghttp2
        self.init(
            bundleID: settings.topic, baseURL: settings.baseURL, authentication: authentication,
            requestTimeout: settings.timeout.duration, caFile: settings.caFile.map(resolvePath),
            connections: settings.connections.maximum(automatic: engine.automaticConnections), engine: engine,
            idleTimeout: settings.idleTimeout.duration)
        // The client certificate and CA file are loaded as a connection would load them, so a
        // wrong password or a broken file is a start-up error, not every connection's.
        do {
            try httpClientConfiguration.tls.validate()
        } catch {
            throw APNsConfigurationError(error.message)
        }
    }

    private static func tokenManager(
        pem: String, source: String, teamID: String, keyID: String, clock: @escaping @Sendable () -> Timestamp,
        onRefresh: CredentialRefreshHook?, tokens: ProviderTokenRegistry?
    ) throws(APNsConfigurationError) -> ProviderTokenManager {
        let key: PrivateKey
        do { key = try PrivateKey(pem: pem) } catch { throw APNsConfigurationError("\(source): \(error)") }
        guard !teamID.isEmpty, !keyID.isEmpty else { throw APNsConfigurationError("token auth needs team_id and key_id") }
        let make = { () throws(APNsConfigurationError) -> ProviderTokenManager in
            ProviderTokenManager(signer: try ProviderTokenSigner(key: key, teamID: teamID, keyID: keyID), clock: clock,
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
