import HeraldCore
import HeraldYAML

/// `GET`, `PUT` and `DELETE /_herald/faults`.
extension SimulatorAdminService {
    /// PUT: the body, a JSON object with the keys of the YAML `faults:`
    /// section, replaces the faults in force (a key left out takes its
    /// default). `goaway_after_streams` and `max_streams` belong to the HTTP/2
    /// server, fixed when it started: left out they keep their value, and a
    /// different value is refused. Answers the faults now in force.
    func replaceFaults(body: [UInt8]) throws(AdminError) -> SimulatedAnswer {
        _ = try Self.bodyObject(body, keys: nil, required: nil)
        var replacement: SimulatorFaults
        do {
            // The YAML decoder reads JSON, so the body is checked, and its errors worded, as the config file's are.
            let text = body.isEmpty ? "{}" : String(decoding: body, as: UTF8.self)
            replacement = try YAMLDocument(text: text, file: "request body", environment: [:]).decode(
                SimulatorFaults.self)
        } catch {
            throw .badRequest(error.description)
        }
        let current = faults.faults
        for (key, wanted, fixed) in [
            ("goaway_after_streams", replacement.goAwayAfterStreams, current.goAwayAfterStreams),
            ("max_streams", replacement.maxStreams, current.maxStreams),
        ] where wanted != nil && wanted != fixed {
            let now = fixed.map(String.init) ?? "not set"
            throw AdminError(409, "\(key) is fixed when the simulator starts (it is \(now)); restart it to change it")
        }
        replacement.goAwayAfterStreams = current.goAwayAfterStreams
        replacement.maxStreams = current.maxStreams
        faults.replace(with: replacement)
        return Self.json(replacement.jsonValue)
    }

    /// DELETE: no request faults any more (the server's `goaway_after_streams`
    /// and `max_streams` stay). Answers the faults now in force.
    func clearFaults() -> SimulatedAnswer {
        let current = faults.faults
        let none = SimulatorFaults(goAwayAfterStreams: current.goAwayAfterStreams, maxStreams: current.maxStreams)
        faults.replace(with: none)
        return Self.json(none.jsonValue)
    }
}
