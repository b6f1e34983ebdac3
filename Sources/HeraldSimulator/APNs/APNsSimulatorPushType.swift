/// The push types APNs knows, with the topic suffix and payload limit each
/// implies: the simulator's own copy of Apple's rules.
enum APNsSimulatorPushType: String, CaseIterable {
    case alert, background, location, voip, complication, fileprovider, mdm, liveactivity, pushtotalk, widgets

    var topicSuffix: String {
        switch self {
        case .alert, .background, .mdm: ""
        case .voip: ".voip"
        case .complication: ".complication"
        case .fileprovider: ".pushkit.fileprovider"
        case .location: ".location-query"
        case .liveactivity: ".push-type.liveactivity"
        case .pushtotalk: ".voip-ptt"
        case .widgets: ".push-type.widgets"
        }
    }

    var maxPayloadBytes: Int { self == .voip ? 5120 : 4096 }
}
