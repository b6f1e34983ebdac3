import Foundation
import HeraldCLI
import HeraldTestSupport
import Testing

/// `herald check` loads every credential as `herald run` does: a key that
/// cannot sign, a service account whose key is not RSA, a world-readable
/// key file are found at deploy time, naming the app and the file.
@Suite struct CheckCredentialsTests {
    let checks = CheckCommandTests()

    /// A directory with the repository's dev keys plus `extra` files, and a
    /// config for app `chat` whose APNs key is `apnsKey` and service account `account`.
    private func check(apnsKey: String, account: String, prepare: (String) async throws -> Void) async throws -> (
        Int32, String, String
    ) {
        let dir = try await devKeys()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try await prepare(dir)
        let yaml = """
            apps:
              chat:
                apns:
                  team_id: HERALDTEAM
                  key_id: HERALDKEY1
                  key_file: \(apnsKey)
                  topic: com.example.chat
                  endpoint: https://127.0.0.1:2197
                  ca_file: ca.pem
                fcm:
                  service_account_file: \(account)
                  endpoint: https://127.0.0.1:2197
                  ca_file: ca.pem
            """
        try yaml.write(toFile: dir + "/config.yaml", atomically: true, encoding: .utf8)
        let (status, console) = await checks.herald(["check", "--config", dir + "/config.yaml"])
        return (
            status, console.stdout.replacingOccurrences(of: dir, with: "DIR"),
            console.stderr.replacingOccurrences(of: dir, with: "DIR")
        )
    }

    private func openssl(_ arguments: [String]) async throws {
        let run = try await runTool("/usr/bin/openssl", arguments)
        #expect(run.status == 0, "\(run.output)")
    }

    @Test func anRSAKeyAsTheAPNsKeyFailsTheCheckNamingTheAppAndFile() async throws {
        let (status, out, err) = try await check(apnsKey: "rsa.p8", account: "fcm-service-account.json") { dir in
            try await openssl([
                "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", dir + "/rsa.p8",
            ])
            #expect(chmod(dir + "/rsa.p8", 0o600) == 0)
        }
        #expect(status == 1)
        #expect(out == "")
        #expect(
            err
                == "DIR/config.yaml: apps.chat.apns: apns credentials of app 'chat' cannot be used: key_file 'DIR/rsa.p8': "
                + "the APNs signing key must be EC P-256 (a .p8 key), found RSA 2048-bit")
    }

    @Test func anECKeyInTheServiceAccountFailsTheCheckNamingTheFile() async throws {
        let (status, _, err) = try await check(apnsKey: "apns-AuthKey.p8", account: "ec-account.json") { dir in
            let account = try String(contentsOfFile: dir + "/fcm-service-account.json", encoding: .utf8)
            let ecKey = try String(contentsOfFile: dir + "/apns-AuthKey.p8", encoding: .utf8)
            var object = try #require(JSONSerialization.jsonObject(with: Data(account.utf8)) as? [String: Any])
            object["private_key"] = ecKey
            try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: dir + "/ec-account.json"))
            #expect(chmod(dir + "/ec-account.json", 0o600) == 0)
        }
        #expect(status == 1)
        #expect(
            err == "DIR/config.yaml: apps.chat.fcm: fcm credentials of app 'chat' cannot be used: DIR/ec-account.json: "
                + "\"private_key\" is EC P-256; expected an RSA key")
    }

    @Test func aWorldReadableKeyFilePassesWithAWarningToChmodIt() async throws {
        let (status, out, err) = try await check(apnsKey: "apns-AuthKey.p8", account: "fcm-service-account.json") {
            dir in
            #expect(chmod(dir + "/apns-AuthKey.p8", 0o644) == 0)
        }
        #expect(status == 0, "\(err)")
        #expect(
            out.contains(
                "DIR/config.yaml:6:17: apps.chat.apns.key_file: warning: APNs key file 'DIR/apns-AuthKey.p8' "
                    + "is readable by every user (mode 0644); chmod 600 it"), "\(out)")
    }
}
