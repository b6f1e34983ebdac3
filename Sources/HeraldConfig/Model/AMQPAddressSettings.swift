/// One broker address of `amqp.url` or `amqp.urls`: the URL and, when the
/// entry is a mapping (`{url: ..., ca_file: ..., cert_file: ..., key_file: ...}`),
/// the TLS files of that node, which override the section's. A cluster's nodes
/// may present certificates of different CAs or ask for different client
/// certificates.
public struct AMQPAddressSettings: Sendable, Equatable, Decodable {
    public var url: String
    /// This node's extra trust root, instead of `amqp.ca_file`.
    public var caFile: String?
    /// This node's client certificate and key (a pair), instead of `amqp.cert_file` and `amqp.key_file`.
    public var certFile: String?
    public var keyFile: String?
    /// Written as a mapping (so its URL is at `url` below the entry), not as a string.
    public var isMapping: Bool

    /// Whether the entry names a TLS file of its own.
    public var namesTLSFiles: Bool { caFile != nil || certFile != nil || keyFile != nil }

    public init(url: String) {
        self.url = url
        isMapping = false
    }

    enum CodingKeys: String, CodingKey {
        case url
        case caFile = "ca_file"
        case certFile = "cert_file"
        case keyFile = "key_file"
    }

    public init(from decoder: any Decoder) throws {
        if let url = try? decoder.singleValueContainer().decode(String.self) {
            self.url = url
            isMapping = false
            return
        }
        let c: KeyedDecodingContainer<CodingKeys>
        do {
            c = try decoder.container(keyedBy: CodingKeys.self)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "expected a URL, or a mapping with url and any of ca_file, cert_file, key_file"))
        }
        url = try c.decode(String.self, forKey: .url)
        caFile = try c.decodeIfPresent(String.self, forKey: .caFile)
        certFile = try c.decodeIfPresent(String.self, forKey: .certFile)
        keyFile = try c.decodeIfPresent(String.self, forKey: .keyFile)
        isMapping = true
    }
}
