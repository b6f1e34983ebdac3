/// A node of the loaded document: what the decoder walks, what validators
/// look positions up in, and what a type can capture to accept "any YAML
/// value". Aliases are already resolved and merge keys already applied.
public struct YAMLNode: Sendable, Hashable {
    /// The three kinds of YAML node.
    public enum Content: Sendable, Hashable {
        case scalar(YAMLScalar)
        case sequence([YAMLNode])
        /// Entries in source order, merged (`<<`) entries included.
        case mapping([YAMLMappingEntry])
    }

    public var content: Content
    /// Where the node starts in the source.
    public var mark: YAMLMark

    public init(_ content: Content, mark: YAMLMark) {
        self.content = content
        self.mark = mark
    }
}
