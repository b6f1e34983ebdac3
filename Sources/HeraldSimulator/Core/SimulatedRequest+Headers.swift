extension SimulatedRequest {
    /// The request's `apns-*` headers by name, as the record keeps them (the
    /// `authorization` header, a credential, is never kept).
    public var apnsHeaders: [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in self.headers where name.hasPrefix("apns-") { headers[name] = value }
        return headers
    }
}
