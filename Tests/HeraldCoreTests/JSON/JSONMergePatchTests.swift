import Testing
@testable import HeraldCore

@Suite("JSON merge patch (RFC 7396)")
struct JSONMergePatchTests {
    /// RFC 7396 appendix A, plus order and nesting cases.
    @Test(arguments: [
        (#"{"a":"b"}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
        (#"{"a":"b"}"#, #"{"b":"c"}"#, #"{"a":"b","b":"c"}"#),
        (#"{"a":"b"}"#, #"{"a":null}"#, #"{}"#),
        (#"{"a":"b","b":"c"}"#, #"{"a":null}"#, #"{"b":"c"}"#),
        (#"{"a":["b"]}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
        (#"{"a":"c"}"#, #"{"a":["b"]}"#, #"{"a":["b"]}"#),
        (#"{"a":{"b":"c"}}"#, #"{"a":{"b":"d","c":null}}"#, #"{"a":{"b":"d"}}"#),
        (#"{"a":[{"b":"c"}]}"#, #"{"a":[1]}"#, #"{"a":[1]}"#),
        (#"["a","b"]"#, #"["c","d"]"#, #"["c","d"]"#),
        (#"{"a":"b"}"#, #"["c"]"#, #"["c"]"#),
        (#"{"a":"foo"}"#, #"null"#, #"null"#),
        (#"{"a":"foo"}"#, #""bar""#, #""bar""#),
        (#"{"e":null}"#, #"{"a":1}"#, #"{"e":null,"a":1}"#),
        (#"[1,2]"#, #"{"a":"b","c":null}"#, #"{"a":"b"}"#),
        (#"{}"#, #"{"a":{"bb":{"ccc":null}}}"#, #"{"a":{"bb":{}}}"#),
        (
            #"{"aps":{"alert":{"title":"t"},"sound":"default"},"x":1}"#,
            #"{"aps":{"interruption-level":"time-sensitive","sound":null}}"#,
            #"{"aps":{"alert":{"title":"t"},"interruption-level":"time-sensitive"},"x":1}"#
        ),
    ])
    func patchesApplyAsTheRFCSays(target: String, patch: String, expected: String) throws {
        var value = try JSONValue.parse(target)
        value.merge(try JSONValue.parse(patch))
        #expect(value.jsonString == expected)
    }

    @Test func mergingDoesNotChangeACopyOfTheTarget() throws {
        let original = try JSONValue.parse(#"{"a":{"b":1}}"#)
        var patched = original
        patched.merge(try JSONValue.parse(#"{"a":{"b":2}}"#))
        #expect(original.jsonString == #"{"a":{"b":1}}"#)
        #expect(patched.jsonString == #"{"a":{"b":2}}"#)
    }
}
