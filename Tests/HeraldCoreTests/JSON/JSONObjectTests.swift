import Testing
@testable import HeraldCore

@Suite("JSON objects")
struct JSONObjectTests {
    @Test func settingAnExistingKeyReplacesItInPlace() {
        var object: JSONObject = ["a": 1, "b": 2, "c": 3]
        object["b"] = "two"
        object["d"] = 4
        #expect(object.keys == ["a", "b", "c", "d"])
        #expect(object["b"] == "two")
        #expect(object.updateValue(5, forKey: "d") == 4)
    }

    @Test func settingNilRemovesAndKeepsTheOrderOfTheRest() {
        var object: JSONObject = ["a": 1, "b": 2, "c": 3]
        object["b"] = nil
        #expect(object.keys == ["a", "c"])
        #expect(object.values == [1, 3])
        #expect(object.removeValue(forKey: "zz") == nil)
        #expect(object.count == 2)
    }

    @Test func aNullValueIsAMemberNotAnAbsence() {
        var object = JSONObject()
        object["a"] = .null
        #expect(object.contains("a"))
        #expect(object["a"] == .null)
    }

    @Test func largeObjectsStayConsistentThroughEdits() {
        var object = JSONObject()
        for number in 0..<40 { object["k\(number)"] = .number(JSONNumber(number)) }
        for number in stride(from: 0, to: 40, by: 3) { object["k\(number)"] = nil }
        object["k1"] = "changed"
        object["new"] = true
        #expect(object.count == 26 + 1)
        #expect(object["k1"] == "changed")
        #expect(object["k3"] == nil)
        #expect(object["k38"]?.intValue == 38)
        #expect(object.keys.last == "new")
        for (position, key) in object.keys.enumerated() {
            #expect(object.position(of: key) == position)
        }
        while let key = object.keys.first { object[key] = nil }
        #expect(object.isEmpty)
    }

    @Test func equalityAndHashingIgnoreOrder() {
        let one: JSONObject = ["a": 1, "b": [true]]
        let other: JSONObject = ["b": [true], "a": 1]
        #expect(one == other)
        #expect(one.hashValue == other.hashValue)
        #expect(one != ["a": 1, "b": [false]])
        #expect(one != ["a": 1])
    }

    @Test func aRepeatedKeyInALiteralKeepsTheLastValue() {
        let object: JSONObject = ["a": 1, "b": 2, "a": 3]
        #expect(object.keys == ["a", "b"])
        #expect(object["a"] == 3)
    }

    @Test func iterationFollowsInsertionOrder() {
        let object: JSONObject = ["x": 1, "y": 2]
        #expect(object.map(\.key) == ["x", "y"])
        #expect(object.description == #"{"x":1,"y":2}"#)
    }
}
