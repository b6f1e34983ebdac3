import HeraldCore

/// Takes the password out of libpq's messages before they reach a log or an
/// error: libpq quotes the token it could not read (`invalid percent-encoded
/// token: "<password>"`), so every message from libpq about a connection
/// passes through here, with every form the URL's password can take (as
/// written and percent-decoded, from the user info and from `?password=`;
/// `PostgresURL.passwordForms`) replaced by `***`.
struct PostgresMessageScrubber: Sendable {
    private let forms: [String]

    init(url: String) {
        forms = PostgresURL.passwordForms(in: url)
    }

    /// `message` with every form of the password replaced by `***`.
    func scrub(_ message: String) -> String {
        forms.reduce(message) { $0.replacing($1, with: "***") }
    }
}
