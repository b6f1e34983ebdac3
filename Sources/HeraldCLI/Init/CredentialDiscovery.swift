import HeraldAPNs
import Foundation
import HeraldConfig

/// An APNs signing key downloaded from Apple's developer account, found by
/// its file name: Apple names it `AuthKey_<KEY ID>.p8`.
struct FoundAPNsKey: Equatable, Sendable {
    let path: String
    /// The 10-character key id from the file name; nil if the name does not carry one.
    let keyID: String?
}

/// A Google service-account key file: JSON with `"type": "service_account"`.
struct FoundServiceAccount: Equatable, Sendable {
    let path: String
    let projectID: String
    let clientEmail: String
}

/// Finds the credential files `herald init` offers: `AuthKey_*.p8` files and
/// service-account JSONs in the given folders (not recursing), or the given
/// files themselves.
enum CredentialDiscovery {
    /// Service-account files are small; a larger JSON is not read.
    static let maximumJSONSize = 64 * 1024

    /// The key id `AuthKey_ABCDE12345.p8` carries, if its name has that shape.
    static func keyID(fromFileName name: String) -> String? {
        guard name.hasPrefix("AuthKey_"), name.hasSuffix(".p8") else { return nil }
        let id = String(name.dropFirst("AuthKey_".count).dropLast(".p8".count))
        return APNsSettings.isAppleIdentifier(id) ? id : nil
    }

    static func apnsKeys(in places: [String]) -> [FoundAPNsKey] {
        files(in: places) { name in name.hasPrefix("AuthKey_") && name.hasSuffix(".p8") }
            .map { FoundAPNsKey(path: $0, keyID: keyID(fromFileName: ($0 as NSString).lastPathComponent)) }
    }

    static func serviceAccounts(in places: [String]) -> [FoundServiceAccount] {
        files(in: places) { $0.hasSuffix(".json") }.compactMap { serviceAccount(at: $0) }
    }

    /// The service account in `path`, or nil if it is not one (any other JSON).
    static func serviceAccount(at path: String) -> FoundServiceAccount? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = attributes[.size] as? Int, size <= maximumJSONSize,
            let data = FileManager.default.contents(atPath: path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            object["type"] as? String == "service_account",
            let project = object["project_id"] as? String, !project.isEmpty,
            let email = object["client_email"] as? String
        else { return nil }
        return FoundServiceAccount(path: path, projectID: project, clientEmail: email)
    }

    /// Regular files directly in each folder of `places` whose name `matches`,
    /// and each place that is itself such a file; sorted, without repeats.
    static func files(in places: [String], matching matches: (String) -> Bool) -> [String] {
        var found: [String] = []
        for place in places {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: place, isDirectory: &isDirectory) else { continue }
            if !isDirectory.boolValue {
                if matches((place as NSString).lastPathComponent) { found.append(place) }
                continue
            }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: place)) ?? []
            for name in names.sorted() where matches(name) {
                let path = (place as NSString).appendingPathComponent(name)
                var nested: ObjCBool = false
                if FileManager.default.fileExists(atPath: path, isDirectory: &nested), !nested.boolValue {
                    found.append(path)
                }
            }
        }
        var seen: Set<String> = []
        return found.map { ($0 as NSString).standardizingPath }.filter { seen.insert($0).inserted }
    }
}
