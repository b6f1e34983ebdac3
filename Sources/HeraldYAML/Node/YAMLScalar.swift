/// The text of a scalar exactly as libyaml delivered it (after folding and
/// escapes, and after `${VAR}` expansion), with the style it was written in,
/// so type-directed decoding can tell `null` from `"null"`.
public struct YAMLScalar: Sendable, Hashable {
    /// How the scalar was written in the source.
    public enum Style: Sendable, Hashable {
        case plain, singleQuoted, doubleQuoted, literal, folded
    }

    public var value: String
    public var style: Style
    /// The resolved tag (`tag:yaml.org,2002:str` for `!!str`), if one was written.
    public var tag: String?

    public init(value: String, style: Style = .plain, tag: String? = nil) {
        self.value = value
        self.style = style
        self.tag = tag
    }
}

extension YAMLScalar {
    static let nullTag = "tag:yaml.org,2002:null"
    static let stringTag = "tag:yaml.org,2002:str"

    /// True for `~`, `null`, `Null`, `NULL` and the empty plain scalar (or an
    /// explicit `!!null`). Quoted scalars and `!!str` are never null.
    public var isNull: Bool {
        if tag == Self.nullTag { return true }
        guard style == .plain, tag == nil else { return false }
        switch value {
        case "", "~", "null", "Null", "NULL": return true
        default: return false
        }
    }
}
