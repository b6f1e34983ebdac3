import HeraldCore
extension DecodingSession {
    /// Turns an error thrown by a type's own `init(from:)` (a `DecodingError`
    /// from a custom type, or any other `Error`) into a `YAMLError` at the
    /// node being decoded — or deeper, when the error's coding path names a
    /// node below it.
    func translate<T>(_ error: any Error, decoding type: T.Type, node: YAMLNode, path: [any CodingKey]) -> YAMLError {
        guard let decodingError = error as? DecodingError else {
            return self.error(String(describing: error), at: node, path: path)
        }
        switch decodingError {
        case .dataCorrupted(let context):
            if let message = Self.unknownCaseMessage(T.self, node: node) {
                return self.error(message, at: node, path: path)
            }
            return positioned(context.debugDescription, context: context, node: node, path: path)
        case .keyNotFound(let key, let context):
            return positioned(
                "missing required key '\(key.stringValue.truncatedForMessage)'", context: context, node: node,
                path: path)
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return positioned(context.debugDescription, context: context, node: node, path: path)
        @unknown default:
            return self.error(String(describing: error), at: node, path: path)
        }
    }

    /// Positions the message at the deepest node of the error's coding path
    /// that exists below `node`; at `node` if the path is elsewhere.
    private func positioned(_ message: String, context: DecodingError.Context, node: YAMLNode, path: [any CodingKey])
        -> YAMLError
    {
        let text = message.isEmpty ? "invalid value" : message
        guard CodingPathID(context.codingPath).hasPrefix(CodingPathID(path)) else {
            return error(text, at: node, path: path)
        }
        var target = node
        var targetPath = path
        for key in context.codingPath.dropFirst(path.count) {
            guard let child = YAMLDocument.child(of: target, for: key) else { break }
            target = child
            targetPath.append(key)
        }
        return error(text, at: target, path: targetPath)
    }

    /// For a `CaseIterable` enum with `String` raw values that rejected a
    /// scalar: `unknown value 'prod' (did you mean 'production'?)`.
    private static func unknownCaseMessage<T>(_ type: T.Type, node: YAMLNode) -> String? {
        guard let scalar = node.scalar, let iterable = type as? any CaseIterable.Type else { return nil }
        let names = rawNames(of: iterable)
        guard !names.isEmpty, !names.contains(scalar.value) else { return nil }
        return "unknown value '\(scalar.value.truncatedForMessage)'" + Suggestions.hint(for: scalar.value, among: names)
    }

    private static func rawNames<C: CaseIterable>(of type: C.Type) -> [String] {
        let names = C.allCases.compactMap { ($0 as? any RawRepresentable)?.rawValue as? String }
        return names.count == C.allCases.count ? names : []
    }
}
