// swift-tools-version:6.0
import Foundation
import PackageDescription

/// Herald's release version: the first line of VERSION beside this manifest,
/// compiled into `herald version` and `herald_build_info` (CHeraldShim's `herald_version`).
let heraldVersion: String = {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("VERSION")
    let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
    let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    return line.isEmpty ? "unknown" : line
}()

/// Herald: a push-notification delivery service (RabbitMQ in, APNs, FCM and Web Push out), for Linux.
///
/// The module graph, outermost first. Each module sits on the ones named after "on", and on `HeraldCore`,
/// `HeraldSystem` and `CHeraldShim` where it needs them; on nothing else. scripts/check-module-graph holds the
/// graph to this: HeraldCore and HeraldPipeline reach no C module, no provider and no config; the simulator no
/// config; HeraldConfig no provider; every module imports only what it declares.
/// - `herald` (executable) on `HeraldCLI`: the commands (check, completion, dead, init, publish, registry, run,
///   send, simulate, tail, version), on everything below, jemalloc as the allocator
/// - `HeraldService` (`herald run`: each app's providers built from its sections, the consume → deliver →
///   publish loop, traffic control, the config mapped onto the pipeline and the registry) on `HeraldConfig`,
///   `HeraldPipeline`, `HeraldAMQP`, `HeraldProviders`, `HeraldProviderKit`, `HeraldObservability`,
///   `HeraldRegistry`, `HeraldHTTPClient`, `HeraldCrypto`
/// - `HeraldConfig` (config.yaml: loading with positions, the model, validation) on `HeraldYAML` and
///   `HeraldProviderKit`; it is given the providers (`ConfigLoader.load(providers:)`), it imports none
/// - `HeraldProviders` (the one list of providers, docs/providers.md) on `HeraldAPNs`, `HeraldFCM`, `HeraldWebPush`
///   and `HeraldProviderKit`
/// - `HeraldAPNs`, `HeraldFCM`, `HeraldWebPush` (one provider each: its targets' rules, its config section, its
///   requests and answers) on `HeraldProviderKit`, `HeraldHTTPClient` and `HeraldCrypto`; `HeraldFCM` also on
///   `HeraldAPNs`, for the `apns` block it forwards to APNs (its limits)
/// - `HeraldProviderKit` (the provider seam and the config vocabulary: durations, paths, issues) on
///   `HeraldHTTPClient`
/// - `HeraldSimulator` (simulated APNs, FCM, Google OAuth and a Web Push push service; `herald simulate`) on
///   `HeraldHTTP2Server`, `HeraldWebPush` (its encryption and VAPID, to read and check what it receives),
///   `HeraldFCM` (service-account keys, read as Herald reads them), `HeraldAPNs` (Apple's environments),
///   `HeraldProviderKit` (config durations),
///   `HeraldYAML`, `HeraldCrypto`, `HeraldTLS`, OpenSSL
/// - `HeraldPipeline` (pure per-event decisions: decode, route, exclude, expire, reject; retry policy, outcomes,
///   traffic buckets, the invalidation guard) on `HeraldCore` and `HeraldSystem` alone
/// - `HeraldAMQP` (consumer, confirmed publisher, topology, reconnect) on rabbitmq-c and OpenSSL
/// - `HeraldHTTPClient` (HTTP/2 client: its own on nghttp2 + OpenSSL, or libcurl), `HeraldHTTP2Server` (on
///   nghttp2 + OpenSSL), `HeraldObservability` (metrics, health on libmicrohttpd), `HeraldRegistry` (devices on
///   channels, on SQLite or PostgreSQL; its secrets at rest through `HeraldCrypto`), `HeraldCrypto` (keys, ES256/RS256, JWT, ECDH, HKDF, AES-GCM on
///   OpenSSL), `HeraldYAML` (libyaml and a Decoder with positioned errors): each on `HeraldCore` and its C
///   library; the HTTP/2 client and server and the crypto also on `HeraldTLS`
/// - `HeraldTLS` (the C plumbing the HTTP/2 client and server, the crypto and the simulator share: OpenSSL's
///   error queue, the non-blocking TLS/socket write pump, nghttp2's session setup and callback helpers) on
///   OpenSSL and nghttp2 alone
/// - `HeraldCore` (event and outcome model, JSON, routing, logging, the `PushProvider` protocol and providers'
///   target rules) on `HeraldSystem` alone: pure Swift, importing no C module (ChannelName.swift imports
///   Foundation for Unicode NFC, the one exception)
/// - `HeraldSystem` (the operating-system calls the modules above share: `Locked`, the wall clock, bounded
///   file reads, loop pacing, standard error) on Glibc alone
/// - `C*` system-library targets, one per C library (Debian packages, scripts/bootstrap), and `CHeraldShim`
///   for what Swift cannot call (variadic functions, macros) on libcurl, OpenSSL and libmicrohttpd
/// - `HeraldCoreTestSupport` (stand-in providers, so HeraldCore's and HeraldPipeline's tests run without the real
///   ones) on `HeraldCore` alone
/// - `HeraldTestSupport` (throwaway CA and certificates, the scripts that run test brokers, turns at the local
///   RabbitMQ cluster, registry test databases) on `HeraldHTTP2Server`, `HeraldRegistry`, `HeraldProviders`,
///   libpq; `HeraldSimulatorTestSupport` (the simulator served on a free port for tests) on `HeraldSimulator` and
///   `HeraldTestSupport`, which stays free of the simulator; `HeraldBrokerTestSupport` (a test's own names on the
///   shared broker, and their clean-up) on `HeraldAMQP` and `HeraldTestSupport`; `herald-bench` and
///   `herald-bench-amqp` (benchmarks) on the modules they measure.
let package = Package(
    name: "Herald",
    products: [
        .executable(name: "herald", targets: ["herald"]),
        .executable(name: "herald-bench", targets: ["herald-bench"]),
        .executable(name: "herald-bench-amqp", targets: ["herald-bench-amqp"]),
    ],
    targets: [
        // MARK: C libraries (Debian packages; see scripts/bootstrap)
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CRabbitMQ", pkgConfig: "librabbitmq", providers: [.apt(["librabbitmq-dev"])]),
        .systemLibrary(name: "CNGHTTP2", pkgConfig: "libnghttp2", providers: [.apt(["libnghttp2-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CJemalloc", pkgConfig: "jemalloc", providers: [.apt(["libjemalloc-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .target(
            name: "CHeraldShim", dependencies: ["CCurl", "COpenSSL", "CMicroHTTPD"],
            cSettings: [.define("HERALD_VERSION", to: "\"\(heraldVersion)\"")]),

        // MARK: Herald
        .target(name: "HeraldSystem"),
        .target(name: "HeraldCore", dependencies: ["HeraldSystem"]),
        .target(name: "HeraldTLS", dependencies: ["COpenSSL", "CNGHTTP2"]),
        .target(name: "HeraldCrypto", dependencies: ["COpenSSL", "CHeraldShim", "HeraldCore", "HeraldTLS"]),
        .target(name: "HeraldYAML", dependencies: ["HeraldSystem", "CYAML", "HeraldCore"]),
        .target(name: "HeraldProviderKit", dependencies: ["HeraldSystem", "HeraldCore", "HeraldHTTPClient"]),
        .target(name: "HeraldConfig", dependencies: ["HeraldCore", "HeraldYAML", "HeraldProviderKit"]),
        .target(
            name: "HeraldHTTPClient",
            dependencies: ["HeraldSystem", "CCurl", "CNGHTTP2", "COpenSSL", "CHeraldShim", "HeraldCore", "HeraldTLS"]),
        .target(
            name: "HeraldHTTP2Server",
            dependencies: ["HeraldSystem", "CNGHTTP2", "COpenSSL", "CHeraldShim", "HeraldCore", "HeraldTLS"]),
        .target(name: "HeraldAMQP", dependencies: ["HeraldSystem", "CRabbitMQ", "COpenSSL", "CHeraldShim", "HeraldCore"]),
        // MARK: Providers: one module each, listed once in HeraldProviders (docs/providers.md)
        .target(name: "HeraldAPNs", dependencies: ["HeraldSystem", "HeraldCore", "HeraldCrypto", "HeraldHTTPClient", "HeraldProviderKit"]),
        .target(
            name: "HeraldFCM",
            dependencies: [
                "HeraldSystem", "HeraldCore", "HeraldCrypto", "HeraldHTTPClient", "HeraldProviderKit", "HeraldAPNs",
            ]),
        .target(name: "HeraldWebPush", dependencies: ["HeraldSystem", "HeraldCore", "HeraldCrypto", "HeraldHTTPClient", "HeraldProviderKit"]),
        .target(name: "HeraldProviders", dependencies: ["HeraldCore", "HeraldProviderKit", "HeraldAPNs", "HeraldFCM", "HeraldWebPush"]),
        .target(
            name: "HeraldSimulator",
            dependencies: [
                "HeraldSystem", "HeraldCore", "HeraldCrypto", "HeraldProviderKit", "HeraldAPNs", "HeraldFCM",
                "HeraldWebPush",
                "HeraldYAML", "HeraldHTTP2Server", "HeraldTLS", "COpenSSL", "CHeraldShim",
            ]),
        .target(name: "HeraldObservability", dependencies: ["HeraldSystem", "HeraldCore", "CMicroHTTPD", "CHeraldShim"]),
        .target(name: "HeraldPipeline", dependencies: ["HeraldSystem", "HeraldCore"]),
        .target(name: "HeraldRegistry", dependencies: ["HeraldSystem", "HeraldCore", "HeraldCrypto", "CSQLite", "CPostgres"]),
        .target(
            name: "HeraldService",
            dependencies: [
                "HeraldSystem", "HeraldCore", "HeraldConfig", "HeraldPipeline", "HeraldAMQP", "HeraldProviderKit", "HeraldProviders",
                "HeraldCrypto", "HeraldHTTPClient", "HeraldObservability", "HeraldRegistry", "CHeraldShim",
            ]),
        .target(
            name: "HeraldCLI",
            dependencies: [
                "HeraldSystem", "HeraldCore", "HeraldConfig", "HeraldPipeline", "HeraldAMQP", "HeraldProviderKit", "HeraldProviders", "HeraldAPNs", "HeraldSimulator",
                "HeraldService", "HeraldRegistry", "HeraldHTTPClient", "HeraldHTTP2Server", "CCurl", "CHeraldShim", "CNGHTTP2", "CRabbitMQ", "CYAML", "CJemalloc",
            ]),
        .executableTarget(name: "herald", dependencies: ["HeraldCLI"]),

        // MARK: Test and benchmark support
        .target(name: "HeraldCoreTestSupport", dependencies: ["HeraldCore"]),
        .target(name: "HeraldTestSupport", dependencies: ["HeraldSystem", "HeraldCore", "HeraldHTTP2Server", "HeraldRegistry", "HeraldProviders", "CPostgres"]),
        .target(name: "HeraldSimulatorTestSupport", dependencies: ["HeraldSimulator", "HeraldHTTP2Server", "HeraldTestSupport", "HeraldCore"]),
        .target(name: "HeraldBrokerTestSupport", dependencies: ["HeraldAMQP", "HeraldTestSupport"]),
        .executableTarget(
            name: "herald-bench",
            dependencies: [
                "HeraldSystem", "HeraldHTTPClient", "HeraldHTTP2Server", "HeraldTestSupport", "HeraldCore", "HeraldPipeline", "HeraldAPNs",
                "HeraldFCM", "HeraldRegistry", "HeraldProviders",
            ]),
        .executableTarget(name: "herald-bench-amqp", dependencies: ["HeraldAMQP", "HeraldCore"]),

        // MARK: Tests
        .testTarget(
            name: "CLibrariesTests",
            dependencies: ["CYAML", "CCurl", "COpenSSL", "CRabbitMQ", "CNGHTTP2", "CHeraldShim", "CSQLite", "CPostgres"]),
        .testTarget(name: "HeraldCoreTests", dependencies: ["HeraldCore", "HeraldCoreTestSupport", "HeraldSystem"]),
        .testTarget(
            name: "HeraldProvidersTests",
            dependencies: ["HeraldProviders", "HeraldAPNs", "HeraldFCM", "HeraldCore", "HeraldPipeline"]),
        .testTarget(name: "HeraldCryptoTests", dependencies: ["HeraldCrypto", "HeraldCore", "HeraldTestSupport"]),
        .testTarget(
            name: "HeraldWebPushTests", dependencies: ["HeraldWebPush", "HeraldHTTPClient", "HeraldCrypto", "HeraldCore", "HeraldProviders", "HeraldSystem"],
            // Cross-check vectors, read from the source tree (see WebPushCrossCheckTests).
            exclude: ["Fixtures"]),
        .testTarget(name: "HeraldYAMLTests", dependencies: ["HeraldYAML", "HeraldCore"]),
        .testTarget(name: "HeraldTestSupportTests", dependencies: ["HeraldTestSupport", "HeraldSystem"]),
        .testTarget(name: "HeraldConfigTests", dependencies: ["HeraldConfig", "HeraldCore", "HeraldAPNs", "HeraldFCM", "HeraldYAML", "HeraldProviders"]),
        .testTarget(
            name: "HeraldHTTPClientTests",
            dependencies: ["HeraldHTTPClient", "HeraldHTTP2Server", "HeraldTestSupport", "HeraldCore", "HeraldAPNs", "COpenSSL", "HeraldSystem"]),
        .testTarget(
            name: "HeraldHTTP2ServerTests",
            dependencies: ["HeraldSystem", "HeraldHTTP2Server", "HeraldHTTPClient", "HeraldTestSupport", "HeraldCore", "HeraldTLS", "COpenSSL", "CHeraldShim"]),
        .testTarget(
            name: "HeraldAPNsTests",
            dependencies: ["HeraldAPNs", "HeraldCore", "HeraldCrypto", "HeraldConfig", "HeraldYAML", "HeraldHTTPClient", "HeraldPipeline", "HeraldService", "HeraldTestSupport", "HeraldProviders", "HeraldSystem"]),
        .testTarget(
            name: "HeraldFCMTests",
            dependencies: ["HeraldFCM", "HeraldAPNs", "HeraldProviders", "HeraldSimulator", "HeraldSimulatorTestSupport", "HeraldHTTPClient", "HeraldTestSupport", "HeraldCore", "HeraldCrypto", "HeraldConfig", "HeraldYAML", "HeraldService", "HeraldSystem"]),
        .testTarget(
            name: "HeraldSimulatorTests",
            dependencies: ["HeraldSimulator", "HeraldSimulatorTestSupport", "HeraldAPNs", "HeraldFCM", "HeraldCLI", "HeraldConfig", "HeraldHTTPClient", "HeraldHTTP2Server", "HeraldPipeline", "HeraldTestSupport", "HeraldCrypto", "HeraldWebPush", "HeraldCore", "HeraldSystem"]),
        .testTarget(name: "HeraldAMQPTests", dependencies: ["HeraldAMQP", "HeraldBrokerTestSupport", "HeraldCore", "CRabbitMQ", "HeraldTestSupport", "HeraldSystem"]),
        .testTarget(name: "HeraldObservabilityTests", dependencies: ["HeraldObservability", "HeraldTestSupport"]),
        .testTarget(name: "HeraldPipelineTests", dependencies: ["HeraldPipeline", "HeraldCore", "HeraldCoreTestSupport", "HeraldSystem"]),
        .testTarget(name: "HeraldRegistryTests", dependencies: ["HeraldRegistry", "HeraldCore", "HeraldTestSupport", "HeraldProviders", "HeraldAPNs", "HeraldFCM"]),
        .testTarget(
            name: "HeraldServiceTests",
            dependencies: ["HeraldService", "HeraldCLI", "HeraldAMQP", "HeraldBrokerTestSupport", "HeraldSimulator", "HeraldSimulatorTestSupport", "HeraldHTTP2Server", "HeraldTestSupport", "HeraldCrypto", "HeraldConfig", "HeraldCore", "HeraldObservability", "HeraldRegistry", "HeraldAPNs", "HeraldProviders", "HeraldFCM", "HeraldWebPush", "HeraldHTTPClient", "HeraldPipeline", "HeraldProviderKit", "HeraldSystem"]),
        .testTarget(
            name: "HeraldCLITests", dependencies: ["HeraldCLI", "HeraldBrokerTestSupport", "HeraldTestSupport", "HeraldRegistry", "HeraldCore", "HeraldAMQP", "CJemalloc", "HeraldSystem"]),
    ],
    swiftLanguageModes: [.v6]
)

// MARK: Fuzz targets (scripts/fuzz)
//
// libFuzzer executables, one per input Herald parses, under Fuzz/. They exist
// only when HERALD_FUZZ=1 (scripts/fuzz sets it and builds them with
// `-sanitize=fuzzer,address` in .build/fuzz), so `swift build` and
// `swift test` neither see nor build them.
if Context.environment["HERALD_FUZZ"] == "1" {
    func fuzzTarget(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
        .executableTarget(name: name, dependencies: ["FuzzSupport"] + dependencies, path: "Fuzz/Sources/\(name)")
    }
    package.targets += [
        .target(name: "CLibFuzzerDriver", path: "Fuzz/Sources/CLibFuzzerDriver"),
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzerDriver"], path: "Fuzz/Sources/FuzzSupport"),
        fuzzTarget("FuzzJSON", ["HeraldCore"]),
        fuzzTarget("FuzzEvent", ["HeraldCore", "HeraldPipeline", "HeraldProviders", "HeraldAPNs", "HeraldFCM", "HeraldWebPush"]),
        fuzzTarget("FuzzConfig", ["HeraldCore", "HeraldYAML", "HeraldConfig", "HeraldProviders", "HeraldSimulator"]),
        fuzzTarget("FuzzProviderResponses", ["HeraldCore", "HeraldAPNs", "HeraldFCM", "HeraldWebPush"]),
        fuzzTarget("FuzzAMQPProperties", ["HeraldCore", "HeraldAMQP", "HeraldPipeline", "HeraldService", "CRabbitMQ"]),
        fuzzTarget("FuzzSimulator", ["HeraldCore", "HeraldCrypto", "HeraldAPNs", "HeraldFCM", "HeraldSimulator"]),
        fuzzTarget("FuzzEgress", ["HeraldHTTPClient"]),
        fuzzTarget("FuzzProviderWords", ["HeraldCore"]),
    ]
}
