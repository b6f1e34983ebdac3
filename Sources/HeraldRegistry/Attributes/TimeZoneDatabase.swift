import Glibc
import HeraldCore

/// The IANA time zones this machine knows, from its tz database (the
/// `tzdata` package's `/usr/share/zoneinfo`, or the directory `TZDIR`
/// names, as the C library reads it): what a device's `timezone` is checked
/// against, so a registration names a zone the scheduling of local-time
/// delivery can compute with.
///
/// A name is known when it is a zone's path in that directory and the file
/// there is a compiled zone (TZif, RFC 8536: its first four bytes). The name
/// is checked before any file is opened: components of `A-Z a-z 0-9 _ + - .`
/// separated by `/`, none `.` or `..` or empty, no leading `/` — so no name
/// reaches outside the directory. The `posix/` and `right/` copies of the
/// zones, `localtime` and `posixrules` are not names of their own and are refused.
public struct TimeZoneDatabase: Sendable {
    /// The directory the zones are read from.
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// The C library's: `TZDIR` when set, else `/usr/share/zoneinfo`.
    public static let system = TimeZoneDatabase(
        directory: getenv("TZDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
            ?? "/usr/share/zoneinfo")

    /// Why `name` is not a time zone of this database, or nil when it is one.
    public func problem(with name: String, maxBytes: Int) -> String? {
        guard !name.isEmpty else { return "the time zone is empty" }
        guard name.utf8.count <= maxBytes else {
            return "the time zone is \(name.utf8.count) bytes, over the limit of \(maxBytes)"
        }
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        let wellFormed =
            components.allSatisfy { component in
                !component.isEmpty && component != "." && component != ".."
                    && component.utf8.allSatisfy(Self.isNameByte)
            } && components.first.map { !Self.notZones.contains(String($0)) } == true
        guard wellFormed else {
            return
                "\(JSONText.quoted(name, limit: 40)) is not an IANA time zone name (such as \"Europe/Paris\" or \"America/Sao_Paulo\")"
        }
        guard isZone(directory + "/" + name) else {
            return "unknown time zone \(JSONText.quoted(name)) (not in the tz database at \(directory))"
        }
        return nil
    }

    /// Whether `path` is a regular file that starts as a TZif file does.
    private func isZone(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return false }
        var magic = [UInt8](repeating: 0, count: 4)
        let read = magic.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, 4) }
        return read == 4 && magic == Array("TZif".utf8)
    }

    /// Entries of the directory that are not zone names of their own: the
    /// `posix/` and `right/` copies of the zones, and the links to the
    /// machine's own zone and to the POSIX rules' default.
    private static let notZones: Set<String> = ["posix", "right", "localtime", "posixrules"]

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "+"), UInt8(ascii: "-"),
            UInt8(ascii: "."):
            true
        default: false
        }
    }
}
