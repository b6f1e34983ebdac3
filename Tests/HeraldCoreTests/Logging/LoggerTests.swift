import HeraldCore
import Testing

@Suite struct LoggerTests {
    func logger(_ format: LogFormat = .json, level: LogLevel = .info) -> (Logger, MemoryLogSink) {
        let sink = MemoryLogSink()
        return (
            Logger(label: "herald", level: level, format: format, sink: sink, clock: { "2026-11-30T10:00:00.000Z" }),
            sink
        )
    }

    @Test func jsonLineCarriesLevelLabelMessageAndMetadata() {
        let (log, sink) = logger()
        log.child("apns").warning("delivery failed", ["event_id": "evt-1", "status": 410, "retry": false])
        #expect(
            sink.lines == [
                #"{"ts":"2026-11-30T10:00:00.000Z","level":"warning","logger":"herald.apns","msg":"delivery failed","event_id":"evt-1","status":410,"retry":false}"#
            ])
    }

    @Test func deviceTokensAreMaskedToEightCharacters() {
        let (log, sink) = logger()
        let token = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"
        log.info("sent", ["device": .token(token), "token": .string(token), "fcm_token": "abcdefghijklmnop"])
        let line = sink.lines[0]
        #expect(!line.contains(token))
        #expect(line.contains(#""device":"a1b2c3d4…""#))
        #expect(line.contains(#""token":"a1b2c3d4…""#))
        #expect(line.contains(#""fcm_token":"abcdefgh…""#))
    }

    @Test func secretsAreRedactedByKey() {
        let (log, sink) = logger()
        log.error(
            "oauth failed",
            ["authorization": "bearer eyJhbGciOi", "access_token": "ya29.secret", "key_pem": "-----BEGIN"])
        #expect(
            sink.lines[0].contains(#""authorization":"[redacted]","access_token":"[redacted]","key_pem":"[redacted]""#))
        #expect(!sink.lines[0].contains("ya29"))
    }

    @Test func secretsAreRedactedWhereverTheFragmentSitsInTheKey() {
        let (log, sink) = logger()
        log.error(
            "x",
            ["X-Client-Secret": "s3", "smtp_password_hint": "p4", "apns_jwt": "eyJ", "monkey": "banana", "tokens": 2])
        let line = sink.lines[0]
        #expect(
            line.contains(#""X-Client-Secret":"[redacted]","smtp_password_hint":"[redacted]","apns_jwt":"[redacted]""#))
        #expect(line.contains(#""monkey":"banana","tokens":2"#))
        #expect(!line.contains("s3") && !line.contains("p4") && !line.contains("eyJ"))
    }

    @Test func linesBelowTheLevelAreNotWritten() {
        let (log, sink) = logger(level: .warning)
        log.info("hidden")
        log.debug("hidden")
        log.error("shown")
        #expect(sink.lines.count == 1)
        #expect(sink.lines[0].contains(#""msg":"shown""#))
    }

    @Test func logfmtQuotesValuesWithSpaces() {
        let (log, sink) = logger(.logfmt)
        log.with(["app": "chat"]).info("consumer started", ["queue": "herald.events", "reason": "broker back up"])
        #expect(
            sink.lines == [
                #"ts=2026-11-30T10:00:00.000Z level=info logger=herald msg="consumer started" app=chat queue=herald.events reason="broker back up""#
            ])
    }

    @Test func jsonEscapesControlCharactersAndQuotes() {
        let (log, sink) = logger()
        log.info("x", ["reason": "line1\nline2 \"q\" \u{01}"])
        #expect(sink.lines[0].hasSuffix(#""reason":"line1\nline2 \"q\" \u0001"}"#))
    }

    /// An event id is publisher input: ESC, BEL, NUL, DEL and C1 controls in
    /// it once reached logfmt lines raw, where a terminal acts on them.
    @Test func controlCharactersFromInputNeverReachALineRaw() {
        let hostile = "evt\u{1B}[31mred\u{07}\u{00}\u{7F}\u{9B}2J"
        for format in [LogFormat.logfmt, .json] {
            let (log, sink) = logger(format)
            log.warning("not delivered", ["event_id": .string(hostile)])
            let line = sink.lines[0]
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(format)")
            #expect(
                line.contains(#"evt\u001B[31mred\u0007\u0000\u007F\u009B2J"#)
                    || line.contains(#"evt\u001b[31mred\u0007\u0000\u007F\u009B2J"#),
                "\(format): \(line)")
        }
        let (log, sink) = logger(.logfmt)
        log.info("x", ["path": #"C:\dir"#, "tab": "a\tb"])
        #expect(sink.lines[0].hasSuffix(#"path="C:\\dir" tab="a\tb""#))
    }

    @Test func levelNamesParse() {
        #expect(LogLevel(name: "warn") == .warning)
        #expect(LogLevel(name: "debug") == .debug)
        #expect(LogLevel(name: "verbose") == nil)
    }

    @Test func defaultClockStampsLinesWithMilliseconds() throws {
        let sink = MemoryLogSink()
        Logger(label: "herald", sink: sink).info("tick")
        let line = try #require(sink.lines.first)
        let ts = String(line.dropFirst(#"{"ts":""#.count).prefix(24))
        #expect(ts.count == 24 && ts.hasSuffix("Z"), "\(line)")
        #expect(Timestamp(rfc3339: ts) != nil, "\(ts) is not RFC 3339")
    }
}
