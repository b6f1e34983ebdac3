import HeraldConfig
import HeraldCore
import HeraldRegistry
import HeraldService

/// `add`, `remove`, `remove-device` and `replace`: one registry command each, as `herald run` applies it.
extension RegistryAdminSession {
    /// The command the options describe, checked as an AMQP command is.
    func change(_ kind: RegistryCommand.Kind) async throws(RegistryAdminFailure) {
        let command: RegistryCommand
        do {
            command = try RegistryCommand.decode(json: .object(body()), kind: kind, fallbackID: nil, rules: rules)
        } catch {
            throw RegistryAdminFailure(error)
        }
        let result: RegistryResult
        do {
            result = try await command.apply(to: store, at: clock())
        } catch  where error.kind == .limitExceeded || error.kind == .invalidInput {
            throw RegistryAdminFailure(command.refusal(error))
        } catch {
            throw RegistryAdminFailure(error, config: config)
        }
        if json { return console.out(result.jsonValue.jsonString) }
        var table: Table
        switch command.action {
        case .register:
            table = Table("CHANNEL", "CHANGE")
            for entry in result.channels { table.add(entry.channel, entry.change?.name ?? "-") }
        case .unregister, .unregisterDevice:
            table = Table("CHANGE", "REMOVED")
            let removed = if case .removed(let count)? = result.change { count } else { 0 }
            table.add(result.change?.name ?? "-", String(removed))
        case .replaceToken(let new):
            table = Table("CHANGE", "NEW_TOKEN")
            table.add(result.change?.name ?? "-", new.value)
        }
        console.out(table.text)
    }
}
