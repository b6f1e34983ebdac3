import HeraldCore
import HeraldProviders
@testable import HeraldRegistry
import HeraldTestSupport
import Testing

/// libpq quotes the token it cannot read, password included: every libpq
/// message passes `PostgresMessageScrubber` before it reaches an error.
@Suite struct PasswordScrubbingTests {
    @Test func everyFormOfThePasswordIsReplaced() {
        let scrubber = PostgresMessageScrubber(url: "postgres://herald:p%40ss%zz@db/x?password=s%33cret")
        #expect(
            scrubber.scrub(#"invalid percent-encoded token: "p%40ss%zz""#) == #"invalid percent-encoded token: "***""#)
        #expect(scrubber.scrub("p@ss%zz and s3cret and s%33cret") == "*** and *** and ***")
        #expect(scrubber.scrub("nothing secret here") == "nothing secret here")
        #expect(PostgresMessageScrubber(url: "postgres://herald@db/x").scrub("herald") == "herald")
    }

    /// libpq's own message, from a real call: what it quotes is masked.
    @Test(arguments: [
        ("postgres://herald:Sup3r%Secret@127.0.0.1:1/herald", "Sup3r%Secret", #"invalid percent-encoded token: "***""#),
        (
            "postgres://herald@127.0.0.1:1/herald?password=Sup3r%00Secret", "Sup3r%00Secret",
            #"forbidden value %00 in percent-encoded value: "***""#
        ),
    ])
    func libpqsMessageReachesTheErrorWithoutThePassword(url: String, password: String, scrubbed: String) throws {
        let error = try #require(openError(url))
        #expect(error.message.contains(scrubbed), "\(error)")
        #expect(!error.message.contains(password), "the password leaked: \(error)")
        #expect(!error.message.contains("Sup3r"), "part of the password leaked: \(error)")
    }

    /// The store refuses such a URL itself, before libpq, naming what is wrong.
    @Test func theStoreRefusesAURLLibpqCannotReadWithoutThePassword() {
        #expect(
            throws: RegistryError(
                .invalidInput, operation: "open",
                message:
                    "PostgreSQL (postgres://herald:***@127.0.0.1:1/herald) cannot be used: "
                    + "the password holds a \"%\" not followed by two hex digits; write a \"%\" as %25")
        ) {
            try SQLRegistryStore(
                .postgres(url: "postgres://herald:Sup3r%Secret@127.0.0.1:1/herald"), providers: .registered)
        }
    }

    private func openError(_ url: String) -> RegistryError? {
        do {
            let connection = try PostgresConnection.open(url: url, operation: "open")
            connection.close()
            return nil
        } catch {
            return error
        }
    }
}
