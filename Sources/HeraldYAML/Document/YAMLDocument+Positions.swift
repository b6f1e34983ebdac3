extension YAMLDocument {
    /// The node at a coding path, or the deepest existing ancestor when the
    /// path leads nowhere (a missing key, an index past the end).
    public func node(at path: [any CodingKey]) -> YAMLNode {
        var node = root
        for key in path {
            guard let child = Self.child(of: node, for: key) else { break }
            node = child
        }
        return node
    }

    /// Where the value at `path` starts (see `node(at:)` for missing paths).
    public func mark(at path: [any CodingKey]) -> YAMLMark {
        node(at: path).mark
    }

    /// An error positioned at the value at `path`, with `path` as its key path:
    /// `config.yaml:31:10: routes[1].app: unknown app 'chatt' (did you mean 'chat'?)`.
    public func error(at path: [any CodingKey], _ message: String) -> YAMLError {
        YAMLError(file: file, mark: mark(at: path), path: path, message: message)
    }

    static func child(of node: YAMLNode, for key: any CodingKey) -> YAMLNode? {
        switch node.content {
        case .mapping(let entries):
            return entries.first { $0.key == key.stringValue }?.value
        case .sequence(let items):
            guard let index = key.intValue, items.indices.contains(index) else { return nil }
            return items[index]
        case .scalar:
            return nil
        }
    }
}
