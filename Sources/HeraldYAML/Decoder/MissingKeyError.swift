/// Thrown by a keyed container for a missing required key; the session turns
/// it into a `YAMLError`, or into an unknown-key error when a typo in the
/// same mapping explains it (`prefech` when `prefetch` is missing).
struct MissingKeyError: Error, CustomStringConvertible {
    let key: String
    let error: YAMLError

    var description: String { error.description }
}
