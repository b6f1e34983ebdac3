/// A throwaway CA, broker certificate (for 127.0.0.1 / localhost) and client
/// certificate, made with the `openssl` CLI, and the broker config using them;
/// also `other-ca.pem`, a CA that signed nothing the broker presents.
enum TLSFixtures {
    static func generateScript(in dir: String) -> String {
        """
        set -e
        cd '\(dir)'
        [ -f other-ca.pem ] && exit 0
        openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 -subj '/CN=herald-test-ca' 2>/dev/null
        openssl req -x509 -newkey rsa:2048 -nodes -keyout other-ca.key -out other-ca.pem -days 2 -subj '/CN=herald-other-ca' 2>/dev/null
        printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\n' > san.ext
        openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj '/CN=localhost' 2>/dev/null
        openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 -extfile san.ext 2>/dev/null
        openssl req -newkey rsa:2048 -nodes -keyout client.key -out client.csr -subj '/CN=herald-client' 2>/dev/null
        openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out client.pem -days 2 2>/dev/null
        chmod 644 *.pem *.key
        """
    }

    static func brokerConfig(tlsDirectory dir: String, tlsPort: Int) -> String {
        """
        loopback_users = none
        disk_free_limit.absolute = 50MB
        log.console = false
        log.file.level = warning
        listeners.ssl.default = \(tlsPort)
        ssl_options.cacertfile = \(dir)/ca.pem
        ssl_options.certfile = \(dir)/server.pem
        ssl_options.keyfile = \(dir)/server.key
        ssl_options.verify = verify_peer
        ssl_options.fail_if_no_peer_cert = true

        """
    }
}
