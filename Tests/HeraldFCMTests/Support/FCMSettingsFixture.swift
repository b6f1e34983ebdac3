import HeraldFCM
import HeraldConfig
import HeraldYAML

/// An `fcm:` section decoded from YAML, as the config loader would.
enum FCMSettingsFixture {
    static func decode(_ yaml: String) throws -> FCMSettings {
        try YAMLDocument(text: yaml, file: "fcm.yaml", environment: [:]).decode(FCMSettings.self)
    }
}
