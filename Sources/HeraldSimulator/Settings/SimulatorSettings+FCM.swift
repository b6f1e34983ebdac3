import Foundation
import HeraldCore

extension SimulatorSettings {
    /// The simulated Google OAuth endpoint and FCM `messages:send`, sharing one
    /// set of issued access tokens; nil when no service account is configured.
    public func fcmServices(recorder: NotificationRecorder) throws(SimulatorSetupError) -> (oauth: OAuthSimulatorService, fcm: FCMSimulatorService)? {
        guard let fcm, !fcm.serviceAccounts.isEmpty else { return nil }
        var accounts: [SimulatedServiceAccount] = []
        for file in fcm.serviceAccounts {
            let contents: BoundedFile
            do { contents = try BoundedFile(path: file, limit: .key) } catch { throw SimulatorSetupError("fcm.service_accounts: \(error)") }
            do {
                accounts.append(try SimulatedServiceAccount(serviceAccountJSON: String(decoding: contents.bytes, as: UTF8.self)))
            } catch {
                throw SimulatorSetupError("fcm.service_accounts: \(file): \(error)")
            }
        }
        let projects = fcm.projects.isEmpty ? Set(accounts.compactMap(\.projectID)) : Set(fcm.projects)
        guard !projects.isEmpty else {
            throw SimulatorSetupError("fcm: no projects, and the service accounts name no project_id")
        }
        let tokens = SimulatedAccessTokens()
        let oauth = OAuthSimulatorService(settings: OAuthSimulatorSettings(accounts: accounts), tokens: tokens)
        let messages = FCMSimulatorService(
            settings: FCMSimulatorSettings(
                projectIDs: projects, tokenErrors: fcm.allTokenErrors,
                probeTopic: fcm.probeTopic ?? FCMSimulatorSettings.defaultProbeTopic,
                quota: fcm.quota.map { FCMSimulatorSettings.Quota(messages: $0.requests, window: $0.per.duration) }),
            tokens: tokens, recorder: recorder)
        return (oauth, messages)
    }
}
