import HeraldCore
import HeraldCrypto
import HeraldHTTPClient
import HeraldProviderKit
import HeraldSystem

/// Why an app's `webpush:` section cannot make a provider: its VAPID key or
/// subject, named by where it came from.
public struct WebPushCredentialsError: Error, Sendable, CustomStringConvertible {
    public let source: String
    public let message: String
    public var description: String { "\(source): \(message)" }
}

extension WebPushSettings {
    /// Web Push has no throttle of its own: each subscription is on its browser's push service.
    public var sendsPerSecond: Double? { nil }

    /// What `herald check` says of the section; where
    /// its messages may go is named when it is not the default.
    public var summary: String {
        let hosts = allowedHosts.map { ", allowed_hosts \(AllowedHosts($0))" } ?? ""
        let unsafe =
            unsafeAllowInternalAddresses
            ? ", unsafe_allow_internal_addresses (loopback and private addresses reachable)" : ""
        return "webpush (VAPID subject \(vapid.subject), default TTL \(defaultTTL)\(hosts)\(unsafe))"
    }

    public func setUp(_ context: ProviderSetupContext) throws(ProviderSetupError) -> ProviderSetup {
        var configuration: WebPushProviderConfiguration
        do {
            configuration = try providerConfiguration(resolve: context.resolvePath)
        } catch {
            throw ProviderSetupError(error.description)
        }
        // The app is its requests' share of the shared client (`HTTPClientFairness`).
        configuration.tenant = context.app
        return ProviderSetup(httpClient: httpClientConfiguration(resolve: context.resolvePath)) {
            (client: HTTPClient) throws(ProviderSetupError) -> AppProvider in
            do throws(HTTPClientError) {
                try client.configuration.tls.validate()
            } catch {
                throw ProviderSetupError("ca_file: \(error.message)")
            }
            return AppProvider(
                WebPushProvider(
                    configuration: configuration, httpClient: client, logger: context.logger.child("webpush")))
        }
    }

    /// The provider's configuration: the VAPID key loaded (file, PEM or the
    /// raw 32-byte key) and proven to sign, the subject checked as Safari's
    /// push service checks it, and the message defaults.
    public func providerConfiguration(resolve: (String) -> String) throws(WebPushCredentialsError)
        -> WebPushProviderConfiguration
    {
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
                throw WebPushCredentialsError(
                    source: "vapid", message: "give exactly one of private_key_file, private_key_pem or private_key")
            }
        } catch let error as WebPushCredentialsError {
            throw error
        } catch {
            throw WebPushCredentialsError(source: "vapid", message: "the VAPID key cannot be read: \(error)")
        }
        do {
            // The signer proves the key is P-256 and signs; the subject is checked as Safari's push service checks it.
            let signer = try VAPIDSigner(key: key, subject: try VAPIDSubject(vapid.subject))
            return WebPushProviderConfiguration(
                vapid: try VAPIDTokenCache(signer: signer), defaultTTL: defaultTTL.duration,
                requestTimeout: timeout.duration,
                allowedHosts: AllowedHosts(allowedHosts ?? WebPushProviderConfiguration.browserPushServices),
                egress: egress)
        } catch {
            throw WebPushCredentialsError(source: source, message: error.description)
        }
    }

    /// How long opening a connection to a push service (TCP and TLS) may
    /// take: an endpoint that never accepts or never finishes its handshake
    /// frees its request's slot after this, not after the whole `timeout`.
    public static let connectTimeout: Duration = .seconds(5)

    /// Requests of one app to one push service origin in flight or queued at
    /// most (`HTTPClientFairness.maxQueuedPerOrigin`): the most targets one
    /// event may have, so one event's requests to one push service never
    /// meet it, while an origin whose requests are never answered holds no
    /// more than this of the app's queue; one more fails at once (retryable).
    public static let maxQueuedPerOrigin = EventLimits.default.maxTargets

    /// The longest answer body Herald reads from a push service. RFC 8030
    /// answers carry no body on success and a short error otherwise, and an
    /// app may have thousands of requests in flight, so the HTTP client's
    /// default of 1 MiB each would let endpoints that answer with megabytes
    /// hold gigabytes. A longer body fails its target (`transport
    /// responseTooLarge`), not retried; a declared `content-length` over it
    /// is refused before the body is read.
    public static let maxAnswerBytes = 64 * 1024

    /// The HTTP client a `webpush:` section asks for: libcurl, which speaks
    /// HTTP/2 or HTTP/1.1 as the push service does and pools connections per
    /// origin; the connection ceiling, timeouts, answer size, extra CA and
    /// egress policy; and fair sharing among the apps on it (their shares are set by whoever
    /// shares the client among them; here, one app's window).
    public func httpClientConfiguration(resolve: (String) -> String) -> HTTPClientConfiguration {
        let engine = HTTPClientConfiguration.Engine.libcurl
        var configuration = HTTPClientConfiguration(
            maxConnectionsPerHost: connections.maximum(automatic: engine.automaticConnections),
            requestTimeout: timeout.duration,
            connectTimeout: min(Self.connectTimeout, timeout.duration),
            tls: HTTPClientTLSConfiguration(caFile: caFile.map(resolve)), engine: engine)
        configuration.acceptsHTTP1 = true
        configuration.maxResponseBodyBytes = Self.maxAnswerBytes
        configuration.fairness = HTTPClientFairness(
            tenantWindow: configuration.maxInFlightRequests, maxQueuedPerOrigin: Self.maxQueuedPerOrigin)
        configuration.egress = egress
        return configuration
    }

    /// Where the section's requests may connect: public addresses only,
    /// unless `unsafe_allow_internal_addresses` says otherwise.
    public var egress: EgressPolicy { unsafeAllowInternalAddresses ? .unrestricted : .publicAddressesOnly }

    /// A subscription is registered only when its endpoint is one this app
    /// would send to (``WebPushProviderConfiguration/refusal(for:)``'s rule).
    public func registrationRefusal(_ address: Target.Address) -> String? {
        let url: HTTPSURL
        do { url = try HTTPSURL(parsing: address.value) } catch { return "the endpoint \(error.reason)" }
        return WebPushProviderConfiguration.refusal(
            host: url.host,
            allowedHosts: AllowedHosts(allowedHosts ?? WebPushProviderConfiguration.browserPushServices),
            egress: egress
        )?.description
    }
}
