import CYAML

/// A libyaml event copied into Swift values, so the C event can be freed
/// at once and the composer never touches C memory.
enum YAMLEvent {
    case streamStart
    case streamEnd
    case documentStart(YAMLMark)
    case documentEnd
    case alias(anchor: String, mark: YAMLMark)
    case scalar(YAMLScalar, anchor: String?, mark: YAMLMark)
    case sequenceStart(anchor: String?, mark: YAMLMark)
    case sequenceEnd
    case mappingStart(anchor: String?, mark: YAMLMark)
    case mappingEnd
    /// libyaml's "no event" (only after the stream has ended).
    case none

    init(_ event: yaml_event_t) {
        let mark = YAMLMark(event.start_mark)
        switch event.type {
        case YAML_STREAM_START_EVENT: self = .streamStart
        case YAML_STREAM_END_EVENT: self = .streamEnd
        case YAML_DOCUMENT_START_EVENT: self = .documentStart(mark)
        case YAML_DOCUMENT_END_EVENT: self = .documentEnd
        case YAML_ALIAS_EVENT:
            self = .alias(anchor: Self.string(event.data.alias.anchor) ?? "", mark: mark)
        case YAML_SCALAR_EVENT:
            let data = event.data.scalar
            let value =
                data.value.map {
                    String(decoding: UnsafeBufferPointer(start: $0, count: data.length), as: UTF8.self)
                } ?? ""
            let scalar = YAMLScalar(value: value, style: Self.style(data.style), tag: Self.string(data.tag))
            self = .scalar(scalar, anchor: Self.string(data.anchor), mark: mark)
        case YAML_SEQUENCE_START_EVENT:
            self = .sequenceStart(anchor: Self.string(event.data.sequence_start.anchor), mark: mark)
        case YAML_SEQUENCE_END_EVENT: self = .sequenceEnd
        case YAML_MAPPING_START_EVENT:
            self = .mappingStart(anchor: Self.string(event.data.mapping_start.anchor), mark: mark)
        case YAML_MAPPING_END_EVENT: self = .mappingEnd
        default: self = .none
        }
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    private static func style(_ style: yaml_scalar_style_t) -> YAMLScalar.Style {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: return .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: return .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: return .literal
        case YAML_FOLDED_SCALAR_STYLE: return .folded
        default: return .plain
        }
    }
}

extension YAMLMark {
    /// libyaml marks are 0-based.
    init(_ mark: yaml_mark_t) {
        self.init(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }
}
