import CCurl
import CJemalloc
import CHeraldShim
import CNGHTTP2
import CRabbitMQ
import CYAML
import HeraldService

/// `herald version`: Herald's version and the versions of the C libraries it
/// runs on, the first thing to paste into a bug report.
public struct VersionCommand: SimpleCommand {
    public static let version = HeraldVersion.current

    public init() {}

    public let name = "version"
    public let summary = "Print Herald's version and its libraries' versions"
    public var help: String {
        """
        Usage: herald version

        Prints Herald's version and the versions of the C libraries it is linked with
        (libcurl, OpenSSL, nghttp2, rabbitmq-c, libyaml).
        """
    }

    var argumentSyntax: ArgumentSyntax { ArgumentSyntax() }

    public func run(_ arguments: [String], environment: [String: String], console: any Console) async -> Int32 {
        do {
            let parsed = try argumentSyntax.parse(arguments)
            if parsed.flags.contains("help") { console.out(help); return ExitStatus.success }
            try parsed.refusePositionals()
        } catch {
            return usageFailure(error, console: console)
        }
        console.out("herald \(Self.version)")
        for (name, version) in Self.libraries() {
            console.out("  \(name) \(version)")
        }
        return ExitStatus.success
    }

    /// The linked C libraries and their run-time versions.
    static func libraries() -> [(String, String)] {
        var result: [(String, String)] = []
        if let curl = herald_curl_version_info() {
            result.append(("libcurl", String(cString: curl.pointee.version)))
            if let ssl = curl.pointee.ssl_version { result.append(("tls", String(cString: ssl))) }
        }
        if let h2 = nghttp2_version(0) { result.append(("nghttp2", String(cString: h2.pointee.version_str))) }
        result.append(("rabbitmq-c", String(cString: amqp_version())))
        result.append(("libyaml", String(cString: yaml_get_version_string())))
        if let allocator = jemallocVersion() { result.append(("jemalloc", allocator)) }
        return result
    }

    /// jemalloc's version, read through `mallctl`; nil if the call fails.
    static func jemallocVersion() -> String? {
        var version: UnsafePointer<CChar>?
        var length = MemoryLayout<UnsafePointer<CChar>?>.size
        guard mallctl("version", &version, &length, nil, 0) == 0, let version else { return nil }
        return String(cString: version)
    }
}
