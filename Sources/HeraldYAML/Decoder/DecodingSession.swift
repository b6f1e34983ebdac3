import HeraldCore
/// What the decoders and containers of one `YAMLDocument` decode call share:
/// the file name, `userInfo`, the mappings whose unknown keys are still to be
/// reported and, when the session collects errors, the errors decoding went
/// on after. Every `Decodable` value is decoded through `decode(_:from:at:)`,
/// which runs the type's `init(from:)`, then the unknown-key check for the
/// node it consumed, and turns any other error into a positioned `YAMLError`.
/// Not Sendable: lives for one decode call.
///
/// Decoding can go on after an unknown key (the key is left out) and after
/// an optional value that fails to decode (`decodeIfPresent` returns nil, so
/// the type's default applies). A session made with `collectsErrors` records
/// these and goes on; otherwise it throws the first. A missing required key,
/// or a failure with no optional value above it, always ends decoding.
final class DecodingSession {
    let file: String
    let userInfo: [CodingUserInfoKey: Any]
    /// Whether errors decoding can go on after are recorded (`decodeCollectingErrors`) or thrown (`decode`).
    let collectsErrors: Bool
    /// The recorded errors, each with the path of what decoding left out because of it.
    private(set) var collected: [(error: YAMLError, leftOut: CodingPathID)] = []
    /// The error that ends decoding once thrown: a missing required key (or
    /// the typo that explains it). Optional values above it pass it on.
    private var ending: YAMLError?
    /// Mappings read through keyed containers whose keys are not yet checked.
    private var visits: [CodingPathID: MappingVisit] = [:]

    init(file: String, userInfo: [CodingUserInfoKey: Any], collectsErrors: Bool) {
        self.file = file
        self.userInfo = userInfo
        self.collectsErrors = collectsErrors
    }

    func decode<T: Decodable>(_ type: T.Type, from node: YAMLNode, at path: [any CodingKey]) throws(YAMLError) -> T {
        let decoder = YAMLNodeDecoder(node: node, codingPath: path, session: self)
        do {
            let value = try T(from: decoder)
            try checkUnknownKeys(under: path)
            return value
        } catch let error as YAMLError {
            discardVisits(under: path)
            throw error
        } catch let missing as MissingKeyError {
            defer { discardVisits(under: path) }
            let error = unknownKeyError(under: path, suggesting: missing.key) ?? missing.error
            ending = error
            throw error
        } catch {
            // A key the type does not know is the likelier cause (a synthesized
            // enum's "Invalid number of keys found" for a misspelt case).
            defer { discardVisits(under: path) }
            throw unknownKeyError(under: path, suggesting: nil)
                ?? translate(error, decoding: T.self, node: node, path: path)
        }
    }

    func error(_ message: String, at node: YAMLNode, path: [any CodingKey]) -> YAMLError {
        YAMLError(file: file, mark: node.mark, path: path, message: message)
    }

    /// Called by `decodeIfPresent` when the value at `path` failed to decode:
    /// records `error` and returns, so the value becomes nil, or throws it
    /// when this session does not collect or `error` ends decoding.
    func recover(from error: YAMLError, leavingOut path: [any CodingKey]) throws(YAMLError) {
        guard collectsErrors, error != ending else { throw error }
        collected.append((error, CodingPathID(path)))
    }

    // MARK: Mapping visits

    /// Called when a keyed container opens over a mapping: `known` are the
    /// keys its `CodingKey` type accepts.
    func beginVisit(_ entries: [YAMLMappingEntry], at path: [any CodingKey], known: Set<String>) {
        visits[CodingPathID(path), default: MappingVisit(path: path, entries: entries)].known.formUnion(known)
    }

    /// Called for every key `init(from:)` asks for: the did-you-mean candidates.
    func noteRequested(_ key: String, at path: [any CodingKey]) {
        visits[CodingPathID(path)]?.request(key)
    }

    /// Reports the unknown keys of the mappings visited at or below `path`,
    /// and forgets them: records every one when collecting, else throws the
    /// first in source order.
    private func checkUnknownKeys(under path: [any CodingKey]) throws(YAMLError) {
        let errors = unknownKeyErrors(under: path)
        discardVisits(under: path)
        guard let first = errors.first else { return }
        guard collectsErrors else { throw first.error }
        collected += errors.map { ($0.error, $0.leftOut) }
    }

    /// The first unknown key (in source order) at or below `path`; with `key`,
    /// only one whose suggestion is `key` (a typo that explains a missing required key).
    private func unknownKeyError(under path: [any CodingKey], suggesting key: String?) -> YAMLError? {
        unknownKeyErrors(under: path).first { key == nil || $0.suggestion == key }?.error
    }

    /// Every unknown key at or below `path`, in source order, with the key it
    /// is probably a typo of and the path of the entry decoding leaves out.
    private func unknownKeyErrors(under path: [any CodingKey]) -> [(
        error: YAMLError, leftOut: CodingPathID, suggestion: String?
    )] {
        let prefix = CodingPathID(path)
        var found: [(entry: YAMLMappingEntry, visit: MappingVisit)] = []
        for (id, visit) in visits where id.hasPrefix(prefix) {
            found += visit.unknownEntries.map { ($0, visit) }
        }
        found.sort { $0.entry.keyMark.isBefore($1.entry.keyMark) }
        return found.map { entry, visit in
            let entryPath = visit.path + [YAMLCodingKey(entry.key)]
            let error = YAMLError(
                file: file, mark: entry.keyMark, path: entryPath,
                message: "unknown key '\(entry.key.truncatedForMessage)'"
                    + Suggestions.hint(for: entry.key, among: visit.requested))
            return (error, CodingPathID(entryPath), Suggestions.closest(to: entry.key, among: visit.requested))
        }
    }

    private func discardVisits(under path: [any CodingKey]) {
        let prefix = CodingPathID(path)
        visits = visits.filter { !$0.key.hasPrefix(prefix) }
    }
}

extension YAMLMark {
    func isBefore(_ other: YAMLMark) -> Bool {
        (line, column) < (other.line, other.column)
    }
}
