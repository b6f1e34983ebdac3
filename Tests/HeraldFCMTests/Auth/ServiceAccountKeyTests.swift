import HeraldCore
import HeraldFCM
import Testing

/// The one reading of a Google service-account key that `herald check`, the
/// FCM provider and the simulator share.
@Suite struct ServiceAccountKeyTests {
    private let pem = "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n"

    @Test func aCompleteKeyIsReadWithGooglesTokenURIWhenItNamesNone() throws {
        let text =
            #"{"type": "service_account", "project_id": "demo", "client_email": "svc@demo", "private_key_id": "k1", "private_key": "\#(pem.replacingOccurrences(of: "\n", with: "\\n"))"}"#
        let key = try ServiceAccountKey.read(text).get()
        #expect(
            key.projectID == "demo" && key.clientEmail == "svc@demo" && key.privateKeyID == "k1"
                && key.privateKeyPEM == pem)
        #expect(key.tokenURI == "https://oauth2.googleapis.com/token")
    }

    @Test func everyProblemIsSaidAtOnceAndTheProjectIsStillRead() {
        let text =
            #"{"type": "authorized_user", "project_id": "demo", "client_email": "", "private_key": "abc", "token_uri": "ftp://x"}"#
        guard case .failure(let problems) = ServiceAccountKey.read(text) else {
            Issue.record("a broken key was read")
            return
        }
        #expect(
            problems.messages == [
                "the key's type is 'authorized_user', expected 'service_account'",
                "the service account has no 'client_email'",
                "the service account has no 'private_key_id'",
                "the service account's private_key is not a PEM private key",
                "the service account's token_uri 'ftp://x' is not an https:// URL",
            ])
        #expect(problems.projectID == "demo")
    }

    @Test(arguments: ["", "[]", "not json", #""a string""#])
    func whatIsNotAJSONObjectIsNotAKey(_ text: String) {
        #expect(throws: ServiceAccountKey.Problems.self) { try ServiceAccountKey.read(text).get() }
        if case .failure(let problems) = ServiceAccountKey.read(text) {
            #expect(
                problems.description
                    == "the service account is not a JSON object (download the key again from the Google Cloud console)"
            )
        }
    }
}
