import CRabbitMQ

/// Converts field tables between Swift and rabbitmq-c.
///
/// Decoding copies everything out of the connection's pools (they are recycled
/// after each frame). Encoding allocates into a caller-owned `amqp_pool_t`, which
/// must outlive the C call that reads the table.
enum AMQPTableCodec {
    static func decode(_ table: amqp_table_t) -> AMQPTable {
        var result: AMQPTable = [:]
        guard table.num_entries > 0, let entries = table.entries else { return result }
        for index in 0..<Int(table.num_entries) {
            let entry = entries[index]
            result[String(amqpBytes: entry.key)] = decode(entry.value)
        }
        return result
    }

    static func decode(_ field: amqp_field_value_t) -> AMQPFieldValue {
        let value = field.value
        switch amqp_field_value_kind_t(UInt32(field.kind)) {
        case AMQP_FIELD_KIND_BOOLEAN: return .bool(value.boolean != 0)
        case AMQP_FIELD_KIND_I8: return .int(Int64(value.i8))
        case AMQP_FIELD_KIND_U8: return .int(Int64(value.u8))
        case AMQP_FIELD_KIND_I16: return .int(Int64(value.i16))
        case AMQP_FIELD_KIND_U16: return .int(Int64(value.u16))
        case AMQP_FIELD_KIND_I32: return .int(Int64(value.i32))
        case AMQP_FIELD_KIND_U32: return .int(Int64(value.u32))
        case AMQP_FIELD_KIND_I64: return .int(value.i64)
        case AMQP_FIELD_KIND_U64: return .int(Int64(truncatingIfNeeded: value.u64))
        case AMQP_FIELD_KIND_F32: return .double(Double(value.f32))
        case AMQP_FIELD_KIND_F64: return .double(value.f64)
        case AMQP_FIELD_KIND_DECIMAL:
            let decimal = value.decimal
            var scaled = Double(decimal.value)
            for _ in 0..<decimal.decimals { scaled /= 10 }
            return .double(scaled)
        case AMQP_FIELD_KIND_UTF8: return .string(String(amqpBytes: value.bytes))
        case AMQP_FIELD_KIND_BYTES: return .bytes([UInt8](amqpBytes: value.bytes))
        case AMQP_FIELD_KIND_TIMESTAMP: return .timestamp(value.u64)
        case AMQP_FIELD_KIND_TABLE: return .table(decode(value.table))
        case AMQP_FIELD_KIND_ARRAY:
            let array = value.array
            guard array.num_entries > 0, let entries = array.entries else { return .array([]) }
            return .array((0..<Int(array.num_entries)).map { decode(entries[$0]) })
        default: return .void
        }
    }

    /// Encodes `table` into memory from `pool`; keys are sorted so the wire form is stable.
    static func encode(_ table: AMQPTable, into pool: UnsafeMutablePointer<amqp_pool_t>) -> amqp_table_t {
        var result = amqp_table_t(num_entries: 0, entries: nil)
        guard !table.isEmpty else { return result }
        let raw = amqp_pool_alloc(pool, MemoryLayout<amqp_table_entry_t>.stride * table.count)
        guard let entries = raw?.bindMemory(to: amqp_table_entry_t.self, capacity: table.count) else { return result }
        for (index, key) in table.keys.sorted().enumerated() {
            guard let value = table[key] else { continue }
            entries[index] = amqp_table_entry_t(key: bytes(key, pool: pool), value: encode(value, pool: pool))
        }
        result.num_entries = Int32(table.count)
        result.entries = entries
        return result
    }

    static func encode(_ value: AMQPFieldValue, pool: UnsafeMutablePointer<amqp_pool_t>) -> amqp_field_value_t {
        var field = amqp_field_value_t()
        switch value {
        case .string(let s):
            field.kind = UInt8(AMQP_FIELD_KIND_UTF8.rawValue)
            field.value.bytes = bytes(s, pool: pool)
        case .bytes(let b):
            field.kind = UInt8(AMQP_FIELD_KIND_BYTES.rawValue)
            field.value.bytes = bytes(b, pool: pool)
        case .int(let i):
            field.kind = UInt8(AMQP_FIELD_KIND_I64.rawValue)
            field.value.i64 = i
        case .double(let d):
            field.kind = UInt8(AMQP_FIELD_KIND_F64.rawValue)
            field.value.f64 = d
        case .bool(let b):
            field.kind = UInt8(AMQP_FIELD_KIND_BOOLEAN.rawValue)
            field.value.boolean = b ? 1 : 0
        case .timestamp(let t):
            field.kind = UInt8(AMQP_FIELD_KIND_TIMESTAMP.rawValue)
            field.value.u64 = t
        case .table(let t):
            field.kind = UInt8(AMQP_FIELD_KIND_TABLE.rawValue)
            field.value.table = encode(t, into: pool)
        case .array(let values):
            field.kind = UInt8(AMQP_FIELD_KIND_ARRAY.rawValue)
            var array = amqp_array_t(num_entries: 0, entries: nil)
            if !values.isEmpty,
                let raw = amqp_pool_alloc(pool, MemoryLayout<amqp_field_value_t>.stride * values.count)
            {
                let entries = raw.bindMemory(to: amqp_field_value_t.self, capacity: values.count)
                for (index, element) in values.enumerated() { entries[index] = encode(element, pool: pool) }
                array.num_entries = Int32(values.count)
                array.entries = entries
            }
            field.value.array = array
        case .void:
            field.kind = UInt8(AMQP_FIELD_KIND_VOID.rawValue)
        }
        return field
    }

    static func bytes(_ text: String, pool: UnsafeMutablePointer<amqp_pool_t>) -> amqp_bytes_t {
        bytes(Array(text.utf8), pool: pool)
    }

    static func bytes(_ data: [UInt8], pool: UnsafeMutablePointer<amqp_pool_t>) -> amqp_bytes_t {
        var out = amqp_bytes_t(len: 0, bytes: nil)
        guard !data.isEmpty else { return out }
        amqp_pool_alloc_bytes(pool, data.count, &out)
        guard let base = out.bytes else { return amqp_bytes_t(len: 0, bytes: nil) }
        data.withUnsafeBytes { source in
            if let from = source.baseAddress { base.copyMemory(from: from, byteCount: data.count) }
        }
        return out
    }
}
