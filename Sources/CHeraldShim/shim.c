#include "CHeraldShim.h"
#include <pthread.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <string.h>
#include <unistd.h>

CURLcode herald_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode herald_curl_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode herald_curl_easy_setopt_ptr(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode herald_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode herald_curl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode herald_curl_easy_setopt_blob(CURL *handle, CURLoption option, const void *data, size_t length) {
    struct curl_blob blob = { (void *)data, length, CURL_BLOB_COPY };
    return curl_easy_setopt(handle, option, &blob);
}
CURLcode herald_curl_easy_setopt_write_function(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, fn);
}
CURLcode herald_curl_easy_setopt_header_function(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, fn);
}
CURLcode herald_curl_easy_setopt_prereq_function(CURL *handle, int (*fn)(void *, char *, char *, int, int)) {
    return curl_easy_setopt(handle, CURLOPT_PREREQFUNCTION, fn);
}
CURLcode herald_curl_easy_setopt_resolver_start_function(CURL *handle, int (*fn)(void *, void *, void *)) {
    return curl_easy_setopt(handle, CURLOPT_RESOLVER_START_FUNCTION, fn);
}
CURLcode herald_curl_easy_setopt_read_function(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(handle, CURLOPT_READFUNCTION, fn);
}
CURLcode herald_curl_easy_setopt_sockopt_function(CURL *handle, int (*fn)(void *, int, int)) {
    return curl_easy_setopt(handle, CURLOPT_SOCKOPTFUNCTION, (curl_sockopt_callback)fn);
}
CURLcode herald_curl_easy_setopt_closesocket_function(CURL *handle, int (*fn)(void *, int)) {
    return curl_easy_setopt(handle, CURLOPT_CLOSESOCKETFUNCTION, (curl_closesocket_callback)fn);
}
CURLcode herald_curl_easy_setopt_opensocket_function(CURL *handle, int (*fn)(void *, int, struct curl_sockaddr *)) {
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, (curl_opensocket_callback)fn);
}
size_t herald_curl_sockaddr_ip(const struct curl_sockaddr *address, unsigned char bytes[16]) {
    if (address->family == AF_INET && address->addrlen >= sizeof(struct sockaddr_in)) {
        memcpy(bytes, &((const struct sockaddr_in *)&address->addr)->sin_addr, 4);
        return 4;
    }
    if (address->family == AF_INET6 && address->addrlen >= sizeof(struct sockaddr_in6)) {
        memcpy(bytes, &((const struct sockaddr_in6 *)&address->addr)->sin6_addr, 16);
        return 16;
    }
    return 0;
}
int herald_curl_open_socket(const struct curl_sockaddr *address) {
    return socket(address->family, address->socktype, address->protocol);
}

int herald_tcp_set_cork(int socket, int on) { return setsockopt(socket, IPPROTO_TCP, TCP_CORK, &on, sizeof on); }
int herald_tcp_push(int socket) { int on = 1; return setsockopt(socket, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on); }
int herald_socket_close(int socket) { return close(socket); }
int herald_tcp_keepalive(int socket, int idle_seconds) {
    int on = 1;
    if (setsockopt(socket, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on) != 0) return -1;
    if (setsockopt(socket, IPPROTO_TCP, TCP_KEEPIDLE, &idle_seconds, sizeof idle_seconds) != 0) return -1;
    return setsockopt(socket, IPPROTO_TCP, TCP_KEEPINTVL, &idle_seconds, sizeof idle_seconds);
}

CURLcode herald_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
CURLcode herald_curl_easy_getinfo_double(CURL *handle, CURLINFO info, double *value) {
    return curl_easy_getinfo(handle, info, value);
}
CURLcode herald_curl_easy_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}
CURLcode herald_curl_easy_getinfo_ptr(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}
CURLcode herald_curl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLMcode herald_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}
CURLMcode herald_curl_multi_setopt_ptr(CURLM *multi, CURLMoption option, void *value) {
    return curl_multi_setopt(multi, option, value);
}

const curl_version_info_data *herald_curl_version_info(void) { return curl_version_info(CURLVERSION_NOW); }

long herald_ssl_ctx_set_mode(SSL_CTX *ctx, long mode) { return SSL_CTX_set_mode(ctx, mode); }
void herald_ssl_ctx_set_read_ahead(SSL_CTX *ctx, int yes) { SSL_CTX_set_read_ahead(ctx, yes); }
long herald_ssl_ctx_set_min_proto_version(SSL_CTX *ctx, int version) {
    return SSL_CTX_set_min_proto_version(ctx, version);
}
long herald_ssl_set_tlsext_host_name(SSL *ssl, const char *name) {
    return SSL_set_tlsext_host_name(ssl, name);
}
long herald_bio_get_mem_data(BIO *bio, char **data) { return BIO_get_mem_data(bio, data); }
unsigned long herald_openssl_version_number(void) { return OpenSSL_version_num(); }

EVP_PKEY *herald_generate_ec_p256_key(void) { return EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256"); }
EVP_PKEY *herald_generate_rsa_key(unsigned int bits) { return EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)bits); }

struct MHD_Daemon *herald_mhd_start(const struct sockaddr *address, const struct herald_mhd_limits *limits,
                                    MHD_AccessHandlerCallback handler, MHD_AcceptPolicyCallback accept_policy,
                                    MHD_NotifyConnectionCallback notify, void *context) {
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL;
    if (address->sa_family == AF_INET6) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)address;
        flags |= IN6_IS_ADDR_UNSPECIFIED(&v6->sin6_addr) ? MHD_USE_DUAL_STACK : MHD_USE_IPv6;
    }
    return MHD_start_daemon(flags, 0, accept_policy, context, handler, context,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_NOTIFY_CONNECTION, notify, context,
                            MHD_OPTION_CONNECTION_LIMIT, limits->connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, limits->idle_timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, limits->connection_memory_limit,
                            MHD_OPTION_THREAD_POOL_SIZE, limits->threads,
                            MHD_OPTION_END);
}
uint16_t herald_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

const struct sockaddr *herald_mhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info ? info->client_addr : NULL;
}

void herald_set_thread_name(const char *name) {
    prctl(PR_SET_NAME, name, 0, 0, 0);
}

int herald_gettid(void) {
    return (int)syscall(SYS_gettid);
}

int herald_memfd_create(const char *name) {
    return (int)syscall(SYS_memfd_create, name, 1u /* MFD_CLOEXEC */);
}

// MARK: build

const char *herald_version(void) { return HERALD_VERSION; }

// OpenSSL frees its global locks in an atexit handler. Herald exits with
// threads that may still touch OpenSSL (a worker thread ending runs OpenSSL's
// thread-local cleanup, a loop thread finishing a handshake), and any of them
// then locks a freed lock and the process dies with SIGSEGV instead of its
// exit status. Initialising OpenSSL first with OPENSSL_INIT_NO_ATEXIT keeps
// its state until the process is gone; the kernel reclaims it then. This runs
// before main in every Herald binary, so no other OpenSSL call comes first.
__attribute__((constructor)) static void herald_openssl_without_exit_cleanup(void) {
    OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, NULL);
}

static pthread_mutex_t herald_amqp_encoder_warmup_mutex = PTHREAD_MUTEX_INITIALIZER;

void herald_amqp_encoder_warmup_lock(void) { pthread_mutex_lock(&herald_amqp_encoder_warmup_mutex); }

void herald_amqp_encoder_warmup_unlock(void) { pthread_mutex_unlock(&herald_amqp_encoder_warmup_mutex); }
