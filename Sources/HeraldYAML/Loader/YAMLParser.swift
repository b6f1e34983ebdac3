import CYAML

/// Owns one libyaml parser handle and the input bytes it reads, frees both in
/// `deinit`, and is the one place where libyaml's error state becomes a
/// `YAMLError`. Not Sendable: one parse, one owner.
final class YAMLParser {
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let input: UnsafeMutableBufferPointer<UInt8>
    /// The text being parsed, for positions libyaml does not give.
    let source: SourceText
    private let file: String

    init(text: String, file: String) throws(YAMLError) {
        let bytes = Array(text.utf8)
        let input = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 1))
        _ = input.initialize(from: bytes)
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        guard yaml_parser_initialize(parser) == 1 else {
            parser.deallocate()
            input.deallocate()
            throw YAMLError(file: file, line: 0, column: 0, message: "cannot create a YAML parser (out of memory)")
        }
        yaml_parser_set_input_string(parser, input.baseAddress, bytes.count)
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        self.parser = parser
        self.input = input
        self.source = SourceText(text: text)
        self.file = file
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
        input.deallocate()
    }

    /// The next event; the C event is deleted before this returns.
    func next() throws(YAMLError) -> YAMLEvent {
        var event = yaml_event_t()
        defer { yaml_event_delete(&event) }
        guard yaml_parser_parse(parser, &event) == 1 else { throw currentError() }
        return YAMLEvent(event)
    }

    /// libyaml's problem, context and position as a `YAMLError`.
    private func currentError() -> YAMLError {
        let state = parser.pointee
        let problem = state.problem.map { String(cString: $0) } ?? "unknown error"
        switch state.error {
        case YAML_MEMORY_ERROR:
            return YAMLError(file: file, line: 0, column: 0, message: "out of memory while parsing YAML")
        case YAML_READER_ERROR:
            var message = "invalid YAML: \(problem)"
            if state.problem_value >= 0 {
                message += " (found U+\(String(state.problem_value, radix: 16, uppercase: true)))"
            }
            let mark = source.mark(ofByteOffset: state.problem_offset)
            return YAMLError(file: file, line: mark.line, column: mark.column, message: message)
        default:
            var message = "invalid YAML: \(problem)"
            if let context = state.context.map({ String(cString: $0) }) {
                let at = YAMLMark(state.context_mark)
                message += " (\(context) at line \(at.line), column \(at.column))"
            }
            let mark = YAMLMark(state.problem_mark)
            return YAMLError(file: file, line: mark.line, column: mark.column, message: message)
        }
    }
}
