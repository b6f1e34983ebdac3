import HeraldCore
/// What the decoders and containers of one `YAMLDocument.decode` call share:
/// the file name, `userInfo`, and the mappings whose unknown keys are still
/// to be reported. Every `Decodable` value is decoded through
/// `decode(_:from:at:)`, which runs the type's `init(from:)`, then the
/// unknown-key check for the node it consumed, and turns any other error
/// into a positioned `YAMLError`. Not Sendable: lives for one decode call.
final class DecodingSession {
    let file: String
    let userInfo: [CodingUserInfoKey: Any]
    /// Mappings read through keyed containers whose keys are not yet checked.
    private var visits: [CodingPathID: MappingVisit] = [:]

    init(file: String, userInfo: [CodingUserInfoKey: Any]) {
        self.file = file
        self.userInfo = userInfo
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
            throw unknownKeyError(under: path, suggesting: missing.key) ?? missing.error
        } catch {
            // A key the type does not know is the likelier cause (a synthesized
            // enum's "Invalid number of keys found" for a misspelt case).
            defer { discardVisits(under: path) }
            throw unknownKeyError(under: path, suggesting: nil) ?? translate(error, decoding: T.self, node: node, path: path)
        }
    }

    func error(_ message: String, at node: YAMLNode, path: [any CodingKey]) -> YAMLError {
        YAMLError(file: file, mark: node.mark, path: path, message: message)
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

    /// Reports the first (in source order) unknown key of the mappings
    /// visited at or below `path`, and forgets them.
    private func checkUnknownKeys(under path: [any CodingKey]) throws(YAMLError) {
        let error = unknownKeyError(under: path, suggesting: nil)
        discardVisits(under: path)
        if let error { throw error }
    }

    /// The first unknown key at or below `path`; with `key`, only one whose
    /// suggestion is `key` (a typo that explains a missing required key).
    private func unknownKeyError(under path: [any CodingKey], suggesting key: String?) -> YAMLError? {
        let prefix = CodingPathID(path)
        var first: (entry: YAMLMappingEntry, visit: MappingVisit)?
        for (id, visit) in visits where id.hasPrefix(prefix) {
            for entry in visit.unknownEntries {
                if let key, Suggestions.closest(to: entry.key, among: visit.requested) != key { continue }
                if let current = first, !entry.keyMark.isBefore(current.entry.keyMark) { continue }
                first = (entry, visit)
            }
        }
        guard let (entry, visit) = first else { return nil }
        return YAMLError(
            file: file, mark: entry.keyMark, path: visit.path + [YAMLCodingKey(entry.key)],
            message: "unknown key '\(entry.key)'" + Suggestions.hint(for: entry.key, among: visit.requested))
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
