import HeraldCore

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
