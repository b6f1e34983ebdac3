import HeraldCore
import HeraldFCM
import HeraldSimulator
import Testing

/// `FCMProvider.probeProject()`: one `validate_only` message proves the
/// project, against the simulator; and how each answer reads.
@Suite struct ProjectProbeTests {
    @Test func theConfiguredProjectAcceptsTheProbeAndNothingIsDelivered() async throws {
        try await Harness.run { h async throws in
            let probe = try await h.provider.probeProject()
            #expect(probe == .accepted(projectID: TestKeys.projectID))
            #expect(probe.ok)
            #expect(probe.description == "project herald-test accepts messages (validate_only)")
            #expect(h.recorder.notifications.isEmpty, "the probe is recorded as a probe, not a delivery")
            #expect(h.recorder.delivered(matching: RecordFilter(probes: .only)).map(\.target) == ["herald-check"])
            #expect(h.recorder.counters == ["oauth.200": 1, "fcm.200": 1])
        }
    }

    @Test func aMisspeltProjectIsRefusedNamingTheProjectAndTheAccount() async throws {
        try await Harness.run(projectID: "herald-tset") { h async throws in
            let probe = try await h.provider.probeProject()
            let google =
                "Permission 'cloudmessaging.messages.create' denied on resource "
                + "'//cloudresourcemanager.googleapis.com/projects/herald-tset' (or it may not exist)."
            #expect(probe == .permissionDenied(projectID: "herald-tset", clientEmail: TestKeys.email, message: google))
            #expect(!probe.ok)
            #expect(
                probe.description
                    == "project 'herald-tset' refused messages from \(TestKeys.email): check fcm.project_id, "
                    + "and that this service account may send to the project (PERMISSION_DENIED: \(google))")
        }
    }

    @Test func otherAnswersNameWhatGoogleSaid() {
        func probe(_ status: Int, _ body: String) -> FCMProjectProbe {
            FCMProjectProbe(
                httpStatus: status, body: Array(body.utf8), projectID: "p", clientEmail: "svc@p.iam.gserviceaccount.com"
            )
        }
        let notFound = probe(
            404, #"{"error":{"code":404,"message":"Requested entity was not found.","status":"NOT_FOUND"}}"#)
        #expect(notFound == .notFound(projectID: "p"))
        #expect(notFound.description == "project 'p' not found: check fcm.project_id")
        let denied = probe(403, #"{"error":{"code":403,"status":"PERMISSION_DENIED"}}"#)
        #expect(
            denied.description
                == "project 'p' refused messages from svc@p.iam.gserviceaccount.com: check fcm.project_id, "
                + "and that this service account may send to the project (PERMISSION_DENIED)")
        let unauthenticated = probe(
            401,
            #"{"error":{"code":401,"message":"Request had invalid authentication credentials.","status":"UNAUTHENTICATED"}}"#
        )
        #expect(
            unauthenticated.description
                == "FCM answered HTTP 401 UNAUTHENTICATED: Request had invalid authentication credentials.")
        #expect(probe(502, "<html>bad gateway</html>").description == "FCM answered HTTP 502")
        #expect(!probe(500, "").ok)
    }
}
