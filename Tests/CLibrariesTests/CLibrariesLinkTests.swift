import CCurl
import CHeraldShim
import CNGHTTP2
import COpenSSL
import CPostgres
import CRabbitMQ
import CSQLite
import CYAML
import Testing

/// Each C library links and answers a call, and the versions are the ones Herald is written for.
@Suite struct CLibrariesLinkTests {
    @Test func libcurlLinksAndSpeaksHTTP2() throws {
        let info = try #require(herald_curl_version_info())
        let version = String(cString: info.pointee.version)
        #expect(version.split(separator: ".").first.flatMap { Int($0) } ?? 0 >= 7)
        // HTTP/2 support (nghttp2) is what APNs and FCM need.
        #expect(info.pointee.features & CURL_VERSION_HTTP2 != 0, "libcurl \(version) was built without HTTP/2")
        let ssl = String(cString: info.pointee.ssl_version)
        #expect(ssl.hasPrefix("OpenSSL/3"), "libcurl uses \(ssl), expected OpenSSL 3")
    }

    @Test func curlShimSetsTypedOptions() throws {
        let handle = try #require(curl_easy_init())
        defer { curl_easy_cleanup(handle) }
        #expect(
            herald_curl_easy_setopt_long(handle, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE))
                == CURLE_OK)
        #expect(herald_curl_easy_setopt_string(handle, CURLOPT_URL, "https://127.0.0.1:1/") == CURLE_OK)
        var code = 0
        #expect(herald_curl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code) == CURLE_OK)
        #expect(code == 0)
        let multi = try #require(curl_multi_init())
        defer { curl_multi_cleanup(multi) }
        #expect(herald_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX)) == CURLM_OK)
    }

    @Test func openSSLIsVersion3() {
        let version = herald_openssl_version_number()
        #expect(version >> 28 == 3, "OpenSSL \(String(version, radix: 16)) is not 3.x")
        let ctx = SSL_CTX_new(TLS_client_method())
        defer { SSL_CTX_free(ctx) }
        #expect(herald_ssl_ctx_set_min_proto_version(ctx, TLS1_2_VERSION) == 1)
    }

    @Test func rabbitmqCIsVersion011() {
        let version = String(cString: amqp_version())
        #expect(
            version.hasPrefix("0.11"), "rabbitmq-c \(version): Herald is written for 0.11 (no publisher-confirm wait)")
        let conn = amqp_new_connection()
        #expect(conn != nil)
        amqp_destroy_connection(conn)
    }

    @Test func nghttp2Links() throws {
        let info = try #require(nghttp2_version(0))
        let proto = String(cString: info.pointee.proto_str)
        #expect(proto == "h2")
    }

    @Test func libyamlParsesADocument() {
        var parser = yaml_parser_t()
        #expect(yaml_parser_initialize(&parser) == 1)
        defer { yaml_parser_delete(&parser) }
        let text = Array("a: 1\n".utf8)
        text.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var kinds: [yaml_event_type_t] = []
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                kinds.append(event.type)
                let done = event.type == YAML_STREAM_END_EVENT
                yaml_event_delete(&event)
                if done { break }
            }
            #expect(kinds.first == YAML_STREAM_START_EVENT)
            #expect(kinds.contains(YAML_MAPPING_START_EVENT))
            #expect(kinds.last == YAML_STREAM_END_EVENT)
        }
    }

    @Test func sqliteHasWhatTheRegistryUses() {
        // STRICT tables (3.37), RETURNING (3.35); threads own their connections.
        #expect(sqlite3_libversion_number() >= 3_037_000, "SQLite \(String(cString: sqlite3_libversion()))")
        #expect(sqlite3_threadsafe() != 0)
    }

    @Test func libpqIsThreadSafe() {
        #expect(PQlibVersion() >= 110_000, "libpq \(PQlibVersion())")
        #expect(PQisthreadsafe() == 1)
    }
}
