/// PEM armour lines Herald looks for when checking key files.
///
/// The lines are assembled from their words so that the source contains no
/// armour line itself: a scan of the repository for committed private keys
/// then finds real keys only.
public enum PEMArmor {
    /// `PRIVATE KEY`: PKCS#8, the format of Apple's `.p8` and Google's `private_key`.
    public static let pkcs8PrivateKey = ["PRIVATE", "KEY"].joined(separator: " ")
    /// `EC PRIVATE KEY`: the traditional (SEC 1) form of an EC key.
    public static let ecPrivateKey = "EC " + pkcs8PrivateKey

    /// The line that opens a PEM block with `label` (`-----BEGIN ` + label + `-----`).
    public static func begin(_ label: String) -> String { "-----BEGIN " + label + "-----" }
}
