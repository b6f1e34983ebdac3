import HeraldCore

/// The simulator's admin API for tests, on its own port under `/_herald/`:
/// list what was delivered and what was refused, forget the record, kill
/// and revive tokens, read and change faults, and whatever each simulated
/// provider adds (`SimulatedProvider.adminRoutes`), all while it serves, in JSON.
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
    /// The provider services it reaches (each provider's routes find their own among them).
    let services: [any SimulatorService]

    /// The admin API over `services`: each registered provider's routes
    /// reach the first of its services among them.
    public init(recorder: NotificationRecorder, faults: FaultInjector, services: [any SimulatorService]) {
        self.recorder = recorder
        self.faults = faults
        self.services = services
    }

    /// The first service of type `Service`, if the simulator serves one.
    func service<Service: SimulatorService>(_ type: Service.Type) -> Service? {
        services.lazy.compactMap { $0 as? Service }.first
    }

    public func serves(_ request: SimulatedRequest) -> Bool {
        request.path == Self.prefix || request.path.hasPrefix(Self.prefix + "/")
            || request.path.hasPrefix(Self.prefix + "?")
    }

    /// The registered providers' routes, in the registration order.
    static let providerRoutes: [SimulatorAdminRoutes] = SimulatedProviders.all.map { $0.adminRoutes }
    /// The providers' entries in the tokens table.
    static let tokenRoutes: [SimulatorAdminRoutes.Tokens] = providerRoutes.compactMap(\.tokens)
    /// The providers' own endpoints.
    static let providerEndpoints: [SimulatorAdminRoutes.Endpoint] = providerRoutes.flatMap(\.endpoints)

    /// Every endpoint: its methods and path.
    static let endpoints: [(methods: [String], path: String)] =
        [
            (["GET"], "/_herald/delivered"),
            (["GET"], "/_herald/refused"),
            (["DELETE"], "/_herald/records"),
            (["GET"], "/_herald/tokens"),
        ]
        + tokenRoutes.map { (["PUT", "DELETE"], $0.pathPrefix + "<token>") }
        + [(["GET", "PUT", "DELETE"], "/_herald/faults")]
        + providerEndpoints.map { ($0.methods, $0.path) }

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

    private func route(_ request: SimulatedRequest, path: String, query: [String: String]) throws(AdminError)
        -> SimulatedAnswer
    {
        for tokens in Self.tokenRoutes where path.hasPrefix(tokens.pathPrefix) && path.count > tokens.pathPrefix.count {
            try allow(request, ["PUT", "DELETE"], path: tokens.pathPrefix + "<token>")
            try noQuery(query)
            try tokens.change(
                self, String(path.dropFirst(tokens.pathPrefix.count)), request.method == "DELETE", request)
            return Self.json(tokenTable)
        }
        for endpoint in Self.providerEndpoints {
            let (matches, parameter) = endpoint.match(path)
            guard matches else { continue }
            try allow(request, endpoint.methods, path: endpoint.path)
            try noQuery(query)
            return try endpoint.handle(self, parameter, request)
        }
        switch path {
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
            let allowed =
                methods.count > 1
                ? methods.dropLast().joined(separator: ", ") + " or " + (methods.last ?? "") : methods.joined()
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

/// A request the admin API cannot carry out: the HTTP status and a message
/// saying what was wrong and what it expected, answered as `{"error": message}`.
struct AdminError: Error, Sendable, Equatable {
    var status: Int
    var message: String

    init(_ status: Int, _ message: String) {
        self.status = status
        self.message = message
    }

    static func badRequest(_ message: String) -> AdminError { AdminError(400, message) }

    var answer: SimulatedAnswer {
        SimulatorAdminService.json(["error": .string(message)], status: status)
    }
}
