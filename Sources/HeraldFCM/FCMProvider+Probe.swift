import HeraldCore
import HeraldHTTPClient
import HeraldProviderKit

/// What FCM answered the probe message of `FCMProvider.probeProject()`:
/// whether the configured project takes messages from this service account.
/// It exists because an OAuth token proves only the key: a misspelt
/// `project_id` passes the OAuth exchange and fails every send later.
public enum FCMProjectProbe: Sendable, Equatable, CustomStringConvertible {
    /// 200: the project accepts messages from the account.
    case accepted(projectID: String)
    /// 404: Google knows no such project.
    case notFound(projectID: String)
    /// 403: the project does not exist or the account may not send to it.
    /// Google gives the same answer for both, so neither is revealed to a stranger.
    case permissionDenied(projectID: String, clientEmail: String, message: String?)
    /// Any other answer, with Google's `error.status` and `error.message` when the body has them.
    case refused(httpStatus: Int, status: String?, message: String?)
    /// No answer: the endpoint could not be reached.
    case unreachable(reason: String)

    /// Classifies the answer to the probe sent for `projectID` as `clientEmail`.
    public init(httpStatus: Int, body: [UInt8], projectID: String, clientEmail: String) {
        if httpStatus == 200 {
            self = .accepted(projectID: projectID)
            return
        }
        let error = FCMErrorBody(parsing: body)
        switch httpStatus {
        case 404: self = .notFound(projectID: projectID)
        case 403: self = .permissionDenied(projectID: projectID, clientEmail: clientEmail, message: error.message)
        default: self = .refused(httpStatus: httpStatus, status: error.status, message: error.message)
        }
    }

    /// Whether the project accepts messages.
    public var ok: Bool {
        if case .accepted = self { return true }
        return false
    }

    /// What `herald check --online` prints after `ok` or `FAILED`.
    public var description: String {
        switch self {
        case .accepted(let project):
            "project \(project) accepts messages (validate_only)"
        case .notFound(let project):
            "project '\(project)' not found: check fcm.project_id"
        case .permissionDenied(let project, let email, let message):
            "project '\(project)' refused messages from \(email): check fcm.project_id, and that this service account "
                + "may send to the project (PERMISSION_DENIED" + (message.map { ": \($0)" } ?? "") + ")"
        case .refused(let httpStatus, let status, let message):
            "FCM answered HTTP \(httpStatus)" + (status.map { " \($0)" } ?? "") + (message.map { ": \($0)" } ?? "")
        case .unreachable(let reason):
            "could not reach the endpoint: \(reason)"
        }
    }
}

extension FCMProvider {
    /// Where the probe message goes: a topic needs no device.
    public static let probeTopic = "herald-check"

    /// `{"validate_only":true,"message":{...}}`: FCM checks the message as if
    /// to send it and delivers nothing.
    static let probeBody = JSONValue.object([
        "validate_only": true,
        "message": ["topic": .string(probeTopic), "notification": ["body": "herald check --online"]],
    ]).serialized

    /// Proves that `projectID` accepts messages from this service account:
    /// sends one `validate_only` message to `probeTopic` with an access token
    /// from the cache, the way every message is sent.
    /// - Throws: `FCMAuthError` when no access token can be had.
    public func probeProject() async throws(FCMAuthError) -> FCMProjectProbe {
        let token = try await tokens.token()
        do {
            let response = try await http.send(sendRequest(Self.probeBody, token: token))
            return FCMProjectProbe(
                httpStatus: response.status, body: response.body, projectID: projectID, clientEmail: account.clientEmail
            )
        } catch {
            return .unreachable(reason: String(describing: error))
        }
    }
}

extension FCMProvider: CredentialProbing {
    /// The OAuth exchange at the service account's `token_uri`, then one
    /// `validate_only` message to the project (`probeProject()`), which
    /// proves the project exists and takes messages from the account;
    /// nothing is delivered.
    public func probeCredentials() async -> [CredentialCheck] {
        do throws(FCMAuthError) {
            let token = try await accessToken()
            let oauth = CredentialCheck(
                ok: true, "OAuth access token obtained (valid until \(token.expiresAt.rfc3339(fractionDigits: 0)))")
            let project = try await probeProject()
            return [oauth, CredentialCheck(ok: project.ok, project.description)]
        } catch {
            return [CredentialCheck(ok: false, "OAuth exchange failed: \(error)")]
        }
    }
}
