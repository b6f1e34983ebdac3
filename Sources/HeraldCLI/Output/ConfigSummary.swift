import Foundation
import HeraldAMQP
import HeraldConfig
import HeraldCore

/// What `herald check` prints for a valid config: enough to see at a glance
/// that Herald will connect where you think, with no secret in it.
struct ConfigSummary {
    let text: String

    /// `broker` is `loaded.amqpConfiguration()`: the addresses are shown as
    /// `herald run` reads them (`AMQPURL`, password masked).
    init(_ loaded: LoadedConfig, broker: AMQPConfiguration) {
        let c = loaded.configuration
        var lines = ["\(loaded.file): OK"]
        lines.append(
            "  amqp: \(broker.addresses.map(\.url.description).joined(separator: ", ")), queue \(c.amqp.queue) (\(c.amqp.queueType.rawValue)), prefetch \(c.amqp.prefetch)"
        )
        for name in c.apps.keys.sorted() {
            guard let app = c.apps[name] else { continue }
            let parts = app.orderedSections.map(\.summary)
            lines.append("  app \(name): " + parts.joined(separator: ", "))
        }
        let routes = c.routes.map(\.name)
        lines.append(
            "  routes: " + (routes.isEmpty ? "none (events use their own app)" : routes.joined(separator: ", ")))
        lines.append(
            "  retry: \(c.retry.maxAttempts) attempts, delays \(c.retry.delays.map(\.description).joined(separator: " "))"
        )
        lines.append("  outcomes published: \(c.outcomes.publish.joined(separator: ", "))")
        lines.append("  registry: " + Self.registry(c.registry))
        lines.append(
            "  duplicate_window: "
                + (c.duplicateWindow.milliseconds == 0 ? "off" : c.duplicateWindow.description))
        lines.append("  http: \(c.http.listen); log: \(c.log.level) \(c.log.format.rawValue)")
        for warning in loaded.warnings { lines.append(warning.description) }
        text = lines.joined(separator: "\n")
    }

    /// The registry's backend and where it is (a URL's password masked), or why there is none.
    static func registry(_ registry: RegistrySettings?) -> String {
        guard let registry else { return "none (channel targets fail)" }
        let location: String
        switch registry.backend {
        case .sqlite: location = registry.path ?? "no path"
        case .postgres: location = registry.url.map { URLSecrets.redacted($0) } ?? "no url"
        }
        return "\(registry.backend.rawValue) \(location)"
    }
}
