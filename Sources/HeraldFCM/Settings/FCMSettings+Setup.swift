import HeraldCore
import HeraldHTTPClient
import HeraldProviderKit
import HeraldSystem

extension FCMSettings {
    public var sendsPerSecond: Double? { maxPerMinute.map { $0 / 60 } }

    public var summary: String { "fcm (project \(projectID ?? "from the service account"), \(baseURL))" }

    /// The service account is loaded on the client made for it.
    public func setUp(_ context: ProviderSetupContext) throws(ProviderSetupError) -> ProviderSetup {
        ProviderSetup(httpClient: FCMProvider.httpClientConfiguration(settings: self, resolve: context.resolvePath)) {
            (client: HTTPClient) throws(ProviderSetupError) -> AppProvider in
            do throws(FCMConfigurationError) {
                return AppProvider(
                    try FCMProvider.make(
                        settings: self, resolve: context.resolvePath, httpClient: client, logger: context.logger,
                        onRefresh: context.onRefresh))
            } catch {
                throw ProviderSetupError(error.description)
            }
        }
    }
}

extension FCMProvider {
    /// The provider for an app's `fcm:` section (what `herald run` and
    /// `herald send` call): loads the service account from
    /// `service_account_file` (resolved with `resolve`) or `service_account_json`.
    public static func make(
        settings: FCMSettings, resolve: (String) -> String, httpClient: HTTPClient, logger: Logger,
        now: @escaping @Sendable () -> Timestamp = { Timestamp.now() }, onRefresh: CredentialRefreshHook? = nil
    ) throws(FCMConfigurationError) -> FCMProvider {
        let account = try loadServiceAccount(settings: settings, resolve: resolve)
        guard let projectID = settings.projectID ?? account.projectID, !projectID.isEmpty else {
            throw FCMConfigurationError(
                source: "project_id", message: "not set, and the service account has no \"project_id\"")
        }
        do {
            try httpClient.configuration.tls.validate()
        } catch {
            throw FCMConfigurationError(source: "ca_file", message: error.message)
        }
        return FCMProvider(
            projectID: projectID, account: account, endpoint: settings.baseURL, httpClient: httpClient,
            timeout: settings.timeout.duration, logger: logger.child("fcm"), now: now, onRefresh: onRefresh)
    }

    /// The HTTP client settings an `fcm:` section asks for (connection ceiling, idle time, timeout, extra CA).
    public static func httpClientConfiguration(settings: FCMSettings, resolve: (String) -> String)
        -> HTTPClientConfiguration
    {
        let engine = HTTPClientConfiguration.Engine(rawValue: settings.httpEngine.rawValue) ?? .nghttp2
        return HTTPClientConfiguration(
            maxConnectionsPerHost: settings.connections.maximum(automatic: engine.automaticConnections),
            requestTimeout: settings.timeout.duration,
            tls: HTTPClientTLSConfiguration(caFile: settings.caFile.map(resolve)), engine: engine,
            extraConnectionIdleTimeout: settings.idleTimeout.duration)
    }

    private static func loadServiceAccount(settings: FCMSettings, resolve: (String) -> String)
        throws(FCMConfigurationError) -> ServiceAccount
    {
        switch (settings.serviceAccountFile, settings.serviceAccountJSON) {
        case (let file?, nil):
            let path = resolve(file)
            let contents: BoundedFile
            do {
                contents = try BoundedFile(path: path, limit: .key)
            } catch {
                throw FCMConfigurationError(source: path, message: "the service-account file \(error.problem)")
            }
            return try ServiceAccount(json: String(decoding: contents.bytes, as: UTF8.self), source: path)
        case (nil, let json?):
            return try ServiceAccount(json: json, source: "service_account_json")
        case (.some, .some):
            throw FCMConfigurationError(
                source: "fcm", message: "give one of service_account_file and service_account_json, not both")
        case (nil, nil):
            throw FCMConfigurationError(source: "fcm", message: "missing service_account_file or service_account_json")
        }
    }
}

/// An FCM section that cannot become a working provider: an unreadable or
/// malformed service-account key, no project id. Names the source, never
/// the key material.
public struct FCMConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the problem is: a file path, `service_account_json`, `project_id`.
    public let source: String
    public let message: String

    public init(source: String, message: String) {
        self.source = source
        self.message = message
    }

    public var description: String { "\(source): \(message)" }
}
