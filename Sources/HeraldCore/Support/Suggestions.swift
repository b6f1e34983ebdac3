/// "Did you mean …?" for every error that names an unknown word: config keys,
/// app names, providers, push types, outcome statuses, event fields, commands.
public enum Suggestions {
    /// The candidate nearest to `word` by edit distance (ignoring case), if it
    /// is close enough to be a plausible typo: 1 edit for words of up to 4
    /// characters, 2 up to 8, 3 beyond — and never a complete rewrite.
    /// Ties go to the earlier candidate.
    public static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
        let target = Array(word.lowercased())
        let limit = target.count <= 4 ? 1 : target.count <= 8 ? 2 : 3
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != word {
            let other = Array(candidate.lowercased())
            // The length difference bounds the distance from below: skip the quadratic work.
            guard abs(other.count - target.count) <= limit else { continue }
            let d = distance(target, other)
            guard d <= limit, d < max(target.count, other.count) else { continue }
            if let current = best, current.distance <= d { continue }
            best = (candidate, d)
        }
        return best?.candidate
    }

    /// `" (did you mean 'x'?)"`, or `""` when nothing is close.
    public static func didYouMean(_ word: String, among candidates: some Sequence<String>) -> String {
        closest(to: word, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// `" (did you mean 'x'?)"`, else `" (expected one of: a, b, c)"`, else `""`.
    public static func hint(for word: String, among candidates: [String]) -> String {
        if let near = closest(to: word, among: candidates) { return " (did you mean '\(near)'?)" }
        return candidates.isEmpty ? "" : " (expected one of: \(candidates.joined(separator: ", ")))"
    }

    /// Edit distance where a swap of two neighbouring characters counts as one
    /// edit, like an insertion, deletion or substitution (optimal string alignment):
    /// `ulr` is one edit from `url`.
    public static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
