import HeraldCore
import HeraldProviders

/// One message of the results exchange as `herald tail` prints it: the
/// event's (or registry command's) id, the provider, the target with device
/// tokens and FIDs masked as logs mask them (`LogValue.mask`), the status and
/// the reason, in columns of fixed width so a stream of lines stays aligned.
///
/// It reads the JSON itself rather than decoding an `Outcome`, so delivery
/// outcomes (`event_id`, `status`) and registry results (`command_id`,
/// `result`) print alike, and a body that is not what either schema says
/// still prints its routing key.
struct ResultLine {
    let id: String
    let provider: String
    let target: String
    let status: String
    let reason: String

    /// Column widths: an id or target that is longer is printed whole (id) or cut (target).
    static let widths = (id: 20, provider: 8, target: 26, status: 17)
    static let header = ResultLine(
        id: "EVENT", provider: "PROVIDER", target: "TARGET", status: "STATUS", reason: "REASON")

    init(id: String, provider: String, target: String, status: String, reason: String) {
        self.id = id
        self.provider = provider
        self.target = target
        self.status = status
        self.reason = reason
    }

    /// The line for a body delivered with `routingKey`.
    init(body: [UInt8], routingKey: String) {
        guard case .object(let object)? = try? JSONValue.parse(body) else {
            self.init(
                id: "-", provider: "-", target: "-", status: routingKey,
                reason: "(\(body.count) bytes that are not a JSON object)")
            return
        }
        func text(_ key: String) -> String? { object[key]?.stringValue }
        var target = "-"
        let kinds = ProviderCatalog.registered.addressKinds
        if let (kind, address) = kinds.lazy.compactMap({ kind in text(kind.field).map { (kind, $0) } }).first {
            target = kind.isDevice ? Self.masked(device: address) : address
        }
        if let channel = text("channel") { target = target == "-" ? channel : "\(target) (\(channel))" }
        var reason = text("reason") ?? ""
        if let detail = text("detail"), !detail.isEmpty { reason += reason.isEmpty ? detail : ": \(detail)" }
        // A registry_expired result: why the device went.
        if reason.isEmpty, let lastSeen = text("last_seen") { reason = "not registered since \(lastSeen)" }
        self.init(
            id: text("event_id") ?? text("command_id") ?? "-", provider: text("provider") ?? "-",
            target: target, status: text("status") ?? text("result") ?? routingKey, reason: reason)
    }

    /// A device address masked as logs mask it; a URL (a Web Push endpoint)
    /// shortened to its host and its masked last segment, to fit the column.
    static func masked(device address: String) -> String {
        let masked = LogValue.mask(token: address)
        guard address.contains("://") else { return masked }
        let host = masked.drop { $0 != "/" }.drop { $0 == "/" }.prefix { $0 != "/" }
        return "\(host)/…/\(masked.split(separator: "/").last ?? "")"
    }

    /// The line, every field through `TerminalText` (a control character from a publisher or push service is printed escaped).
    var text: String {
        let widths = Self.widths
        let (id, provider, status, reason) = (
            TerminalText.field(id), TerminalText.field(provider), TerminalText.field(status),
            TerminalText.field(reason)
        )
        let target = TerminalText.field(Self.cut(target, widths.target))
        let columns = [
            Self.pad(id, widths.id), Self.pad(provider, widths.provider), Self.pad(target, widths.target),
            Self.pad(status, widths.status),
        ]
        let line = columns.joined(separator: "  ") + "  " + reason
        return reason.isEmpty ? String(line.reversed().drop(while: { $0 == " " }).reversed()) : line
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    private static func cut(_ text: String, _ width: Int) -> String {
        text.count <= width ? text : String(text.prefix(width - 1)) + "…"
    }
}
