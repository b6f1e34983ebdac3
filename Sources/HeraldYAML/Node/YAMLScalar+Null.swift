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
