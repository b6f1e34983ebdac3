import HeraldProviderKit

/// The `herald simulate` flags given, by name (no `--`), read the way every
/// flag is: lists comma-separated, durations, counts, fractions, limits,
/// each refused with the same wording.
///
/// It exists so each provider reads its own flags
/// (`SimulatedProvider.apply(_:)`) as the command reads the shared ones.
/// Every reader answers nil when the flag is not given.
public struct SimulatorFlagValues: Sendable {
    public let values: [String: String]

    public init(_ values: [String: String]) {
        self.values = values
    }

    /// The flag's text as given.
    public subscript(_ name: String) -> String? { values[name] }

    /// Whether any of `flag`'s names was given.
    public func contains(_ flag: SimulatorFlag) -> Bool {
        flag.names.contains { values[$0] != nil }
    }

    /// A comma-separated list, spaces dropped, empty items left out.
    public func list(_ name: String) -> [String]? {
        values[name].map(Self.list)
    }

    /// `a, b,c` as `["a", "b", "c"]`.
    public static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { String($0.filter { $0 != " " }) }.filter { !$0.isEmpty }
    }

    /// A number above 0.
    public func positive(_ name: String) throws(SimulatorFlagError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Int(text), value > 0 else {
            throw SimulatorFlagError("--\(name): expected a positive number, found '\(text)'")
        }
        return value
    }

    /// A fraction from 0 to 1.
    public func fraction(_ name: String) throws(SimulatorFlagError) -> Double? {
        guard let text = values[name] else { return nil }
        guard let rate = Double(text), (0...1).contains(rate) else {
            throw SimulatorFlagError("--\(name): expected a fraction from 0 to 1, found '\(text)'")
        }
        return rate
    }

    /// A duration such as `500ms` or `20m`.
    public func duration(_ name: String) throws(SimulatorFlagError) -> ConfigDuration? {
        guard let text = values[name] else { return nil }
        guard let value = ConfigDuration(parsing: text) else {
            throw SimulatorFlagError("--\(name): expected a duration like 500ms, 5s or 20m, found '\(text)'")
        }
        return value
    }

    /// `N/DURATION` (`600000/1m`): at most N per DURATION, both above 0.
    public func limit(_ name: String) throws(SimulatorFlagError) -> SimulatorFaults.RateLimit? {
        guard let text = values[name] else { return nil }
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let count = Int(parts[0]), let per = ConfigDuration(parsing: String(parts[1])),
            SimulatorFaults.RateLimit(requests: count, per: per).problem == nil
        else {
            throw SimulatorFlagError(
                "--\(name): expected N/DURATION, both above 0, such as 600000/1m or 100/10s, found '\(text)'")
        }
        return SimulatorFaults.RateLimit(requests: count, per: per)
    }
}
