/// An AMQP topic-exchange binding pattern, used to match routing keys in routing rules
/// exactly as RabbitMQ would match them against a binding.
///
/// Words are separated by `.`; `*` matches exactly one word, `#` matches zero or
/// more words. An empty routing key has zero words (so `#` matches it and `*`
/// does not); `a..b` has an empty middle word, which `*` matches.
public struct TopicPattern: Sendable, Hashable, CustomStringConvertible {
    enum Word: Sendable, Hashable {
        case literal(Substring)
        case one
        case any
    }

    public let description: String
    let words: [Word]

    public init(_ pattern: String) {
        description = pattern
        words = TopicPattern.split(pattern).map { word in
            switch word {
            case "*": .one
            case "#": .any
            default: .literal(word)
            }
        }
    }

    /// Whether a message published with `routingKey` would reach a binding with this pattern.
    public func matches(_ routingKey: String) -> Bool {
        let keyWords = TopicPattern.split(routingKey)
        // Iterative matching with one backtrack point per `#`: linear in practice,
        // never exponential (the classic wildcard algorithm).
        var p = 0, k = 0
        var starP = -1, starK = 0
        while k < keyWords.count {
            if p < words.count {
                switch words[p] {
                case .any:
                    starP = p; starK = k; p += 1
                    continue
                case .one:
                    p += 1; k += 1
                    continue
                case .literal(let w) where w == keyWords[k]:
                    p += 1; k += 1
                    continue
                case .literal:
                    break
                }
            }
            guard starP >= 0 else { return false }
            // Let the last `#` swallow one more word and retry from there.
            starK += 1
            k = starK
            p = starP + 1
        }
        while p < words.count, words[p] == .any { p += 1 }
        return p == words.count
    }

    static func split(_ text: String) -> [Substring] {
        text.isEmpty ? [] : text.split(separator: ".", omittingEmptySubsequences: false)
    }
}
