import HeraldCore
import Testing

/// `serializedCount` must equal `serialized.count` for every value: FCM's size
/// limits are checked with it.
@Suite struct JSONSerializedCountTests {
    @Test(arguments: [
        #"null"#, #"true"#, #"false"#, #"-1.5e3"#, #""""#, #""plain""#, #""é😀""#,
        #""quote \" backslash \\ slash / tab \t newline \n cr \r bs \b ff \f""#,
        #""control \u0001 \u001f del \u007f""#, #"[]"#, #"{}"#, #"[1,[2,[3]],{"a":[]}]"#,
        #"{"k":"v","n":{"m":[true,null,0.25]},"s":"x\ny"}"#,
    ])
    func theCountIsTheLengthOfTheCompactText(_ text: String) throws {
        let value = try JSONValue.parse(Array(text.utf8))
        #expect(value.serializedCount == value.serialized.count, "\(text) → \(value.jsonString)")
    }

    @Test func membersCanBeLeftOutOfTheCount() throws {
        let object = try #require(
            try JSONValue.parse(Array(#"{"token":"t","data":{"a":"1"},"apns":{"x":1},"b":2}"#.utf8)).objectValue)
        #expect(object.serializedCount(excluding: ["token", "apns"]) == #"{"data":{"a":"1"},"b":2}"#.utf8.count)
        #expect(object.serializedCount(excluding: ["token", "data", "apns", "b"]) == 2)
        #expect(object.serializedCount(excluding: []) == JSONValue.object(object).serialized.count)
    }
}
