/// One `key: value` pair of a mapping. Keys are scalars (the loader rejects
/// others), kept as text with their own mark so an unknown or duplicate key
/// is reported where it is written.
public struct YAMLMappingEntry: Sendable, Hashable {
    public var key: String
    public var keyMark: YAMLMark
    public var value: YAMLNode

    public init(key: String, keyMark: YAMLMark, value: YAMLNode) {
        self.key = key
        self.keyMark = keyMark
        self.value = value
    }
}
