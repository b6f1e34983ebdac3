import HeraldCore

/// A simulated provider's part of the admin API: its device tokens in the
/// tokens table (`GET /_herald/tokens`, `PUT`/`DELETE
/// /_herald/tokens/<provider>/<token>`) and endpoints of its own.
///
/// It exists so `SimulatorAdminService` serves each registered provider's
/// routes (`SimulatedProvider.adminRoutes`) without naming the provider.
/// Routes are the provider type's, not a running service's: a provider the
/// simulator does not serve still answers them, with its own 404.
public struct SimulatorAdminRoutes: Sendable {
    let tokens: Tokens?
    let endpoints: [Endpoint]

    init(tokens: Tokens? = nil, endpoints: [Endpoint] = []) {
        self.tokens = tokens
        self.endpoints = endpoints
    }

    /// No admin routes.
    public static let none = SimulatorAdminRoutes()

    /// A provider's entry in the tokens table and its `/_herald/tokens/<provider>/<token>`.
    struct Tokens: Sendable {
        /// The table's key and the path's segment: `apns`.
        let provider: String
        /// The provider's tokens as the table shows them; nil when the simulator does not serve it (left out).
        let table: @Sendable (SimulatorAdminService) -> JSONValue?
        /// PUT (`remove` false) or DELETE of `token`; the table is answered after.
        let change:
            @Sendable (SimulatorAdminService, _ token: String, _ remove: Bool, _ request: SimulatedRequest)
                throws(AdminError) -> Void

        /// `/_herald/tokens/<provider>/`.
        var pathPrefix: String { SimulatorAdminService.prefix + "/tokens/\(provider)/" }
    }

    /// An endpoint of the provider's own; it takes no query.
    struct Endpoint: Sendable {
        let methods: [String]
        /// The path, exact, or ending in `/<name>`: then any non-empty last segment, handed to `handle`.
        let path: String
        let handle:
            @Sendable (SimulatorAdminService, _ parameter: String?, _ request: SimulatedRequest) throws(AdminError) ->
                SimulatedAnswer

        /// The path before `<name>` when the path ends in one.
        var parameterPrefix: String? {
            guard path.hasSuffix(">"), let slash = path.lastIndex(of: "/"),
                path[path.index(after: slash)...].hasPrefix("<")
            else {
                return nil
            }
            return String(path[...slash])
        }

        /// Whether it serves `path`, and the parameter it carries.
        func match(_ path: String) -> (matches: Bool, parameter: String?) {
            guard let prefix = parameterPrefix else { return (path == self.path, nil) }
            guard path.hasPrefix(prefix), path.count > prefix.count else { return (false, nil) }
            return (true, String(path.dropFirst(prefix.count)))
        }
    }
}
