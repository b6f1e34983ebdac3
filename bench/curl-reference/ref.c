/*
 * Reference for the HTTP/2 client benchmark: the least a C program must do to
 * drive libcurl's multi interface the way HeraldHTTPClient does — HTTP/2
 * multiplexing (CURLPIPE_MULTIPLEX + PIPEWAIT), TLS with verification and a
 * CA file, POST bodies, headers and body collected per response, easy handles
 * reused — on one thread with no hand-off. Its CPU per request is the floor
 * our Swift client is measured against.
 *
 * usage: ref URL CA_FILE REQUESTS CONCURRENCY CONNECTIONS BODY_BYTES
 * env: REF_AUTHORIZATION="bearer <JWT>" adds an authorization header, REF_BODY replaces the
 *      body (both for `herald simulate`, which checks them; used by bench/e2e.py);
 *      REF_CORK=1 corks each connection (TCP_CORK) and pushes it once per loop pass, as
 *      HeraldHTTPClient's SocketCork does (the plain run is the floor; this one is reported beside it)
 * prints: requests=<n> failed=<n> seconds=<wall> cpu_seconds=<user+sys>
 */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

/* REF_CORK: the connections' sockets, corked at creation and pushed after each pass. */
static int corked[64];
static int corked_count;

static int on_socket(void *user, curl_socket_t fd, curlsocktype purpose) {
    (void)user;
    int on = 1;
    if (purpose == CURLSOCKTYPE_IPCXN && corked_count < 64 &&
        setsockopt(fd, IPPROTO_TCP, TCP_CORK, &on, sizeof on) == 0)
        corked[corked_count++] = fd;
    return CURL_SOCKOPT_OK;
}

static void push_corked(void) {
    int on = 1;
    for (int i = 0; i < corked_count; i++) setsockopt(corked[i], IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
}

struct slot {
    CURL *easy;
    struct curl_slist *headers;
    char body[4096];
    size_t body_length;
    int header_lines;
};

static size_t on_body(char *data, size_t size, size_t count, void *user) {
    struct slot *slot = user;
    size_t total = size * count;
    if (slot->body_length + total > sizeof slot->body) return 0;
    memcpy(slot->body + slot->body_length, data, total);
    slot->body_length += total;
    return total;
}

static size_t on_header(char *data, size_t size, size_t count, void *user) {
    (void)data;
    ((struct slot *)user)->header_lines++;
    return size * count;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

static void start(CURLM *multi, struct slot *slot, const char *url, const char *ca, const char *payload, long length) {
    CURL *easy = slot->easy;
    slot->body_length = 0;
    slot->header_lines = 0;
    curl_easy_setopt(easy, CURLOPT_URL, url);
    curl_easy_setopt(easy, CURLOPT_CAINFO, ca);
    curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
    curl_easy_setopt(easy, CURLOPT_PIPEWAIT, 1L);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, 30000L);
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, slot->headers);
    curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)length);
    curl_easy_setopt(easy, CURLOPT_COPYPOSTFIELDS, payload);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, slot);
    curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(easy, CURLOPT_HEADERDATA, slot);
    curl_easy_setopt(easy, CURLOPT_PRIVATE, slot);
    if (getenv("REF_CORK")) curl_easy_setopt(easy, CURLOPT_SOCKOPTFUNCTION, on_socket);
    curl_multi_add_handle(multi, easy);
}

int main(int argc, char **argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: ref URL CA_FILE REQUESTS CONCURRENCY CONNECTIONS BODY_BYTES\n");
        return 2;
    }
    const char *url = argv[1], *ca = argv[2];
    long requests = atol(argv[3]), concurrency = atol(argv[4]), connections = atol(argv[5]), length = atol(argv[6]);
    char *payload = malloc(length + 1);
    memset(payload, 'x', length);
    payload[length] = 0;
    /* REF_BODY: send this text instead (BODY_BYTES is then its length), e.g. an APNs JSON payload. */
    if (getenv("REF_BODY")) {
        free(payload);
        payload = strdup(getenv("REF_BODY"));
        length = (long)strlen(payload);
    }

    curl_global_init(CURL_GLOBAL_ALL);
    CURLM *multi = curl_multi_init();
    curl_multi_setopt(multi, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX);
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, connections);
    curl_multi_setopt(multi, CURLMOPT_MAX_CONCURRENT_STREAMS, 1000L);

    /* REF_AUTHORIZATION (e.g. "bearer <JWT>") adds an authorization header: the simulator checks it. */
    char *authorization = NULL;
    if (getenv("REF_AUTHORIZATION")) {
        authorization = malloc(strlen(getenv("REF_AUTHORIZATION")) + 16);
        sprintf(authorization, "authorization: %s", getenv("REF_AUTHORIZATION"));
    }
    struct slot *slots = calloc(concurrency, sizeof *slots);
    long started = 0, done = 0, failed = 0;
    double wall = now(), cpu0 = cpu();
    for (long i = 0; i < concurrency && started < requests; i++, started++) {
        slots[i].easy = curl_easy_init();
        slots[i].headers = curl_slist_append(NULL, "apns-topic: com.example.chat");
        slots[i].headers = curl_slist_append(slots[i].headers, "apns-push-type: alert");
        slots[i].headers = curl_slist_append(slots[i].headers, "Content-Type:");
        if (authorization) slots[i].headers = curl_slist_append(slots[i].headers, authorization);
        start(multi, &slots[i], url, ca, payload, length);
    }
    while (done < requests) {
        int running = 0, left = 0;
        curl_multi_perform(multi, &running);
        CURLMsg *message;
        while ((message = curl_multi_info_read(multi, &left))) {
            if (message->msg != CURLMSG_DONE) continue;
            struct slot *slot;
            long status = 0;
            curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, (char **)&slot);
            curl_easy_getinfo(message->easy_handle, CURLINFO_RESPONSE_CODE, &status);
            if (message->data.result != CURLE_OK || status != 200) {
                if (!failed) fprintf(stderr, "first failure: curl %d (%s), status %ld\n", message->data.result,
                                     curl_easy_strerror(message->data.result), status);
                failed++;
            }
            done++;
            curl_multi_remove_handle(multi, slot->easy);
            if (started < requests) {
                started++;
                start(multi, slot, url, ca, payload, length);
            }
        }
        push_corked();
        if (done < requests) curl_multi_poll(multi, NULL, 0, 1000, NULL);
    }
    printf("requests=%ld failed=%ld seconds=%.3f cpu_seconds=%.3f\n", done, failed, now() - wall, cpu() - cpu0);
    for (long i = 0; i < concurrency; i++) {
        if (slots[i].easy) curl_easy_cleanup(slots[i].easy);
        curl_slist_free_all(slots[i].headers);
    }
    curl_multi_cleanup(multi);
    curl_global_cleanup();
    free(slots);
    free(payload);
    return failed ? 1 : 0;
}
