/// The event-field values routes may name (DESIGN.md "Event").
enum EventVocabulary {
    static let pushTypes = ["alert", "background", "voip", "liveactivity", "complication", "fileprovider", "mdm",
                            "location", "pushtotalk", "widgets"]
    static let priorities = ["high", "normal"]
}
