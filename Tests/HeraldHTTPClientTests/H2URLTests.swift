@testable import HeraldHTTPClient
import Testing

/// What the nghttp2 engine makes of request URLs: the pseudo-headers it sends and the origin it pools by.
@Suite struct H2URLTests {
    @Test func httpsURLSplitsIntoAuthorityPathAndDefaultPort() throws {
        let url = try #require(H2URL("https://api.push.apple.com/3/device/abc?x=1#frag"))
        #expect(url.secure)
        #expect(url.host == "api.push.apple.com")
        #expect(url.port == 443)
        #expect(url.authority == "api.push.apple.com")
        #expect(url.path == "/3/device/abc?x=1", "the fragment is not sent")
        #expect(url.origin == "https://api.push.apple.com:443")
        #expect(!url.hostIsAddress)
    }

    @Test func explicitPortsIPv4AndIPv6LiteralsAndEmptyPaths() throws {
        let v4 = try #require(H2URL("http://127.0.0.1:8080"))
        #expect(!v4.secure && v4.port == 8080 && v4.path == "/" && v4.authority == "127.0.0.1:8080" && v4.hostIsAddress)
        let v6 = try #require(H2URL("HTTPS://[::1]:2197?q"))
        #expect(v6.secure && v6.host == "::1" && v6.port == 2197 && v6.path == "/?q" && v6.authority == "[::1]:2197")
        #expect(v6.hostIsAddress)
    }

    @Test(arguments: [
        "ftp://host/x", "https://", "https:///path", "https://user@host/", "https://host:0/", "https://host:99999/",
        "https://host:12a/", "https://[::1/", "https://host/a b", "host/path",
    ])
    func malformedOrUnsupportedURLsAreRefused(_ text: String) {
        #expect(H2URL(text) == nil, "\(text) must be refused")
    }
}
