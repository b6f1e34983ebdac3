import HeraldCore
import HeraldHTTPClient
import HeraldProviderKit
import HeraldSystem

extension APNsSettings {
    public var sendsPerSecond: Double? { maxPerSecond }

    public var summary: String {
        let authentication: String
        switch auth {
        case .keyFile(_, let team, let key), .keyPEM(_, let team, let key):
            authentication = "token auth, team \(team), key \(key)"
        case .certificate, .certificatePEM: authentication = "certificate auth"
        case nil: authentication = "no auth"
        }
        return "apns (\(authentication), topic \(topic), \(environment.rawValue), \(baseURL))"
    }

    /// Loads the key or certificate. The provider sends to the app's
    /// environment; a device whose token belongs to the other environment is
    /// sent to that environment's host with the same credentials and client
    /// (Apple's keys and universal certificates serve both), whose
    /// connections open on its first device.
    public func setUp(_ context: ProviderSetupContext) throws(ProviderSetupError) -> ProviderSetup {
        let configuration: APNsProviderConfiguration
        do {
            // Apps signing with one key share its provider token (Apple allows one per key).
            configuration = try APNsProviderConfiguration(
                settings: self, resolvePath: context.resolvePath, onRefresh: context.onRefresh,
                tokens: context.shared.object(ProviderTokenRegistry.self) { ProviderTokenRegistry() })
        } catch {
            throw ProviderSetupError(error.message)
        }
        let app = context.app
        return ProviderSetup(httpClient: configuration.httpClientConfiguration) {
            (client: HTTPClient) throws(ProviderSetupError) -> AppProvider in
            let provider = APNsProvider(configuration: configuration, client: client, logger: context.logger)
            let other = environment.other
            let otherProvider: Result<AnyPushProvider, UnavailableProvider>
            if let baseURL = baseURL(for: other) {
                otherProvider = .success(
                    AnyPushProvider(
                        APNsProvider(
                            configuration: configuration.sending(to: baseURL), client: client,
                            logger: context.logger.with(["environment": .string(other.rawValue)]))))
            } else {
                otherProvider = .failure(
                    UnavailableProvider(
                        reason:
                            "app '\(app)' has no endpoint for APNs \(other.rawValue) devices: apps.\(app).apns.endpoint replaces "
                            + "Apple's \(environment.rawValue) host only; set apps.\(app).apns.endpoints.\(other.rawValue)"
                    ))
            }
            return AppProvider(provider) { target in target.apns.environment == other ? otherProvider : nil }
        }
    }
}

extension APNsProviderConfiguration {
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
            do { file = try BoundedFile(path: resolved, limit: .key) } catch {
                throw APNsConfigurationError("key_file \(error)")
            }
            guard let pem = file.utf8Text else {
                throw APNsConfigurationError("key_file '\(resolved)' is not UTF-8 text (a .p8 key is PEM)")
            }
            authentication = .token(
                try Self.tokenManager(
                    pem: pem, source: "key_file '\(resolved)'", teamID: teamID, keyID: keyID, clock: clock,
                    onRefresh: onRefresh,
                    tokens: tokens))
        case .keyPEM(let pem, let teamID, let keyID)?:
            authentication = .token(
                try Self.tokenManager(
                    pem: pem, source: "key_pem", teamID: teamID, keyID: keyID, clock: clock, onRefresh: onRefresh,
                    tokens: tokens))
        case .certificate(let path, let password)?:
            authentication = .certificate(path: resolvePath(path), password: password)
        case .certificatePEM(let pem, let password)?:
            let path: String
            do { path = try MemoryPEMFile.path(holding: pem, name: "apns-certificate") } catch {
                throw APNsConfigurationError("certificate_pem: \(error)")
            }
            authentication = .certificate(.pem(certificateFile: path, keyFile: path, keyPassword: password))
        case nil:
            throw APNsConfigurationError(
                "give exactly one of key_file, key_pem, certificate_file or certificate_pem")
        }
        let engine = HTTPClientConfiguration.Engine(rawValue: settings.httpEngine.rawValue) ?? .nghttp2
        self.init(
            bundleID: settings.topic, baseURL: settings.baseURL, authentication: authentication,
            requestTimeout: settings.timeout.duration, caFile: settings.caFile.map(resolvePath),
            connections: settings.connections.maximum(automatic: engine.automaticConnections), engine: engine,
            idleTimeout: settings.idleTimeout.duration, allowedTopics: settings.permittedTopics)
        // The client certificate and CA file are loaded as a connection would load them, so a
        // wrong password or a broken file is a start-up error, not every connection's.
        do {
            try httpClientConfiguration.tls.validate()
        } catch {
            throw APNsConfigurationError(error.message)
        }
    }
}
