/// The syntax of a BCP 47 language tag (RFC 5646, section 2.1), which a
/// device's `locale` must follow: `en`, `pt-BR`, `zh-Hant-TW`,
/// `sr-Latn-RS`, `es-419`, `de-CH-1996`, `en-US-u-ca-gregory`, `x-private`.
///
/// Well-formedness only, as the RFC defines it: the ABNF of `langtag`,
/// `privateuse` and the irregular grandfathered tags, compared without regard
/// to case. No subtag is looked up in the IANA Language Subtag Registry, so
/// `qq-ZZ` is accepted and `en_US` (an underscore, POSIX style) is not:
/// Herald stores and echoes the tag; whoever reads it decides which
/// languages it has.
enum LanguageTag {
    /// Why `tag` is not a well-formed language tag, or nil when it is.
    static func problem(with tag: String) -> String? {
        let bytes = Array(tag.utf8)
        guard !bytes.isEmpty else { return "is empty" }
        guard bytes.allSatisfy({ $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "-") }) else {
            let underscore = bytes.contains(UInt8(ascii: "_")) ? " (separate subtags with \"-\", as in \"pt-BR\")" : ""
            return "may hold only ASCII letters, digits and \"-\"\(underscore)"
        }
        let lowered = tag.lowercased()
        if irregular.contains(lowered) { return nil }
        let subtags = lowered.split(separator: "-", omittingEmptySubsequences: false).map { Array($0.utf8) }
        if subtags.contains(where: \.isEmpty) { return "has an empty subtag (\"--\", or \"-\" at an end)" }
        if subtags.contains(where: { $0.count > 8 }) { return "has a subtag longer than 8 characters" }
        if subtags[0] == [UInt8(ascii: "x")] { return privateUse(subtags.dropFirst()) }
        return langtag(subtags[...])
    }

    /// The irregular grandfathered tags (RFC 5646, section 2.1), lowercased:
    /// well-formed although the `langtag` rule does not describe them. The
    /// regular ones (`zh-min-nan`, `art-lojban`, …) fit `langtag`.
    private static let irregular: Set<String> = [
        "en-gb-oed", "i-ami", "i-bnn", "i-default", "i-enochian", "i-hak", "i-klingon", "i-lux", "i-mingo",
        "i-navajo", "i-pwn", "i-tao", "i-tay", "i-tsu", "sgn-be-fr", "sgn-be-nl", "sgn-ch-de",
    ]

    /// `language ["-" script] ["-" region] *("-" variant) *("-" extension) ["-" privateuse]`.
    private static func langtag(_ subtags: ArraySlice<[UInt8]>) -> String? {
        var rest = subtags
        guard let language = rest.popFirst(), language.allSatisfy(\.isASCIILetter), (2...8).contains(language.count)
        else {
            return "must start with a language subtag of 2 to 8 letters (\"en\", \"pt\", \"zh\")"
        }
        // Up to three extended language subtags follow a 2- or 3-letter language.
        if language.count <= 3 {
            var extlangs = 0
            while extlangs < 3, let next = rest.first, next.count == 3, next.allSatisfy(\.isASCIILetter) {
                rest.removeFirst()
                extlangs += 1
            }
        }
        if let next = rest.first, next.count == 4, next.allSatisfy(\.isASCIILetter) { rest.removeFirst() }
        if let next = rest.first,
            (next.count == 2 && next.allSatisfy(\.isASCIILetter))
                || (next.count == 3 && next.allSatisfy(\.isASCIIDigit))
        {
            rest.removeFirst()
        }
        var variants = Set<[UInt8]>()
        while let next = rest.first, isVariant(next) {
            guard variants.insert(next).inserted else {
                return "repeats the variant \"\(String(decoding: next, as: UTF8.self))\""
            }
            rest.removeFirst()
        }
        var singletons = Set<UInt8>()
        while let next = rest.first, next.count == 1, next[0] != UInt8(ascii: "x") {
            rest.removeFirst()
            guard singletons.insert(next[0]).inserted else {
                return "repeats the extension \"\(String(decoding: next, as: UTF8.self))\""
            }
            var parts = 0
            while let part = rest.first, part.count >= 2 {
                rest.removeFirst()
                parts += 1
            }
            if parts == 0 {
                return
                    "has the extension \"\(String(decoding: next, as: UTF8.self))\" without a subtag of 2 to 8 characters after it"
            }
        }
        guard let next = rest.popFirst() else { return nil }
        if next == [UInt8(ascii: "x")] { return privateUse(rest) }
        return "has \"\(String(decoding: next, as: UTF8.self))\" where a script (4 letters), region (2 letters "
            + "or 3 digits), variant, extension or \"x-\" private use may come, in that order"
    }

    /// What follows `x`: one or more subtags of 1 to 8 characters.
    private static func privateUse(_ subtags: ArraySlice<[UInt8]>) -> String? {
        subtags.isEmpty ? "has \"x\" without a private-use subtag after it" : nil
    }

    /// 5 to 8 letters or digits, or a digit and 3 letters or digits (`1996`, `valencia`).
    private static func isVariant(_ subtag: [UInt8]) -> Bool {
        (5...8).contains(subtag.count) || (subtag.count == 4 && subtag[0].isASCIIDigit)
    }
}

extension UInt8 {
    fileprivate var isASCIILetter: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
    }
    fileprivate var isASCIIDigit: Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) }
    fileprivate var isASCIIAlphanumeric: Bool { isASCIILetter || isASCIIDigit }
}
