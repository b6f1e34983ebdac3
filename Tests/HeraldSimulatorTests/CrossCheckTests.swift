import HeraldTestSupport
import Foundation
import HeraldCore
import HeraldCrypto
import HeraldSimulator
import Testing

/// The simulator against tools that share none of our code: a JWT signed by
/// the `openssl` command line, sent by `curl --http2`.
@Suite struct CrossCheckTests {
    /// base64url without padding, via Foundation (not HeraldCrypto's encoder).
    func base64url(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// JOSE `r‖s` from a DER ECDSA signature, parsed by hand.
    func jose(fromDER der: [UInt8]) throws -> [UInt8] {
        var index = 2
        var out: [UInt8] = []
        for _ in 0..<2 {
            try #require(der[index] == 0x02)
            let length = Int(der[index + 1])
            var value = Array(der[(index + 2)..<(index + 2 + length)].drop { $0 == 0 })
            while value.count < 32 { value.insert(0, at: 0) }
            out += value
            index += 2 + length
        }
        return out
    }

    /// A token signed with `openssl dgst -sha256 -sign`, as DER (what openssl emits) or converted to JOSE.
    func opensslToken(keyFile: String, directory: String, convertToJOSE: Bool) async throws -> String {
        let header = base64url(Data(#"{"alg":"ES256","kid":"HERALDKEY1"}"#.utf8))
        let claims = base64url(Data("{\"iss\":\"HERALDTEAM\",\"iat\":\(Timestamp.now().seconds)}".utf8))
        let input = header + "." + claims
        try input.write(toFile: directory + "/input", atomically: true, encoding: .utf8)
        let run = try await runTool(
            "/usr/bin/openssl",
            [
                "dgst", "-sha256", "-sign", keyFile, "-out", directory + "/sig.der", directory + "/input",
            ])
        try #require(run.status == 0, "openssl dgst: \(run.output)")
        let der = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/sig.der")))
        return input + "." + base64url(Data(convertToJOSE ? try jose(fromDER: der) : der))
    }

    @Test func curlWithAnOpenSSLSignedTokenIsAcceptedAndADERSignatureRefused() async throws {
        let directory = try makeTemporaryDirectory("sim")
        let keyFile = directory + "/AuthKey.p8"
        let generated = try await runTool(
            "/usr/bin/openssl",
            [
                "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", keyFile,
            ])
        try #require(generated.status == 0, "openssl genpkey: \(generated.output)")
        let publicKey = try PublicKey(pem: try String(contentsOfFile: keyFile, encoding: .utf8))
        let configuration = APNsSimulatorConfiguration(
            keys: [APNsSimulatorKey(keyID: "HERALDKEY1", teamID: "HERALDTEAM", publicKey: publicKey)],
            bundleIDs: [Fixtures.bundleID])
        let joseToken = try await opensslToken(keyFile: keyFile, directory: directory, convertToJOSE: true)
        let derToken = try await opensslToken(keyFile: keyFile, directory: directory, convertToJOSE: false)
        try await withSimulator(configuration) { sim in
            func curl(_ token: String) async throws -> ToolRun {
                try await runTool(
                    "/usr/bin/curl",
                    [
                        "-sS", "--http2", "--cacert", sim.pki.caCertificatePath, "-D", "-", "-o", directory + "/body",
                        "-w", "http=%{http_version}", "-H", "authorization: bearer " + token, "-H",
                        "apns-topic: com.example.chat",
                        "-H", "apns-push-type: alert", "-H", "apns-id: 0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0",
                        "-d", #"{"aps":{"alert":"from curl"}}"#, "\(sim.baseURL)/3/device/\(Fixtures.token)",
                    ])
            }
            let accepted = try await curl(joseToken)
            #expect(accepted.status == 0, "curl: \(accepted.output)")
            #expect(accepted.output.hasPrefix("HTTP/2 200"), "curl: \(accepted.output)")
            #expect(
                accepted.output.contains("apns-id: 0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0"), "curl: \(accepted.output)")
            #expect(accepted.output.hasSuffix("http=2"), "curl: \(accepted.output)")
            #expect(sim.recorder.notifications.first?.payload.jsonString == #"{"aps":{"alert":"from curl"}}"#)

            let refused = try await curl(derToken)
            #expect(refused.output.hasPrefix("HTTP/2 403"), "curl: \(refused.output)")
            #expect(
                try String(contentsOfFile: directory + "/body", encoding: .utf8)
                    == #"{"reason":"InvalidProviderToken"}"#)
        }
    }

    @Test func aNewConnectionAdvertisesOneStreamAsAPNsDoesBeforeAnAcceptedToken() async throws {
        for streams in [7, nil] as [Int?] {
            try await withSimulator(APNsSimulatorConfiguration(), faults: SimulatorFaults(maxStreams: streams)) { sim in
                // nghttp (nghttp2's client) prints the frames it receives.
                let run = try await runTool("/usr/bin/nghttp", ["-v", "-n", "\(sim.baseURL)/"])
                #expect(run.status == 0, "nghttp: \(run.output)")
                #expect(run.output.contains("SETTINGS_MAX_CONCURRENT_STREAMS(0x03):1]"), "nghttp: \(run.output)")
                #expect(sim.simulator.maxConcurrentStreams == streams ?? 1000)
            }
        }
    }
}
