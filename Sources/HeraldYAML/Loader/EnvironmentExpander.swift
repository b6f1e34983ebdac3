import Foundation

/// Expands `${VAR}` and `${VAR:-default}` in scalar values from an injected
/// environment; `$${` stands for a literal `${`. Like the shell, `:-` uses
/// the default when the variable is unset or empty.
struct EnvironmentExpander: Sendable {
    /// Why a value could not be expanded, and where in it (in Unicode scalars).
    struct Failure: Error {
        var offset: Int
        var message: String
    }

    let environment: [String: String]

    func expand(_ text: String) throws(Failure) -> String {
        guard text.contains("$") else { return text }
        let scalars = Array(text.unicodeScalars)
        var output = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let rest = scalars[index...]
            if rest.starts(with: ["$", "$", "{"]) {
                output.append(contentsOf: ["$", "{"])
                index += 3
            } else if rest.starts(with: ["$", "{"]) {
                guard let close = rest.firstIndex(of: "}") else {
                    throw Failure(offset: index, message: "unterminated '${' (expected '}' to close it)")
                }
                let body = String(String.UnicodeScalarView(scalars[(index + 2)..<close]))
                output.append(contentsOf: try value(of: body, at: index).unicodeScalars)
                index = close + 1
            } else {
                output.append(scalars[index])
                index += 1
            }
        }
        return String(output)
    }

    /// The replacement for the text between `${` and `}`.
    private func value(of body: String, at offset: Int) throws(Failure) -> String {
        let name: String
        let fallback: String?
        if let separator = body.range(of: ":-") {
            name = String(body[..<separator.lowerBound])
            fallback = String(body[separator.upperBound...])
        } else {
            name = body
            fallback = nil
        }
        guard Self.isVariableName(name) else {
            throw Failure(
                offset: offset,
                message: "invalid environment reference '${\(body)}' (expected ${NAME} or ${NAME:-default})")
        }
        if let value = environment[name], !(value.isEmpty && fallback != nil) {
            return value
        }
        guard let fallback else {
            throw Failure(
                offset: offset,
                message: "environment variable \(name) is not set (use ${\(name):-default} for a default)")
        }
        return fallback
    }

    /// `[A-Za-z_][A-Za-z0-9_]*`
    private static func isVariableName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || first.isASCIILetter else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || $0.isASCIILetter || ("0"..."9").contains($0) }
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
