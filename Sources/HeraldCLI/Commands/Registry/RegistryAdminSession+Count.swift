import HeraldConfig
import HeraldCore
import HeraldRegistry
import HeraldService

/// `count`: the devices on a channel, or an app's registrations.
extension RegistryAdminSession {
    func count() async throws(RegistryAdminFailure) {
        let (app, channel) = try appAndChannel()
        let count: Int
        do { count = try await store.count(app: app, channel: channel) } catch {
            throw RegistryAdminFailure(error, config: config)
        }
        if json {
            var object: JSONObject = ["app": .string(app)]
            if let channel { object["channel"] = .string(channel) }
            object[channel == nil ? "registrations" : "devices"] = .number(JSONNumber(count))
            return console.out(JSONValue.object(object).jsonString)
        }
        var table = Table("APP", "CHANNEL", channel == nil ? "REGISTRATIONS" : "DEVICES")
        table.add(app, channel ?? "(all)", String(count))
        console.out(table.text)
    }
}
