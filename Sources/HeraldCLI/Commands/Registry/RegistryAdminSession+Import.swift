import HeraldAMQP
import HeraldConfig
import HeraldCore
import HeraldRegistry
import HeraldService
import HeraldSystem

/// `import FILE|-`: JSON lines, each a `register` command's body, registered
/// a batch at a time (`RegistryStore.register(batch:at:)`).
extension RegistryAdminSession {
    /// What an import did, line by line.
    struct ImportSummary {
        var imported = 0
        var updated = 0
        var unchanged = 0
        var refused = 0

        var lines: Int { imported + updated + unchanged + refused }

        var text: String {
            "imported \(imported), updated \(updated), unchanged \(unchanged), refused \(refused)"
        }

        var json: JSONValue {
            .object([
                "imported": .number(JSONNumber(imported)), "updated": .number(JSONNumber(updated)),
                "unchanged": .number(JSONNumber(unchanged)), "refused": .number(JSONNumber(refused)),
            ])
        }
    }

    /// One decoded line waiting for its batch.
    private struct Pending: Sendable {
        var line: Int
        var command: RegistryCommand
    }

    /// Reads every line (a bad one is reported and skipped), registers them
    /// `batchSize` at a time (the next batch is read and checked while the
    /// last is written), prints the summary. Fails after the summary when any
    /// line was refused, and at once when the database fails (the batches
    /// committed before stay: run it again to go on).
    func importRegistrations(from path: String, batchSize: Int) async throws(RegistryAdminFailure) {
        let reader: LineReader
        do { reader = try LineReader(path: path, maxLineBytes: RegistryCommand.maxBytes) } catch {
            throw RegistryAdminFailure("\(error)")
        }
        let source = path == "-" ? "<stdin>" : path
        let progress = ProgressLine(console: console)
        let started = ProgressLine.seconds()
        var summary = ImportSummary()
        let time = clock()

        func refuse(_ line: Int, _ reason: String) {
            summary.refused += 1
            progress.clear()
            console.err(EventInputError(source: source, line: line, reason: reason).description)
        }
        func report(_ batch: [Pending], _ results: [Result<[String: RegistryChange], RegistryError>]) {
            for (pending, result) in zip(batch, results) {
                switch result {
                case .success(let changes):
                    switch RegistryChange.summary(of: changes.values) {
                    case .created: summary.imported += 1
                    case .updated: summary.updated += 1
                    default: summary.unchanged += 1
                    }
                case .failure(let error): refuse(pending.line, pending.command.refusal(error).description)
                }
            }
            let rate = Int(Double(summary.lines) / max(ProgressLine.seconds() - started, 0.001))
            let share = reader.size.map { size in " (\(size == 0 ? 100 : reader.offset * 100 / size)%)" } ?? ""
            progress.update("\(source): \(summary.lines) lines\(share), \(summary.text); \(rate) lines/s")
        }

        var batch: [Pending] = []
        batch.reserveCapacity(batchSize)
        var writing: (batch: [Pending], task: Task<BatchResult, Never>)?
        func finishWriting() async throws(RegistryAdminFailure) {
            guard let (written, task) = writing else { return }
            writing = nil
            switch await task.value {
            case .success(let results): report(written, results)
            case .failure(let error):
                progress.clear()
                console.out(json ? summary.json.jsonString : summary.text)
                throw RegistryAdminFailure(error, config: config)
            }
        }
        let store = store
        while true {
            let next: LineReader.Line?
            do { next = try reader.next() } catch { throw RegistryAdminFailure("\(error)") }
            guard let next else { break }
            switch next {
            case .tooLong(let number, let bytes):
                refuse(number, "body: line is \(bytes) bytes, over the limit of \(RegistryCommand.maxBytes)")
            case .text(let number, let bytes):
                let body = Self.trimmed(bytes)
                if body.isEmpty { continue }
                do {
                    let command = try RegistryCommand.decode(
                        body, routingKey: RegistryCommand.Kind.register.rawValue, fallbackID: nil, rules: rules)
                    batch.append(Pending(line: number, command: command))
                } catch {
                    refuse(number, error.description)
                }
            }
            if batch.count >= batchSize {
                try await finishWriting()
                writing = (batch, Self.write(batch, to: store, at: time))
                batch = []
                batch.reserveCapacity(batchSize)
            }
        }
        try await finishWriting()
        if !batch.isEmpty {
            writing = (batch, Self.write(batch, to: store, at: time))
            try await finishWriting()
        }
        progress.clear()
        console.out(json ? summary.json.jsonString : summary.text)
        if summary.refused > 0 {
            throw RegistryAdminFailure(
                "\(summary.refused) line\(summary.refused == 1 ? " was" : "s were") refused (listed above); the others are registered"
            )
        }
    }

    /// A batch's answers, or why the database refused the batch as a whole.
    private typealias BatchResult = Result<[Result<[String: RegistryChange], RegistryError>], RegistryError>

    /// Starts writing `batch`, so the next one is read meanwhile.
    private static func write(_ batch: [Pending], to store: any RegistryStore, at time: Timestamp) -> Task<
        BatchResult, Never
    > {
        let registrations = batch.compactMap { DeviceRegistration($0.command) }
        return Task {
            do throws(RegistryError) {
                return .success(try await store.register(batch: registrations, at: time))
            } catch {
                return .failure(error)
            }
        }
    }

    /// The line without surrounding blanks (spaces, tabs, a `\r` before the newline).
    static func trimmed(_ bytes: [UInt8]) -> [UInt8] {
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        guard let first = bytes.firstIndex(where: { !blank($0) }), let last = bytes.lastIndex(where: { !blank($0) })
        else { return [] }
        return Array(bytes[first...last])
    }
}
