import HeraldCore
import HeraldFCM
import Testing

@Suite struct DataCoercionTests {
    @Test func everyValueBecomesAStringAsWritten() throws {
        let data = try #require(
            JSONValue.parse(
                #"{"s":"chat","i":42,"f":1.50,"big":12345678901234567890,"e":1e3,"t":true,"no":false,"n":null,"o":{"a":[1,"b"]},"arr":[1,2.0]}"#
            ).objectValue)
        let coerced = FCMData.coerce(data)
        #expect(
            JSONValue.object(coerced).jsonString
                == #"{"s":"chat","i":"42","f":"1.50","big":"12345678901234567890","e":"1e3","t":"true","no":"false","n":"null","o":"{\"a\":[1,\"b\"]}","arr":"[1,2.0]"}"#
        )
    }

    @Test func stringsKeepTheirExactText() {
        #expect(FCMData.coerce(.string("  spaced \"quoted\" ")) == "  spaced \"quoted\" ")
        #expect(FCMData.coerce(.string("")) == "")
    }

    @Test func reservedKeysAreFCMs() {
        for key in ["from", "message_type", "google.c.a.e", "google", "gcm.notification.title", "gcm"] {
            #expect(FCMData.isReserved(key), "\(key) is reserved")
        }
        for key in ["From", "collapse_key", "screen", "message", "go", "fromage"] {
            #expect(!FCMData.isReserved(key), "\(key) is allowed")
        }
    }
}
