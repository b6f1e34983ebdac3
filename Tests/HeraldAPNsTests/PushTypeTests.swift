import HeraldAPNs
import HeraldCore
import Testing

/// What APNs makes of Herald's push types and priorities.
@Suite struct PushTypeTests {
    @Test func pushTypesCarryApplesTopicSuffixes() {
        let suffixes = Dictionary(uniqueKeysWithValues: PushType.allCases.map { ($0, $0.topicSuffix) })
        #expect(
            suffixes == [
                .alert: "", .background: "", .mdm: "", .voip: ".voip", .liveactivity: ".push-type.liveactivity",
                .complication: ".complication", .fileprovider: ".pushkit.fileprovider", .location: ".location-query",
                .pushtotalk: ".voip-ptt", .widgets: ".push-type.widgets",
            ])
    }

    @Test func prioritiesMapToAPNsScale() {
        #expect(Priority.allCases.map(\.apnsValue) == [10, 5, 1])
        #expect(Priority(apnsValue: 5) == .normal)
        #expect(Priority(apnsValue: 7) == nil)
    }
}
