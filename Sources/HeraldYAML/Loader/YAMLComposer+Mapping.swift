import HeraldCore
extension YAMLComposer {
    /// One part of a mapping as written: an explicit entry, or the entries
    /// a `<<` merge key brings in at that place.
    private enum Part {
        case entry(YAMLMappingEntry)
        case merge([YAMLMappingEntry])
    }

    /// Reads key/value events up to the mapping end. Explicit keys must be
    /// unique and win over merged ones; among merged mappings the earlier wins.
    mutating func composeMappingEntries(path: [YAMLCodingKey], depth: Int) throws(YAMLError) -> [YAMLMappingEntry] {
        var parts: [Part] = []
        var explicit: [String: YAMLMark] = [:]
        while true {
            let keyEvent = try parser.next()
            if case .mappingEnd = keyEvent { break }
            let keyNode = try composeNode(keyEvent, path: path, depth: depth + 1, isKey: true)
            guard let key = keyNode.scalar else {
                throw YAMLError(
                    file: file, mark: keyNode.mark, path: path,
                    message: "a mapping key must be a scalar, found \(keyNode.foundDescription)")
            }
            let keyPath = path + [YAMLCodingKey(key.value)]
            if let first = explicit[key.value] {
                throw YAMLError(
                    file: file, mark: keyNode.mark, path: keyPath,
                    message:
                        "duplicate key '\(key.value.truncatedForMessage)' (first defined at line \(first.line), column \(first.column))"
                )
            }
            explicit[key.value] = keyNode.mark
            let value = try composeNode(try parser.next(), path: keyPath, depth: depth + 1)
            if Self.isMergeKey(key) {
                parts.append(.merge(try mergedEntries(value, path: keyPath)))
            } else {
                parts.append(.entry(YAMLMappingEntry(key: key.value, keyMark: keyNode.mark, value: value)))
            }
        }
        return flatten(parts, explicit: explicit)
    }

    private func flatten(_ parts: [Part], explicit: [String: YAMLMark]) -> [YAMLMappingEntry] {
        var entries: [YAMLMappingEntry] = []
        var merged: Set<String> = []
        for part in parts {
            switch part {
            case .entry(let entry):
                entries.append(entry)
            case .merge(let candidates):
                for entry in candidates where explicit[entry.key] == nil && !merged.contains(entry.key) {
                    merged.insert(entry.key)
                    entries.append(entry)
                }
            }
        }
        return entries
    }

    /// The entries a merge value contributes: a mapping, or a sequence of
    /// mappings in priority order.
    private func mergedEntries(_ value: YAMLNode, path: [YAMLCodingKey]) throws(YAMLError) -> [YAMLMappingEntry] {
        if let entries = value.mapping { return entries }
        guard let items = value.sequence else {
            throw mergeError(found: value, path: path)
        }
        var entries: [YAMLMappingEntry] = []
        for item in items {
            guard let itemEntries = item.mapping else { throw mergeError(found: item, path: path) }
            entries += itemEntries
        }
        return entries
    }

    private func mergeError(found node: YAMLNode, path: [YAMLCodingKey]) -> YAMLError {
        YAMLError(
            file: file, mark: node.mark, path: path,
            message: "the merge key '<<' expects a mapping or a sequence of mappings, found \(node.foundDescription)")
    }

    private static func isMergeKey(_ key: YAMLScalar) -> Bool {
        key.value == "<<" && key.style == .plain && (key.tag == nil || key.tag == "tag:yaml.org,2002:merge")
    }
}
