// Typed, non-variadic entry points for the parts of libcurl and OpenSSL that
// Swift cannot call directly: variadic functions and function-like macros.
// Each wrapper is one line; all logic lives in Swift.
#ifndef HERALD_SHIM_H
#define HERALD_SHIM_H

#include <curl/curl.h>
#include <openssl/ssl.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <sys/socket.h>
#include <microhttpd.h>
// Linux event-loop APIs the Glibc module does not export (used by the HTTP/2 server).
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <stddef.h>
#include <stdint.h>

// MARK: libcurl (curl_easy_setopt / curl_multi_setopt / curl_easy_getinfo are variadic)

CURLcode herald_curl_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode herald_curl_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
CURLcode herald_curl_easy_setopt_ptr(CURL *handle, CURLoption option, const void *value);
CURLcode herald_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode herald_curl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode herald_curl_easy_setopt_blob(CURL *handle, CURLoption option, const void *data, size_t length);
CURLcode herald_curl_easy_setopt_write_function(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *));
CURLcode herald_curl_easy_setopt_header_function(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *));
// CURLOPT_PREREQFUNCTION: called once the connection is up, before the request is sent.
CURLcode herald_curl_easy_setopt_prereq_function(CURL *handle, int (*fn)(void *, char *, char *, int, int));
CURLcode herald_curl_easy_setopt_resolver_start_function(CURL *handle, int (*fn)(void *, void *, void *));
CURLcode herald_curl_easy_setopt_read_function(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *));
// The socket is an int and the purpose a curlsocktype value, as on Linux.
CURLcode herald_curl_easy_setopt_sockopt_function(CURL *handle, int (*fn)(void *, int, int));
CURLcode herald_curl_easy_setopt_closesocket_function(CURL *handle, int (*fn)(void *, int));
// TCP_CORK on or off, and a push of what a corked socket holds (TCP_NODELAY
// set again); kept in C because <netinet/tcp.h> imported beside curl.h hides
// libcurl's CURLE_* codes from Swift.
int herald_tcp_set_cork(int socket, int on);
int herald_tcp_push(int socket);
int herald_socket_close(int socket);
// CURLOPT_OPENSOCKETFUNCTION: libcurl asks for a socket for each resolved
// address it is about to connect to; the function returns one
// (herald_curl_open_socket) or -1 (CURL_SOCKET_BAD: that address is not used).
CURLcode herald_curl_easy_setopt_opensocket_function(CURL *handle, int (*fn)(void *, int, struct curl_sockaddr *));
/// The IP address of `address` in network byte order into `bytes`: returns 4 (AF_INET), 16 (AF_INET6) or 0 (another family).
size_t herald_curl_sockaddr_ip(const struct curl_sockaddr *address, unsigned char bytes[16]);
/// `socket(2)` with the family, type and protocol libcurl asked for.
int herald_curl_open_socket(const struct curl_sockaddr *address);
/// SO_KEEPALIVE with the first probe after `idle_seconds` idle and then every `idle_seconds`.
int herald_tcp_keepalive(int socket, int idle_seconds);

CURLcode herald_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode herald_curl_easy_getinfo_double(CURL *handle, CURLINFO info, double *value);
CURLcode herald_curl_easy_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value);
CURLcode herald_curl_easy_getinfo_ptr(CURL *handle, CURLINFO info, void **value);
CURLcode herald_curl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value);

CURLMcode herald_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
CURLMcode herald_curl_multi_setopt_ptr(CURLM *multi, CURLMoption option, void *value);

/// `curl_version_info(CURLVERSION_NOW)`: the macro is not visible to Swift.
const curl_version_info_data *herald_curl_version_info(void);

// MARK: OpenSSL (function-like macros)

long herald_ssl_ctx_set_mode(SSL_CTX *ctx, long mode);
void herald_ssl_ctx_set_read_ahead(SSL_CTX *ctx, int yes);
long herald_ssl_ctx_set_min_proto_version(SSL_CTX *ctx, int version);
long herald_ssl_set_tlsext_host_name(SSL *ssl, const char *name);
long herald_bio_get_mem_data(BIO *bio, char **data);
unsigned long herald_openssl_version_number(void);

// EVP_PKEY_Q_keygen is variadic.
EVP_PKEY *herald_generate_ec_p256_key(void);
EVP_PKEY *herald_generate_rsa_key(unsigned int bits);

// MARK: libmicrohttpd (MHD_start_daemon, MHD_get_daemon_info and MHD_get_connection_info are variadic)

/// What one daemon allows its clients; the Swift side chooses every value
/// (and keeps the per-address limit itself, through the accept policy).
struct herald_mhd_limits {
    /// Connections open at once, all clients together (MHD_OPTION_CONNECTION_LIMIT).
    unsigned int connection_limit;
    /// Seconds a connection may go without traffic before it is closed (MHD_OPTION_CONNECTION_TIMEOUT).
    unsigned int idle_timeout_seconds;
    /// Bytes each connection may use for its request line and headers (MHD_OPTION_CONNECTION_MEMORY_LIMIT).
    size_t connection_memory_limit;
    /// Worker threads, each with its own epoll set (MHD_OPTION_THREAD_POOL_SIZE).
    unsigned int threads;
};
/// Starts a daemon whose worker threads poll with epoll, bound to `address`
/// (IPv4, or IPv6 with MHD_USE_IPv6; `::` serves both families), serving
/// `handler`, asking `accept_policy` about each new connection and telling
/// `notify` when one starts and closes; `context` goes to all three.
struct MHD_Daemon *herald_mhd_start(const struct sockaddr *address, const struct herald_mhd_limits *limits,
                                    MHD_AccessHandlerCallback handler, MHD_AcceptPolicyCallback accept_policy,
                                    MHD_NotifyConnectionCallback notify, void *context);
/// The port the daemon listens on (useful after binding port 0); 0 if unknown.
uint16_t herald_mhd_bound_port(struct MHD_Daemon *daemon);
/// The client address of `connection`; NULL if unknown.
const struct sockaddr *herald_mhd_client_address(struct MHD_Connection *connection);

// MARK: Threads (prctl is variadic)

/// Names the calling thread for `top -H`, perf and /proc/*/task/*/comm; at most 15 bytes are kept.
void herald_set_thread_name(const char *name);
/// The calling thread's kernel thread id (gettid(2), which Swift's Glibc does not import): its /proc/self/task/<id>.
int herald_gettid(void);

// MARK: Files

/// An anonymous memory file (memfd_create(2) with MFD_CLOEXEC, which Swift's Glibc does not import); -1 with errno on failure.
int herald_memfd_create(const char *name);

// MARK: build

/// Herald's release version (the repository's VERSION file, defined by Package.swift as HERALD_VERSION).
const char *herald_version(void);

/// A process-wide mutex, statically initialised (no Swift lazy global, whose
/// first use goes through the runtime's `swift_once`), that AMQP connection
/// threads hold while they run the batch encoder for the first time: the
/// runtime's first-time generic metadata work then never runs on two threads
/// at once (docs/amqp.md, "The batch encoder and the Swift runtime").
void herald_amqp_encoder_warmup_lock(void);
void herald_amqp_encoder_warmup_unlock(void);

#endif
