import HeraldCore

/// `GET /_herald/delivered`, `GET /_herald/refused`, `DELETE /_herald/records`.
extension SimulatorAdminService {
    /// The query parameters the listings take.
    static let filterParameters = ["provider", "token", "topic", "since", "status", "probes"]

    /// The listing's filter from its query; `status` only for refusals.
    func filter(_ query: [String: String], statusAllowed: Bool) throws(AdminError) -> RecordFilter {
        let allowed = statusAllowed ? Self.filterParameters : Self.filterParameters.filter { $0 != "status" }
        if let unknown = query.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw .badRequest("unknown query parameter '\(unknown)'\(Suggestions.hint(for: unknown, among: allowed))")
        }
        var filter = RecordFilter(provider: query["provider"], token: query["token"], topic: query["topic"])
        if let provider = filter.provider, !SimulatorFaults.serviceNames.contains(provider) {
            throw .badRequest("provider: expected \(SimulatorFaults.serviceNamesText), found '\(provider)'")
        }
        if let since = query["since"] {
            guard let time = Timestamp(rfc3339: since) else {
                throw .badRequest("since: expected an RFC 3339 time such as 2026-11-30T10:00:00Z, found '\(since)'")
            }
            filter.since = time
        }
        if let status = query["status"] {
            guard let code = Int(status), (100...599).contains(code) else {
                throw .badRequest("status: expected an HTTP status such as 410, found '\(status)'")
            }
            filter.status = code
        }
        if let probes = query["probes"] {
            guard let value = RecordFilter.Probes(rawValue: probes) else {
                throw .badRequest("probes: expected exclude, include or only, found '\(probes)'")
            }
            filter.probes = value
        }
        return filter
    }

    /// `{"delivered":[...]}`, oldest first.
    func listDelivered(_ filter: RecordFilter) -> SimulatedAnswer {
        Self.json(["delivered": .array(recorder.delivered(matching: filter).map(\.jsonValue))])
    }

    /// `{"refused":[...]}`, oldest first.
    func listRefused(_ filter: RecordFilter) -> SimulatedAnswer {
        Self.json(["refused": .array(recorder.refused(matching: filter).map(\.jsonValue))])
    }

    /// `{"forgotten":{"delivered":N,"refused":M}}`: the record and the counters start again.
    func forgetRecords() -> SimulatedAnswer {
        let forgotten = recorder.reset()
        return Self.json([
            "forgotten": [
                "delivered": .number(JSONNumber(forgotten.delivered)),
                "refused": .number(JSONNumber(forgotten.refused)),
            ]
        ])
    }
}
