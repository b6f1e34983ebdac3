import HeraldCore

/// Turns libyaml's event stream into one `YAMLNode` tree: exactly one
/// document, anchors and aliases resolved, merge keys applied, duplicate and
/// non-scalar keys rejected, `${VAR}` expanded in scalar values.
struct YAMLComposer {
    /// Deeper nesting than this is an error rather than a stack overflow.
    static let maximumDepth = 256
    /// More nodes than this, counting each alias as the whole subtree it
    /// stands for, is an error: a few kilobytes of nested aliases can stand
    /// for billions of nodes (an "alias bomb"), and every later step walks
    /// them all. Real configs have a few thousand.
    static let maximumNodes = 100_000

    let parser: YAMLParser
    let file: String
    let expander: EnvironmentExpander
    private var anchors: [String: (node: YAMLNode, size: Int)] = [:]
    /// Nodes composed so far, aliases counted as the subtree they repeat.
    private var expandedNodes = 0

    init(parser: YAMLParser, file: String, expander: EnvironmentExpander) {
        self.parser = parser
        self.file = file
        self.expander = expander
    }

    /// The root of the single document in the stream.
    mutating func composeDocument() throws(YAMLError) -> YAMLNode {
        _ = try parser.next()  // stream start
        guard case .documentStart = try parser.next() else {
            throw YAMLError(file: file, line: 1, column: 1, message: "empty document (expected a mapping of settings)")
        }
        let root = try composeNode(try parser.next(), path: [], depth: 0)
        _ = try parser.next()  // document end
        if case .documentStart(let mark) = try parser.next() {
            throw YAMLError(
                file: file, mark: mark, path: [],
                message:
                    "a second document starts here (expected exactly one document; remove the '---' or split the file)")
        }
        return root
    }

    mutating func composeNode(_ event: YAMLEvent, path: [YAMLCodingKey], depth: Int, isKey: Bool = false)
        throws(YAMLError) -> YAMLNode
    {
        switch event {
        case .alias(let anchor, let mark):
            guard let (node, size) = anchors[anchor] else {
                throw YAMLError(
                    file: file, mark: mark, path: path,
                    message:
                        "unknown alias '*\(anchor.truncatedForMessage)' (no anchor '&\(anchor.truncatedForMessage)' is defined before it)"
                )
            }
            try count(size, at: mark, path: path, alias: anchor)
            return node
        case .scalar(var scalar, let anchor, let mark):
            try count(1, at: mark, path: path, alias: nil)
            if !isKey { scalar.value = try expand(scalar, at: mark, path: path) }
            return remember(YAMLNode(.scalar(scalar), mark: mark), as: anchor, size: 1)
        case .sequenceStart(let anchor, let mark):
            try checkDepth(depth, mark: mark, path: path)
            let start = expandedNodes
            try count(1, at: mark, path: path, alias: nil)
            var items: [YAMLNode] = []
            while true {
                let next = try parser.next()
                if case .sequenceEnd = next { break }
                items.append(try composeNode(next, path: path + [YAMLCodingKey(index: items.count)], depth: depth + 1))
            }
            return remember(YAMLNode(.sequence(items), mark: mark), as: anchor, size: expandedNodes - start)
        case .mappingStart(let anchor, let mark):
            try checkDepth(depth, mark: mark, path: path)
            let start = expandedNodes
            try count(1, at: mark, path: path, alias: nil)
            let entries = try composeMappingEntries(path: path, depth: depth)
            return remember(YAMLNode(.mapping(entries), mark: mark), as: anchor, size: expandedNodes - start)
        default:
            throw YAMLError(file: file, line: 0, column: 0, message: "unexpected YAML event \(event)")
        }
    }

    private mutating func remember(_ node: YAMLNode, as anchor: String?, size: Int) -> YAMLNode {
        if let anchor { anchors[anchor] = (node, size) }
        return node
    }

    private mutating func count(_ nodes: Int, at mark: YAMLMark, path: [YAMLCodingKey], alias: String?)
        throws(YAMLError)
    {
        expandedNodes += nodes
        guard expandedNodes > Self.maximumNodes else { return }
        let place =
            alias.map { "the alias '*\($0.truncatedForMessage)' (\(nodes) nodes each time it is used)" } ?? "this node"
        throw YAMLError(
            file: file, mark: mark, path: path,
            message:
                "the document grows past \(Self.maximumNodes) nodes at \(place), counting every alias as the nodes it repeats; "
                + "aliases of aliases multiply (an alias bomb?)")
    }

    private func checkDepth(_ depth: Int, mark: YAMLMark, path: [YAMLCodingKey]) throws(YAMLError) {
        guard depth < Self.maximumDepth else {
            throw YAMLError(
                file: file, mark: mark, path: path, message: "nesting deeper than \(Self.maximumDepth) levels")
        }
    }

    /// Expands `${...}`, positioning an error at the `${` itself when the
    /// scalar's text can be found verbatim in the source, else at the scalar.
    private func expand(_ scalar: YAMLScalar, at mark: YAMLMark, path: [YAMLCodingKey]) throws(YAMLError) -> String {
        do {
            return try expander.expand(scalar.value)
        } catch {
            let quote = scalar.style == .singleQuoted || scalar.style == .doubleQuoted ? 1 : 0
            let before = scalar.value.unicodeScalars.prefix(error.offset + 2)
            var at = mark
            if let source = parser.source.scalars(line: mark.line, fromColumn: mark.column + quote),
                source.starts(with: before)
            {
                at.column += quote + error.offset
            }
            throw YAMLError(file: file, mark: at, path: path, message: error.message)
        }
    }
}
