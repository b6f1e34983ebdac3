import Foundation
import Glibc

/// A new, empty directory of a test's own under the system's temporary
/// directory, named `herald-<purpose>-XXXXXX` by `mkdtemp` (never shared with
/// another test or run). The test removes it (`removeTemporaryDirectory`)
/// when it is done with it.
public func makeTemporaryDirectory(_ purpose: String) throws(TestFailure) -> String {
    var template = Array((NSTemporaryDirectory() + "herald-\(purpose)-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else {
        throw TestFailure("mkdtemp herald-\(purpose): \(String(cString: strerror(errno)))")
    }
    return String(cString: made)
}

/// Removes `path` and everything in it, if it is there.
public func removeTemporaryDirectory(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
}
