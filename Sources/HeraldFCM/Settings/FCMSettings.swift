import HeraldCore
import HeraldProviderKit

/// An app's `fcm:` section: the Firebase project and the service account that
/// signs OAuth assertions for it.
///
/// - Important: Exactly one key source: `service_account_file` or `service_account_json`.
public struct FCMSettings: ProviderSettings {
    public static let provider = Provider.fcm

    /// The Firebase project; when absent, the service account's `project_id`.
    public var projectID: String?
    public var serviceAccountFile: String?
    public var serviceAccountJSON: String?
    /// Overrides `https://fcm.googleapis.com` (the simulator, a proxy). OAuth goes to the key's `token_uri`.
    public var endpoint: String?
    public var caFile: String?
    public var connections: ConnectionsSetting
    /// The HTTP/2 client implementation (`http_engine`, default nghttp2).
    public var httpEngine: HTTPEngineSetting
    public var timeout: ConfigDuration
    /// Connections beyond the first that carried no request this long are closed (`idle_timeout`).
    public var idleTimeout: ConfigDuration
    /// Messages sent to FCM per minute at most, by this instance (`max_per_minute`).
    public var maxPerMinute: Double?

    public static let defaultEndpoint = "https://fcm.googleapis.com"

    enum CodingKeys: String, CodingKey {
        case endpoint, connections, timeout
        case projectID = "project_id"
        case serviceAccountFile = "service_account_file"
        case serviceAccountJSON = "service_account_json"
        case caFile = "ca_file"
        case httpEngine = "http_engine"
        case idleTimeout = "idle_timeout"
        case maxPerMinute = "max_per_minute"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        projectID = try c.decodeIfPresent(String.self, forKey: .projectID)
        serviceAccountFile = try c.decodeIfPresent(String.self, forKey: .serviceAccountFile)
        serviceAccountJSON = try c.decodeIfPresent(String.self, forKey: .serviceAccountJSON)
        endpoint = try c.decodeIfPresent(String.self, forKey: .endpoint)
        caFile = try c.decodeIfPresent(String.self, forKey: .caFile)
        connections = try ConnectionsSetting.decode(c, .connections)
        idleTimeout = try c.decodeIfPresent(ConfigDuration.self, forKey: .idleTimeout) ?? .seconds(60)
        maxPerMinute = try c.decodeIfPresent(Double.self, forKey: .maxPerMinute)
        httpEngine = try HTTPEngineSetting.decode(c, .httpEngine)
        timeout = try c.decodeIfPresent(ConfigDuration.self, forKey: .timeout) ?? .seconds(10)
    }

    public var baseURL: String { endpoint ?? FCMSettings.defaultEndpoint }
}
