import HeraldCore

/// The simulator's admin API for tests, on its own port under `/_herald/`:
/// list what was delivered and what was refused, forget the record, kill
/// and revive tokens, issue and delete Web Push subscriptions, read and
/// change faults, all while it serves, in JSON.
///
/// It exists so an acceptance suite in any language can drive and inspect
/// `herald simulate` the way a Swift test drives the services it embeds,
/// without restarting it between cases. It is a `SimulatorService` like the
/// providers, so it answers whatever carries the request to the simulator;
/// `isProviderTraffic` is false, so it is never counted, recorded or faulted.
/// It has no authentication: it listens where the simulator does (loopback
/// by default) and holds only test data (docs/simulator-admin.md).
public final class SimulatorAdminService: SimulatorService {
    /// The reserved path prefix; no provider's API uses it.
    public static let prefix = "/_herald"

    public let name = "admin"
    public var isProviderTraffic: Bool { false }
    let recorder: NotificationRecorder
    let faults: FaultInjector
    let apns: APNsSimulatorService?
    let fcm: FCMSimulatorService?
    let webpush: WebPushSimulatorService?

    public init(
        recorder: NotificationRecorder, faults: FaultInjector, apns: APNsSimulatorService?, fcm: FCMSimulatorService?,
        webpush: WebPushSimulatorService? = nil
    ) {
        self.recorder = recorder
        self.faults = faults
        self.apns = apns
        self.fcm = fcm
        self.webpush = webpush
    }

    /// The admin API over `services`: the first APNs, FCM and Web Push service among them.
    public convenience init(recorder: NotificationRecorder, faults: FaultInjector, services: [any SimulatorService]) {
        self.init(
            recorder: recorder, faults: faults, apns: services.lazy.compactMap { $0 as? APNsSimulatorService }.first,
            fcm: services.lazy.compactMap { $0 as? FCMSimulatorService }.first,
            webpush: services.lazy.compactMap { $0 as? WebPushSimulatorService }.first)
    }

    public func serves(_ request: SimulatedRequest) -> Bool {
        request.path == Self.prefix || request.path.hasPrefix(Self.prefix + "/") || request.path.hasPrefix(Self.prefix + "?")
    }

    /// Every endpoint: its methods and path.
    static let endpoints: [(methods: [String], path: String)] = [
        (["GET"], "/_herald/delivered"),
        (["GET"], "/_herald/refused"),
        (["DELETE"], "/_herald/records"),
        (["GET"], "/_herald/tokens"),
        (["PUT", "DELETE"], "/_herald/tokens/apns/<token>"),
        (["PUT", "DELETE"], "/_herald/tokens/fcm/<token>"),
        (["GET", "PUT", "DELETE"], "/_herald/faults"),
        (["POST"], SimulatorAdminService.webPushSubscriptionsPath),
        (["DELETE"], SimulatorAdminService.webPushSubscriptionsPath + "/<id>"),
    ]

    public func handle(_ request: SimulatedRequest) -> SimulatedAnswer {
        let parts = request.path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0])
        let query = parts.count > 1 ? FormBody.parse(Array(parts[1].utf8)) : [:]
        do {
            return try route(request, path: path, query: query)
        } catch {
            return error.answer
        }
    }

    private func route(_ request: SimulatedRequest, path: String, query: [String: String]) throws(AdminError) -> SimulatedAnswer {
        let tokenPrefixes = [("apns", "/_herald/tokens/apns/"), ("fcm", "/_herald/tokens/fcm/")]
        if let (provider, prefix) = tokenPrefixes.first(where: { path.hasPrefix($0.1) }), path.count > prefix.count {
            let token = String(path.dropFirst(prefix.count))
            try allow(request, ["PUT", "DELETE"], path: prefix + "<token>")
            try noQuery(query)
            return provider == "apns"
                ? try changeAPNsToken(token, remove: request.method == "DELETE", body: request.body, at: request.receivedAt)
                : try changeFCMToken(token, remove: request.method == "DELETE", body: request.body)
        }
        if path.hasPrefix(Self.webPushSubscriptionsPath + "/"), path.count > Self.webPushSubscriptionsPath.count + 1 {
            try allow(request, ["DELETE"], path: Self.webPushSubscriptionsPath + "/<id>")
            try noQuery(query)
            return try deleteWebPushSubscription(String(path.dropFirst(Self.webPushSubscriptionsPath.count + 1)))
        }
        switch path {
        case Self.webPushSubscriptionsPath:
            try allow(request, ["POST"], path: path)
            try noQuery(query)
            return try issueWebPushSubscription(body: request.body)
        case "/_herald/delivered":
            try allow(request, ["GET"], path: path)
            return listDelivered(try filter(query, statusAllowed: false))
        case "/_herald/refused":
            try allow(request, ["GET"], path: path)
            return listRefused(try filter(query, statusAllowed: true))
        case "/_herald/records":
            try allow(request, ["DELETE"], path: path)
            try noQuery(query)
            return forgetRecords()
        case "/_herald/tokens":
            try allow(request, ["GET"], path: path)
            try noQuery(query)
            return Self.json(tokenTable)
        case "/_herald/faults":
            try allow(request, ["GET", "PUT", "DELETE"], path: path)
            try noQuery(query)
            switch request.method {
            case "GET": return Self.json(faults.faults.jsonValue)
            case "PUT": return try replaceFaults(body: request.body)
            default: return clearFaults()
            }
        default:
            let list = Self.endpoints.map { "\($0.methods.joined(separator: "|")) \($0.path)" }.joined(separator: ", ")
            throw AdminError(404, "no admin endpoint at \(path); the endpoints are \(list)")
        }
    }

    private func allow(_ request: SimulatedRequest, _ methods: [String], path: String) throws(AdminError) {
        guard methods.contains(request.method) else {
            let allowed = methods.count > 1 ? methods.dropLast().joined(separator: ", ") + " or " + (methods.last ?? "") : methods.joined()
            throw AdminError(405, "\(path) takes \(allowed), not \(request.method)")
        }
    }

    private func noQuery(_ query: [String: String]) throws(AdminError) {
        if let name = query.keys.sorted().first { throw .badRequest("unexpected query parameter '\(name)'") }
    }

    /// The admin API's faults are never injected (`isProviderTraffic` is
    /// false); this answer exists because every service must have one.
    public func injectedError(status: Int) -> SimulatedAnswer {
        AdminError(status, "injected fault").answer
    }

    /// A JSON answer (`application/json`).
    static func json(_ value: JSONValue, status: Int = 200) -> SimulatedAnswer {
        .respond(status: status, headers: [("content-type", "application/json")], body: value.serialized, delay: nil)
    }
}
