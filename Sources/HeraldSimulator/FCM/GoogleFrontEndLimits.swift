/// What Google's front ends do with a connection, for the FCM and OAuth
/// simulators: HTTP/1.1 is served as well as HTTP/2 (google-auth's default
/// `requests` transport and firebase-admin use HTTP/1.1), and an HTTP/2
/// connection carries at most 100 concurrent streams.
enum GoogleFrontEndLimits {
    /// SETTINGS_MAX_CONCURRENT_STREAMS on fcm.googleapis.com and oauth2.googleapis.com.
    static let maxConcurrentStreams = 100
}

extension FCMSimulatorService {
    public var initialStreamLimit: SimulatorStreamLimit { .streams(GoogleFrontEndLimits.maxConcurrentStreams) }
}

extension OAuthSimulatorService {
    public var initialStreamLimit: SimulatorStreamLimit { .streams(GoogleFrontEndLimits.maxConcurrentStreams) }
}
