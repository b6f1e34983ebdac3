/*
 * Load generator and raw-AMQP floor for the end-to-end benchmark (bench/e2e.sh).
 * C on rabbitmq-c so that the generator itself costs little CPU on the shared
 * 2-core machine it measures.
 *
 *   loadgen run   URL EXCHANGE RESULTS_EXCHANGE COUNT RATE WINDOW SEED DEAD_APNS
 *       Publishes COUNT events (mixed APNs/FCM, 1-3 targets, 300-800 B) to
 *       EXCHANGE, routing key "bench.<n>"; RATE > 0: open loop at RATE events/s;
 *       RATE = 0: closed loop with at most WINDOW events whose outcomes are not
 *       all back. Each event's context carries {"bench_seq":n,"bench_t":"<µs>"}
 *       (publish time, CLOCK_REALTIME); a second connection consumes every
 *       outcome from RESULTS_EXCHANGE and records publish->outcome latency.
 *       Prints one JSON object. LOADGEN_EVENTS=FILE takes the COUNT events
 *       from FILE instead, one per line as "OUTCOMES JSON" (the outcomes the
 *       event is to produce, e.g. a channel's devices); each JSON carries
 *       "bench_seq":<line number from 0> and "bench_t":"0000000000000000"
 *       in its context.
 *   loadgen fill  URL QUEUE QUEUE_TYPE COUNT SEED
 *       Declares QUEUE (classic|quorum) and puts COUNT events in it (confirmed).
 *   loadgen floor URL QUEUE RESULTS_EXCHANGE COUNT PREFETCH BROKER_PID
 *       The raw loop a C program would run for the benchmark's workload:
 *       consume COUNT events from QUEUE (manual acks, prefetch), publish one
 *       ~450 B outcome per target of each event to RESULTS_EXCHANGE with
 *       publisher confirms, ack each event once its outcomes are confirmed;
 *       a second connection (thread) consumes the outcomes (no-ack), as the
 *       upstream does in `run`. Prints JSON with the loop thread's own CPU and
 *       the broker's (from /proc/BROKER_PID), per event and per outcome.
 *   loadgen echo  URL EXCHANGE QUEUE QUEUE_TYPE RESULTS PREFETCH READY_FILE
 *       The AMQP path alone (no HTTP): echoes each event once per target to
 *       RESULTS with confirms; `run` then measures what the broker and the
 *       machine alone add to publish->outcome latency. Until SIGTERM.
 *   loadgen burn  THREADS CORES SECONDS
 *       Synthetic load, not AMQP: THREADS threads together use CORES of CPU
 *       for SECONDS in bursts of 50 µs of CPU, each thread sleeping after a
 *       burst until its share (CORES / THREADS) is met; a thread that fell
 *       behind (the machine was busy) runs its next burst at once. Put beside
 *       the echo, it makes the machine as busy as Herald and the simulator
 *       make it, without their chain of threads. Prints the CPU it used.
 *   loadgen wake  ROUNDS
 *       Two threads hand a byte back and forth over two pipes ROUNDS times,
 *       each blocking in read until the other writes: the cost of a wake-up
 *       from another thread, which every hand-off between Herald's threads
 *       pays. Prints µs per round trip (two wake-ups), as measured and with
 *       both threads pinned to one CPU.
 *   loadgen delete URL [queue:NAME|exchange:NAME]...
 */
#define _GNU_SOURCE /* memmem */
#include <amqp.h>
#include <amqp_tcp_socket.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what) {
    fprintf(stderr, "loadgen: %s\n", what);
    exit(1);
}

static void check_reply(amqp_rpc_reply_t reply, const char *what) {
    if (reply.reply_type == AMQP_RESPONSE_NORMAL) return;
    fprintf(stderr, "loadgen: %s failed (reply type %d", what, reply.reply_type);
    if (reply.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION)
        fprintf(stderr, ": %s", amqp_error_string2(reply.library_error));
    if (reply.reply_type == AMQP_RESPONSE_SERVER_EXCEPTION && reply.reply.id == AMQP_CHANNEL_CLOSE_METHOD) {
        amqp_channel_close_t *close = reply.reply.decoded;
        fprintf(stderr, ": %.*s", (int)close->reply_text.len, (char *)close->reply_text.bytes);
    }
    if (reply.reply_type == AMQP_RESPONSE_SERVER_EXCEPTION && reply.reply.id == AMQP_CONNECTION_CLOSE_METHOD) {
        amqp_connection_close_t *close = reply.reply.decoded;
        fprintf(stderr, ": %.*s", (int)close->reply_text.len, (char *)close->reply_text.bytes);
    }
    fprintf(stderr, ")\n");
    exit(1);
}

static amqp_connection_state_t connect_url(const char *url_text) {
    char *copy = strdup(url_text);
    struct amqp_connection_info info;
    amqp_default_connection_info(&info);
    if (amqp_parse_url(copy, &info) != AMQP_STATUS_OK) die("bad AMQP URL");
    amqp_connection_state_t conn = amqp_new_connection();
    amqp_socket_t *socket = amqp_tcp_socket_new(conn);
    if (!socket || amqp_socket_open(socket, info.host, info.port) != AMQP_STATUS_OK) die("cannot connect to the broker");
    check_reply(amqp_login(conn, info.vhost, 0, 131072, 0, AMQP_SASL_METHOD_PLAIN, info.user, info.password), "login");
    amqp_channel_open(conn, 1);
    check_reply(amqp_get_rpc_reply(conn), "channel.open");
    return conn;
}

static int64_t realtime_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static double monotonic(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double self_cpu(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

static double thread_cpu(void) {
    struct rusage usage;
    getrusage(RUSAGE_THREAD, &usage);
    return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

static double proc_cpu(long pid) {
    if (pid <= 0) return 0;
    char path[64], buffer[2048];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *file = fopen(path, "r");
    if (!file) return 0;
    size_t n = fread(buffer, 1, sizeof buffer - 1, file);
    fclose(file);
    buffer[n] = 0;
    char *p = strrchr(buffer, ')');
    if (!p) return 0;
    unsigned long utime = 0, stime = 0;
    /* fields after ")": state(3) ... utime(14) stime(15) */
    int field = 2;
    for (char *token = strtok(p + 1, " "); token; token = strtok(NULL, " ")) {
        field++;
        if (field == 14) utime = strtoul(token, NULL, 10);
        if (field == 15) { stime = strtoul(token, NULL, 10); break; }
    }
    return (double)(utime + stime) / sysconf(_SC_CLK_TCK);
}

/* ---- events ---- */

/* LOADGEN_PROVIDERS=apns|fcm sends every target to that provider (for bisecting); default mixed. */
static const char *only_provider;

static uint64_t rng_state;
static uint32_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 11);
}

struct event {
    char *body;
    size_t length;
    size_t time_offset; /* where the 16 digits of bench_t start */
    int targets;
};

static const char *words[] = {"hello", "meeting", "tomorrow", "photo", "shared", "with", "you", "new", "comment",
                              "on", "your", "post", "reminder", "order", "shipped", "the", "team", "update"};

static void filler(char *out, size_t length) {
    size_t n = 0;
    while (n < length) {
        const char *word = words[rnd() % (sizeof words / sizeof *words)];
        for (const char *c = word; *c && n < length; c++) out[n++] = *c;
        if (n < length) out[n++] = ' ';
    }
    out[length] = 0;
}

/* Builds event `seq`; the apns token DEAD_APNS gets 1% of APNs targets. */
static struct event make_event(long seq, const char *dead_apns) {
    char targets[1024] = "";
    int count = 1 + rnd() % 3;
    for (int i = 0; i < count; i++) {
        char token[200];
        int apns = rnd() % 2;
        if (only_provider) apns = strcmp(only_provider, "apns") == 0;
        if (apns && dead_apns && *dead_apns && rnd() % 100 == 0) {
            snprintf(token, sizeof token, "%s", dead_apns);
        } else if (apns) {
            for (int k = 0; k < 64; k++) token[k] = "0123456789abcdef"[rnd() % 16];
            token[64] = 0;
        } else {
            static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
            for (int k = 0; k < 22; k++) token[k] = alphabet[rnd() % 64];
            token[22] = ':';
            token[23] = 'A';
            token[24] = 'P';
            token[25] = 'A';
            token[26] = '9';
            for (int k = 27; k < 152; k++) token[k] = alphabet[rnd() % 64];
            token[152] = 0;
        }
        size_t used = strlen(targets);
        snprintf(targets + used, sizeof targets - used, "%s{\"provider\":\"%s\",\"token\":\"%s\"}", i ? "," : "",
                 apns ? "apns" : "fcm", token);
    }
    int wanted = 300 + rnd() % 501;
    char title[48];
    filler(title, 8 + rnd() % 24);
    char head[2048];
    /* Ids unique to this process: Herald drops an event whose id it received within duplicate_window
       (the warm-up and earlier points, and with a registry database earlier Herald processes too). */
    int head_length = snprintf(head, sizeof head,
                               "{\"id\":\"bench-%ld-%ld\",\"app\":\"bench\",\"targets\":[%s],"
                               "\"notification\":{\"title\":\"%s\",\"body\":\"",
                               (long)getpid(), seq, targets, title);
    char tail[512];
    int tail_length = snprintf(tail, sizeof tail,
                               "\",\"badge\":%u,\"sound\":\"default\",\"thread_id\":\"t-%u\"},"
                               "\"data\":{\"screen\":\"chat\",\"thread_id\":\"%u\"},\"push_type\":\"alert\","
                               "\"priority\":\"high\",\"ttl\":3600,\"collapse_id\":\"thread-%u\","
                               "\"context\":{\"bench_seq\":%ld,\"bench_t\":\"0000000000000000\"}}",
                               rnd() % 20, rnd() % 1000, rnd() % 1000, rnd() % 1000, seq);
    int body_length = wanted - head_length - tail_length;
    if (body_length < 8) body_length = 8;
    struct event event;
    event.length = head_length + body_length + tail_length;
    event.body = malloc(event.length + 1);
    memcpy(event.body, head, head_length);
    filler(event.body + head_length, body_length);
    memcpy(event.body + head_length + body_length, tail, tail_length + 1);
    event.time_offset = event.length - 3 - 16;
    event.targets = count;
    return event;
}

/* The COUNT events of a LOADGEN_EVENTS file (see `run` above). */
static void read_events(const char *path, struct event *events, long count) {
    FILE *file = fopen(path, "r");
    if (!file) die("cannot open LOADGEN_EVENTS");
    char *line = NULL;
    size_t capacity = 0;
    for (long i = 0; i < count; i++) {
        ssize_t length = getline(&line, &capacity, file);
        if (length <= 0) die("LOADGEN_EVENTS has fewer lines than COUNT");
        if (line[length - 1] == '\n') line[--length] = 0;
        char *json = strchr(line, ' ');
        if (!json) die("LOADGEN_EVENTS: a line is not \"OUTCOMES JSON\"");
        json++;
        static const char key[] = "\"bench_t\":\"";
        char *digits = memmem(json, line + length - json, key, sizeof key - 1);
        if (!digits) die("LOADGEN_EVENTS: an event has no \"bench_t\" in its context");
        events[i].length = line + length - json;
        events[i].body = malloc(events[i].length + 1);
        memcpy(events[i].body, json, events[i].length + 1);
        events[i].time_offset = digits + sizeof key - 1 - json;
        events[i].targets = atoi(line);
    }
    free(line);
    fclose(file);
}

static void stamp(struct event *event, int64_t us) {
    char digits[17];
    snprintf(digits, sizeof digits, "%016lld", (long long)us);
    memcpy(event->body + event->time_offset, digits, 16);
}

static void publish(amqp_connection_state_t conn, const char *exchange, const char *key, struct event *event, long seq) {
    amqp_basic_properties_t props;
    char id[48];
    snprintf(id, sizeof id, "bench-%ld-%ld", (long)getpid(), seq);
    props._flags = AMQP_BASIC_CONTENT_TYPE_FLAG | AMQP_BASIC_DELIVERY_MODE_FLAG | AMQP_BASIC_MESSAGE_ID_FLAG;
    props.content_type = amqp_cstring_bytes("application/json");
    props.delivery_mode = 2;
    props.message_id = amqp_cstring_bytes(id);
    amqp_bytes_t body = {event->length, event->body};
    int status = amqp_basic_publish(conn, 1, amqp_cstring_bytes(exchange), amqp_cstring_bytes(key), 0, 0, &props, body);
    if (status != AMQP_STATUS_OK) die("publish failed");
}

/* ---- run: publisher + outcome consumer ---- */

struct run {
    const char *url, *exchange, *results;
    long count, rate, window;
    struct event *events;
    atomic_long published, completed, outcomes;
    atomic_int *remaining;
    int64_t *latency_us; /* one per outcome */
    long *seq_of;        /* the event each outcome belongs to (for LOADGEN_DUMP) */
    signed char *status_of;
    int64_t *stage_us;   /* per outcome: publish→Herald's "at", and the provider round trip (LOADGEN_DUMP) */
    long expected_outcomes;
    long statuses[8];
    long unknown;
    atomic_int consumer_ready, done;
    double first_publish, last_publish, last_outcome;
};

static const char *status_names[8] = {"delivered", "invalid_token", "failed", "retrying", "expired", "dropped", "rejected", "other"};

static const char *find_key(const char *body, size_t length, const char *key) {
    size_t key_length = strlen(key);
    const char *end = body + length;
    for (const char *p = body; p + key_length < end; p++) {
        p = memchr(p, '"', end - p);
        if (!p || p + key_length + 2 >= end) return NULL;
        if (memcmp(p + 1, key, key_length) == 0 && p[key_length + 1] == '"') {
            const char *q = p + key_length + 2;
            while (q < end && (*q == ' ' || *q == ':')) q++;
            return q;
        }
    }
    return NULL;
}

static void *consume_outcomes(void *argument) {
    struct run *run = argument;
    amqp_connection_state_t conn = connect_url(run->url);
    amqp_exchange_declare(conn, 1, amqp_cstring_bytes(run->results), amqp_cstring_bytes("topic"), 0, 1, 0, 0,
                          amqp_empty_table);
    check_reply(amqp_get_rpc_reply(conn), "exchange.declare (results)");
    amqp_queue_declare_ok_t *declared = amqp_queue_declare(conn, 1, amqp_empty_bytes, 0, 0, 1, 1, amqp_empty_table);
    check_reply(amqp_get_rpc_reply(conn), "queue.declare (outcomes)");
    amqp_bytes_t queue = amqp_bytes_malloc_dup(declared->queue);
    amqp_queue_bind(conn, 1, queue, amqp_cstring_bytes(run->results), amqp_cstring_bytes("#"), amqp_empty_table);
    check_reply(amqp_get_rpc_reply(conn), "queue.bind (outcomes)");
    amqp_basic_consume(conn, 1, queue, amqp_empty_bytes, 0, 1, 1, amqp_empty_table);
    check_reply(amqp_get_rpc_reply(conn), "basic.consume (outcomes)");
    atomic_store(&run->consumer_ready, 1);
    double idle_since = monotonic();
    while (atomic_load(&run->outcomes) < run->expected_outcomes) {
        struct timeval timeout = {0, 200000};
        amqp_envelope_t envelope;
        amqp_maybe_release_buffers(conn);
        amqp_rpc_reply_t reply = amqp_consume_message(conn, &envelope, &timeout, 0);
        if (reply.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION && reply.library_error == AMQP_STATUS_TIMEOUT) {
            /* give up after 30 s without an outcome (a lost outcome must not hang the bench) */
            if (monotonic() - idle_since > 30) break;
            continue;
        }
        if (reply.reply_type != AMQP_RESPONSE_NORMAL) check_reply(reply, "consume (outcomes)");
        int64_t now = realtime_us();
        idle_since = monotonic();
        const char *body = envelope.message.body.bytes;
        size_t length = envelope.message.body.len;
        long index = atomic_fetch_add(&run->outcomes, 1);
        const char *seq_at = find_key(body, length, "bench_seq");
        const char *time_at = find_key(body, length, "bench_t");
        const char *status_at = find_key(body, length, "status");
        if (seq_at && time_at && *time_at == '"' && index < run->expected_outcomes * 2) {
            long seq = strtol(seq_at, NULL, 10);
            long long sent = strtoll(time_at + 1, NULL, 10);
            run->latency_us[index] = now - sent;
            run->seq_of[index] = seq;
            if (seq >= 0 && seq < run->count && atomic_fetch_sub(&run->remaining[seq], 1) == 1)
                atomic_fetch_add(&run->completed, 1);
        } else {
            run->unknown++;
            if (index < run->expected_outcomes * 2) run->latency_us[index] = -1;
        }
        if (index < run->expected_outcomes * 2 && seq_at && time_at) {
            /* Herald's "at" (ms) and latency_ms split the latency: before the outcome was built, the provider's
               share of it, and the outcome's trip back through the broker. */
            const char *at = find_key(body, length, "at");
            const char *http = find_key(body, length, "latency_ms");
            struct tm tm = {0};
            int ms = 0;
            if (at && *at == '"' && sscanf(at + 1, "%4d-%2d-%2dT%2d:%2d:%2d.%3dZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                                           &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &ms) == 7) {
                tm.tm_year -= 1900;
                tm.tm_mon -= 1;
                run->stage_us[2 * index] = (int64_t)timegm(&tm) * 1000000 + ms * 1000 - strtoll(time_at + 1, NULL, 10);
            }
            run->stage_us[2 * index + 1] = http ? (int64_t)(strtod(http, NULL) * 1000) : -1;
        }
        int status = 7;
        if (status_at && *status_at == '"') {
            for (int s = 0; s < 7; s++) {
                size_t n = strlen(status_names[s]);
                if (strncmp(status_at + 1, status_names[s], n) == 0 && status_at[n + 1] == '"') { status = s; break; }
            }
        }
        run->statuses[status]++;
        if (index < run->expected_outcomes * 2) run->status_of[index] = (signed char)status;
        run->last_outcome = monotonic();
        amqp_destroy_envelope(&envelope);
    }
    amqp_channel_close(conn, 1, AMQP_REPLY_SUCCESS);
    amqp_connection_close(conn, AMQP_REPLY_SUCCESS);
    amqp_destroy_connection(conn);
    return NULL;
}

static int compare_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int run_load(int argc, char **argv) {
    if (argc != 10) die("usage: loadgen run URL EXCHANGE RESULTS COUNT RATE WINDOW SEED DEAD_APNS");
    static struct run run;
    run.url = argv[2];
    run.exchange = argv[3];
    run.results = argv[4];
    run.count = atol(argv[5]);
    run.rate = atol(argv[6]);
    run.window = atol(argv[7]);
    rng_state = strtoull(argv[8], NULL, 10) * 2654435761u + 88172645463325252ull;
    only_provider = getenv("LOADGEN_PROVIDERS");
    run.events = calloc(run.count, sizeof *run.events);
    run.remaining = calloc(run.count, sizeof *run.remaining);
    if (getenv("LOADGEN_EVENTS")) read_events(getenv("LOADGEN_EVENTS"), run.events, run.count);
    for (long i = 0; i < run.count; i++) {
        if (!getenv("LOADGEN_EVENTS")) run.events[i] = make_event(i, argv[9]);
        run.remaining[i] = run.events[i].targets;
        run.expected_outcomes += run.events[i].targets;
    }
    run.latency_us = calloc(run.expected_outcomes * 2, sizeof *run.latency_us);
    run.seq_of = calloc(run.expected_outcomes * 2, sizeof *run.seq_of);
    run.status_of = calloc(run.expected_outcomes * 2, sizeof *run.status_of);
    run.stage_us = calloc(run.expected_outcomes * 4, sizeof *run.stage_us);

    amqp_connection_state_t conn = connect_url(run.url);
    amqp_exchange_declare(conn, 1, amqp_cstring_bytes(run.exchange), amqp_cstring_bytes("topic"), 0, 1, 0, 0,
                          amqp_empty_table);
    check_reply(amqp_get_rpc_reply(conn), "exchange.declare (events)");
    pthread_t consumer;
    pthread_create(&consumer, NULL, consume_outcomes, &run);
    while (!atomic_load(&run.consumer_ready)) usleep(1000);

    double cpu0 = self_cpu();
    double start = monotonic();
    run.first_publish = start;
    char key[32];
    for (long i = 0; i < run.count; i++) {
        if (run.rate > 0) {
            double due = start + (double)i / run.rate;
            double wait = due - monotonic();
            if (wait > 0.0002) {
                struct timespec ts = {(time_t)wait, (long)((wait - (time_t)wait) * 1e9)};
                nanosleep(&ts, NULL);
            }
        } else {
            while (i - atomic_load(&run.completed) >= run.window) {
                struct timespec ts = {0, 200000};
                nanosleep(&ts, NULL);
            }
        }
        snprintf(key, sizeof key, "bench.%ld", i % 8);
        stamp(&run.events[i], realtime_us());
        publish(conn, run.exchange, key, &run.events[i], i);
        atomic_fetch_add(&run.published, 1);
    }
    run.last_publish = monotonic();
    atomic_store(&run.done, 1);
    pthread_join(consumer, NULL);
    double cpu = self_cpu() - cpu0;
    amqp_channel_close(conn, 1, AMQP_REPLY_SUCCESS);
    amqp_connection_close(conn, AMQP_REPLY_SUCCESS);
    amqp_destroy_connection(conn);

    long received = atomic_load(&run.outcomes);
    /* LOADGEN_DUMP=FILE: one line per outcome, "arrival index, latency µs, event, status, targets, providers, publish→at µs, provider µs, publish time µs" (for finding stalls). */
    if (getenv("LOADGEN_DUMP")) {
        FILE *dump = fopen(getenv("LOADGEN_DUMP"), "w");
        for (long i = 0; dump && i < received && i < run.expected_outcomes * 2; i++) {
            const struct event *event = &run.events[run.seq_of[i]];
            int apns = memmem(event->body, event->length, "\"apns\"", 6) != NULL;
            int fcm = memmem(event->body, event->length, "\"fcm\"", 5) != NULL;
            fprintf(dump, "%ld %lld %ld %s %d %s %lld %lld %lld\n", i, (long long)run.latency_us[i], run.seq_of[i],
                    status_names[run.status_of[i] & 7], event->targets, apns && fcm ? "mixed" : apns ? "apns" : "fcm",
                    (long long)run.stage_us[2 * i], (long long)run.stage_us[2 * i + 1],
                    strtoll(event->body + event->time_offset, NULL, 10));
        }
        if (dump) fclose(dump);
    }
    long samples = 0;
    long limit = received < run.expected_outcomes * 2 ? received : run.expected_outcomes * 2;
    int64_t *lat = malloc((limit + 1) * sizeof *lat);
    for (long i = 0; i < limit; i++)
        if (run.latency_us[i] >= 0) lat[samples++] = run.latency_us[i];
    qsort(lat, samples, sizeof *lat, compare_i64);
#define PCT(p) (samples ? lat[(long)((samples - 1) * (p))] / 1000.0 : -1)
    double seconds = (run.last_outcome > 0 ? run.last_outcome : monotonic()) - run.first_publish;
    printf("{\"events\":%ld,\"expected_outcomes\":%ld,\"outcomes\":%ld,\"completed_events\":%ld,"
           "\"seconds\":%.3f,\"publish_seconds\":%.3f,\"notifications_per_s\":%.1f,\"events_per_s\":%.1f,"
           "\"p50_ms\":%.2f,\"p90_ms\":%.2f,\"p99_ms\":%.2f,\"max_ms\":%.2f,\"loadgen_cpu_s\":%.3f,\"statuses\":{",
           run.count, run.expected_outcomes, received, atomic_load(&run.completed), seconds,
           run.last_publish - run.first_publish, received / seconds, atomic_load(&run.completed) / seconds, PCT(0.5),
           PCT(0.9), PCT(0.99), samples ? lat[samples - 1] / 1000.0 : -1, cpu);
    for (int s = 0; s < 8; s++) printf("%s\"%s\":%ld", s ? "," : "", status_names[s], run.statuses[s]);
    printf("},\"unparsed\":%ld}\n", run.unknown);
    return received >= run.expected_outcomes ? 0 : 3;
}

/* ---- fill / floor / delete ---- */

static amqp_table_t queue_type_table(const char *type, amqp_table_entry_t *entry) {
    entry->key = amqp_cstring_bytes("x-queue-type");
    entry->value.kind = AMQP_FIELD_KIND_UTF8;
    entry->value.value.bytes = amqp_cstring_bytes(type);
    amqp_table_t table = {1, entry};
    return table;
}

/* Waits for publisher confirms until at most `limit` are outstanding. */
static void wait_confirms(amqp_connection_state_t conn, uint64_t *confirmed, uint64_t published, uint64_t limit) {
    while (published - *confirmed > limit) {
        amqp_frame_t frame;
        if (amqp_simple_wait_frame(conn, &frame) != AMQP_STATUS_OK) die("wait for confirms");
        if (frame.frame_type != AMQP_FRAME_METHOD) continue;
        if (frame.payload.method.id == AMQP_BASIC_ACK_METHOD) {
            amqp_basic_ack_t *ack = frame.payload.method.decoded;
            *confirmed = ack->multiple ? ack->delivery_tag : *confirmed + 1;
        } else if (frame.payload.method.id == AMQP_BASIC_NACK_METHOD) {
            die("broker nacked a publish");
        }
    }
}

static int fill(int argc, char **argv) {
    if (argc != 7) die("usage: loadgen fill URL QUEUE QUEUE_TYPE COUNT SEED");
    const char *queue = argv[3];
    long count = atol(argv[5]);
    rng_state = strtoull(argv[6], NULL, 10) * 2654435761u + 88172645463325252ull;
    amqp_connection_state_t conn = connect_url(argv[2]);
    amqp_table_entry_t entry;
    amqp_queue_declare(conn, 1, amqp_cstring_bytes(queue), 0, 1, 0, 0, queue_type_table(argv[4], &entry));
    check_reply(amqp_get_rpc_reply(conn), "queue.declare");
    amqp_confirm_select(conn, 1);
    check_reply(amqp_get_rpc_reply(conn), "confirm.select");
    uint64_t confirmed = 0;
    for (long i = 0; i < count; i++) {
        struct event event = make_event(i, "");
        stamp(&event, realtime_us());
        publish(conn, "", queue, &event, i);
        free(event.body);
        wait_confirms(conn, &confirmed, i + 1, 512);
    }
    wait_confirms(conn, &confirmed, count, 0);
    amqp_connection_close(conn, AMQP_REPLY_SUCCESS);
    amqp_destroy_connection(conn);
    return 0;
}

/* Events consumed on channel 1 whose copies are published there with confirms:
 * each event is acked (multiple) once every one of its copies is confirmed. */
struct confirmed_acks {
    uint64_t *last_seq; /* publish sequence number of each delivery's last copy */
    size_t capacity;    /* more than the prefetch: tags still open fit */
    uint64_t delivered, published, confirmed, acked;
};

static void acks_init(struct confirmed_acks *acks) {
    memset(acks, 0, sizeof *acks);
    acks->capacity = 1 << 16;
    acks->last_seq = calloc(acks->capacity, sizeof *acks->last_seq);
    if (!acks->last_seq) die("calloc");
}

/* Publishes `copies` copies of `body` for the delivery just received. */
static void acks_publish(amqp_connection_state_t conn, struct confirmed_acks *acks, const char *results,
                         const char *routing_key, amqp_basic_properties_t *props, amqp_bytes_t body, int copies) {
    acks->delivered++;
    for (int i = 0; i < copies; i++) {
        if (amqp_basic_publish(conn, 1, amqp_cstring_bytes(results), amqp_cstring_bytes(routing_key), 0, 0, props,
                               body) != AMQP_STATUS_OK)
            die("publish");
        acks->published++;
    }
    acks->last_seq[acks->delivered % acks->capacity] = acks->published;
}

/* Reads the frame that stopped amqp_consume_message: a confirm acks every
 * event whose copies are now all confirmed; a nack ends the run. */
static void acks_on_frame(amqp_connection_state_t conn, struct confirmed_acks *acks) {
    amqp_frame_t frame;
    if (amqp_simple_wait_frame(conn, &frame) != AMQP_STATUS_OK) die("wait frame");
    if (frame.frame_type != AMQP_FRAME_METHOD) return;
    if (frame.payload.method.id == AMQP_BASIC_ACK_METHOD) {
        amqp_basic_ack_t *ack = frame.payload.method.decoded;
        if (ack->delivery_tag > acks->confirmed) acks->confirmed = ack->delivery_tag;
        uint64_t tag = acks->acked;
        while (tag < acks->delivered && acks->last_seq[(tag + 1) % acks->capacity] <= acks->confirmed) tag++;
        if (tag > acks->acked) {
            amqp_basic_ack(conn, 1, tag, 1);
            acks->acked = tag;
        }
    } else if (frame.payload.method.id == AMQP_BASIC_NACK_METHOD) {
        die("broker nacked a copy");
    }
}

/* Number of targets in an event body: one "provider" key per target. */
static int target_count(const char *body, size_t length) {
    int copies = 0;
    for (const char *p = body; (p = memmem(p, body + length - p, "\"provider\"", 10)); p += 10) copies++;
    return copies ? copies : 1;
}

struct sink {
    const char *url, *queue;
    atomic_long received, expected;
    atomic_int ready;
};

/* The upstream's side of the floor: consumes the outcomes (no-ack) until told how many to expect. */
static void *drain_sink(void *argument) {
    struct sink *sink = argument;
    amqp_connection_state_t conn = connect_url(sink->url);
    amqp_basic_consume(conn, 1, amqp_cstring_bytes(sink->queue), amqp_empty_bytes, 0, 1, 0, amqp_empty_table);
    check_reply(amqp_get_rpc_reply(conn), "basic.consume (sink)");
    atomic_store(&sink->ready, 1);
    double idle_since = monotonic();
    for (;;) {
        long expected = atomic_load(&sink->expected);
        if (expected > 0 && atomic_load(&sink->received) >= expected) break;
        struct timeval timeout = {0, 200000};
        amqp_envelope_t envelope;
        amqp_maybe_release_buffers(conn);
        amqp_rpc_reply_t reply = amqp_consume_message(conn, &envelope, &timeout, 0);
        if (reply.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION && reply.library_error == AMQP_STATUS_TIMEOUT) {
            if (monotonic() - idle_since > 30) die("floor: outcomes stopped arriving");
            continue;
        }
        check_reply(reply, "consume (sink)");
        idle_since = monotonic();
        atomic_fetch_add(&sink->received, 1);
        amqp_destroy_envelope(&envelope);
    }
    amqp_connection_close(conn, AMQP_REPLY_SUCCESS);
    amqp_destroy_connection(conn);
    return NULL;
}

static int floor_loop(int argc, char **argv) {
    if (argc != 8) die("usage: loadgen floor URL QUEUE RESULTS COUNT PREFETCH BROKER_PID");
    const char *queue = argv[3], *results = argv[4];
    long count = atol(argv[5]);
    uint16_t prefetch = (uint16_t)atol(argv[6]);
    long broker = atol(argv[7]);
    amqp_connection_state_t conn = connect_url(argv[2]);
    amqp_exchange_declare(conn, 1, amqp_cstring_bytes(results), amqp_cstring_bytes("topic"), 0, 0, 1, 0,
                          amqp_empty_table);
    check_reply(amqp_get_rpc_reply(conn), "exchange.declare");
    char sink_name[256];
    snprintf(sink_name, sizeof sink_name, "%s.sink", results);
    amqp_queue_declare(conn, 1, amqp_cstring_bytes(sink_name), 0, 0, 0, 0, amqp_empty_table);
    check_reply(amqp_get_rpc_reply(conn), "queue.declare (sink)");
    amqp_queue_bind(conn, 1, amqp_cstring_bytes(sink_name), amqp_cstring_bytes(results), amqp_cstring_bytes("#"),
                    amqp_empty_table);
    check_reply(amqp_get_rpc_reply(conn), "queue.bind (sink)");
    amqp_confirm_select(conn, 1);
    check_reply(amqp_get_rpc_reply(conn), "confirm.select");
    amqp_basic_qos(conn, 1, 0, prefetch, 0);
    check_reply(amqp_get_rpc_reply(conn), "basic.qos");

    static struct sink sink;
    sink.url = argv[2];
    sink.queue = sink_name;
    pthread_t drainer;
    if (pthread_create(&drainer, NULL, drain_sink, &sink) != 0) die("pthread_create");
    while (!atomic_load(&sink.ready)) usleep(1000);

    char outcome[460];
    memset(outcome, 'x', sizeof outcome);
    memcpy(outcome, "{\"status\":\"delivered\",\"pad\":\"", 30);
    memcpy(outcome + sizeof outcome - 2, "\"}", 2);
    amqp_bytes_t outcome_body = {sizeof outcome, outcome};
    amqp_basic_properties_t props;
    props._flags = AMQP_BASIC_CONTENT_TYPE_FLAG | AMQP_BASIC_DELIVERY_MODE_FLAG;
    props.content_type = amqp_cstring_bytes("application/json");
    props.delivery_mode = 2;

    struct confirmed_acks acks;
    acks_init(&acks);
    double cpu0 = thread_cpu(), broker0 = proc_cpu(broker), start = monotonic();
    amqp_basic_consume(conn, 1, amqp_cstring_bytes(queue), amqp_empty_bytes, 0, 0, 0, amqp_empty_table);
    check_reply(amqp_get_rpc_reply(conn), "basic.consume");
    while (acks.acked < (uint64_t)count) {
        amqp_envelope_t envelope;
        amqp_maybe_release_buffers(conn);
        amqp_rpc_reply_t reply = amqp_consume_message(conn, &envelope, NULL, 0);
        if (reply.reply_type == AMQP_RESPONSE_NORMAL) {
            int copies = target_count(envelope.message.body.bytes, envelope.message.body.len);
            acks_publish(conn, &acks, results, "delivered.apns.bench", &props, outcome_body, copies);
            amqp_destroy_envelope(&envelope);
            continue;
        }
        if (reply.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION && reply.library_error == AMQP_STATUS_UNEXPECTED_STATE) {
            acks_on_frame(conn, &acks);
            continue;
        }
        check_reply(reply, "consume");
    }
    double cpu = thread_cpu() - cpu0;
    uint64_t published = acks.published;
    atomic_store(&sink.expected, (long)published);
    pthread_join(drainer, NULL);
    double seconds = monotonic() - start, broker_cpu = proc_cpu(broker) - broker0;
    printf("{\"messages\":%ld,\"outcomes\":%llu,\"seconds\":%.3f,\"rate\":%.1f,\"outcome_rate\":%.1f,"
           "\"cpu_s\":%.3f,\"cpu_us_per_msg\":%.2f,\"cpu_us_per_outcome\":%.2f,"
           "\"broker_cpu_s\":%.3f,\"broker_cpu_us_per_msg\":%.2f,\"broker_cpu_us_per_outcome\":%.2f}\n",
           count, (unsigned long long)published, seconds, count / seconds, published / seconds, cpu,
           cpu * 1e6 / count, cpu * 1e6 / published, broker_cpu, broker_cpu * 1e6 / count,
           broker_cpu * 1e6 / published);
    free(acks.last_seq);
    amqp_queue_delete(conn, 1, amqp_cstring_bytes(sink_name), 0, 0);
    amqp_connection_close(conn, AMQP_REPLY_SUCCESS);
    amqp_destroy_connection(conn);
    return 0;
}

/* echo: the AMQP path alone. Consumes QUEUE (declared, bound to EXCHANGE with "#"),
 * publishes the event body once per target (so it carries the context) to RESULTS
 * with confirms, acks each delivery once its copies are confirmed. Until SIGTERM. */
static volatile sig_atomic_t stop_echo;
static void on_term(int signo) { (void)signo; stop_echo = 1; }

static int echo_loop(int argc, char **argv) {
    if (argc != 9) die("usage: loadgen echo URL EXCHANGE QUEUE QUEUE_TYPE RESULTS PREFETCH READY_FILE");
    const char *exchange = argv[3], *queue = argv[4], *results = argv[6];
    uint16_t prefetch = (uint16_t)atol(argv[7]);
    signal(SIGTERM, on_term);
    signal(SIGINT, on_term);
    amqp_connection_state_t conn = connect_url(argv[2]);
    amqp_exchange_declare(conn, 1, amqp_cstring_bytes(exchange), amqp_cstring_bytes("topic"), 0, 1, 0, 0,
                          amqp_empty_table);
    check_reply(amqp_get_rpc_reply(conn), "exchange.declare");
    amqp_exchange_declare(conn, 1, amqp_cstring_bytes(results), amqp_cstring_bytes("topic"), 0, 1, 0, 0,
                          amqp_empty_table);
    check_reply(amqp_get_rpc_reply(conn), "exchange.declare (results)");
    amqp_table_entry_t entry;
    amqp_queue_declare(conn, 1, amqp_cstring_bytes(queue), 0, 1, 0, 0, queue_type_table(argv[5], &entry));
    check_reply(amqp_get_rpc_reply(conn), "queue.declare");
    amqp_queue_bind(conn, 1, amqp_cstring_bytes(queue), amqp_cstring_bytes(exchange), amqp_cstring_bytes("#"),
                    amqp_empty_table);
    check_reply(amqp_get_rpc_reply(conn), "queue.bind");
    amqp_confirm_select(conn, 1);
    check_reply(amqp_get_rpc_reply(conn), "confirm.select");
    amqp_basic_qos(conn, 1, 0, prefetch, 0);
    check_reply(amqp_get_rpc_reply(conn), "basic.qos");
    amqp_basic_consume(conn, 1, amqp_cstring_bytes(queue), amqp_empty_bytes, 0, 0, 0, amqp_empty_table);
    check_reply(amqp_get_rpc_reply(conn), "basic.consume");
    FILE *ready = fopen(argv[8], "w");
    if (ready) fclose(ready);
    amqp_basic_properties_t props;
    props._flags = AMQP_BASIC_CONTENT_TYPE_FLAG | AMQP_BASIC_DELIVERY_MODE_FLAG;
    props.content_type = amqp_cstring_bytes("application/json");
    props.delivery_mode = 2;
    struct confirmed_acks acks;
    acks_init(&acks);
    while (!stop_echo) {
        amqp_envelope_t envelope;
        amqp_maybe_release_buffers(conn);
        struct timeval timeout = {0, 200000};
        amqp_rpc_reply_t reply = amqp_consume_message(conn, &envelope, &timeout, 0);
        if (reply.reply_type == AMQP_RESPONSE_NORMAL) {
            int copies = target_count(envelope.message.body.bytes, envelope.message.body.len);
            acks_publish(conn, &acks, results, "delivered.echo.bench", &props, envelope.message.body, copies);
            amqp_destroy_envelope(&envelope);
            continue;
        }
        if (reply.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION && reply.library_error == AMQP_STATUS_TIMEOUT) continue;
        if (reply.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION && reply.library_error == AMQP_STATUS_UNEXPECTED_STATE) {
            acks_on_frame(conn, &acks);
            continue;
        }
        if (stop_echo) break;
        check_reply(reply, "consume");
    }
    free(acks.last_seq);
    amqp_connection_close(conn, AMQP_REPLY_SUCCESS);
    amqp_destroy_connection(conn);
    return 0;
}

static int delete_all(int argc, char **argv) {
    if (argc < 3) die("usage: loadgen delete URL [queue:NAME|exchange:NAME]...");
    amqp_connection_state_t conn = connect_url(argv[2]);
    for (int i = 3; i < argc; i++) {
        if (strncmp(argv[i], "queue:", 6) == 0)
            amqp_queue_delete(conn, 1, amqp_cstring_bytes(argv[i] + 6), 0, 0);
        else if (strncmp(argv[i], "exchange:", 9) == 0)
            amqp_exchange_delete(conn, 1, amqp_cstring_bytes(argv[i] + 9), 0);
        else
            continue;
        amqp_rpc_reply_t reply = amqp_get_rpc_reply(conn);
        if (reply.reply_type != AMQP_RESPONSE_NORMAL) { /* channel closed (e.g. not found): reopen */
            amqp_channel_close_ok_t ok;
            (void)ok;
            amqp_send_method(conn, 1, AMQP_CHANNEL_CLOSE_OK_METHOD, &ok);
            amqp_channel_open(conn, 1);
            amqp_get_rpc_reply(conn);
        }
    }
    amqp_connection_close(conn, AMQP_REPLY_SUCCESS);
    amqp_destroy_connection(conn);
    return 0;
}

struct burner {
    double share, seconds;
};

static void *burn_thread(void *argument) {
    const struct burner *burner = argument;
    double start = monotonic(), cpu0 = thread_cpu();
    volatile unsigned long spins = 0;
    while (monotonic() - start < burner->seconds) {
        double burst = thread_cpu() + 50e-6;
        while (thread_cpu() < burst) spins++;
        /* the wall time by which this thread's CPU so far is its share */
        double wait = start + (thread_cpu() - cpu0) / burner->share - monotonic();
        if (wait > 0) {
            struct timespec ts = {(time_t)wait, (long)((wait - (time_t)wait) * 1e9)};
            nanosleep(&ts, NULL);
        }
    }
    return NULL;
}

static int burn(int argc, char **argv) {
    if (argc != 5) die("usage: loadgen burn THREADS CORES SECONDS");
    int threads = atoi(argv[2]);
    double cores = atof(argv[3]);
    struct burner burner = {cores / (threads > 0 ? threads : 1), atof(argv[4])};
    if (threads < 1 || threads > 64 || burner.share <= 0 || burner.share > 1 || burner.seconds <= 0)
        die("burn: THREADS 1-64, 0 < CORES / THREADS <= 1, SECONDS > 0");
    pthread_t ids[64];
    double cpu0 = self_cpu(), start = monotonic();
    for (int i = 0; i < threads; i++) pthread_create(&ids[i], NULL, burn_thread, &burner);
    for (int i = 0; i < threads; i++) pthread_join(ids[i], NULL);
    double cpu = self_cpu() - cpu0, wall = monotonic() - start;
    printf("{\"cpu_s\":%.3f,\"seconds\":%.3f,\"cores\":%.3f}\n", cpu, wall, cpu / wall);
    return 0;
}

struct ping {
    int to[2], back[2];
    long rounds;
    int cpu; /* -1: wherever the scheduler puts it */
};

static void pin(int cpu) {
    if (cpu < 0) return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

static void *pong(void *argument) {
    struct ping *ping = argument;
    pin(ping->cpu);
    char byte;
    for (long i = 0; i < ping->rounds; i++) {
        if (read(ping->to[0], &byte, 1) != 1 || write(ping->back[1], &byte, 1) != 1) break;
    }
    return NULL;
}

static double round_trip_us(long rounds, int cpu) {
    struct ping ping = {.rounds = rounds, .cpu = cpu};
    if (pipe(ping.to) != 0 || pipe(ping.back) != 0) die("wake: pipe");
    pthread_t thread;
    pthread_create(&thread, NULL, pong, &ping);
    pin(cpu);
    char byte = 1;
    double start = monotonic();
    for (long i = 0; i < rounds; i++) {
        if (write(ping.to[1], &byte, 1) != 1 || read(ping.back[0], &byte, 1) != 1) die("wake: pipe closed");
    }
    double elapsed = monotonic() - start;
    pthread_join(thread, NULL);
    close(ping.to[0]), close(ping.to[1]), close(ping.back[0]), close(ping.back[1]);
    return elapsed / rounds * 1e6;
}

static int wake(int argc, char **argv) {
    long rounds = argc == 3 ? atol(argv[2]) : 0;
    if (rounds < 1) die("usage: loadgen wake ROUNDS");
    double free_us = round_trip_us(rounds, -1);
    double pinned_us = round_trip_us(rounds, 0);
    printf("{\"round_trip_us\":%.2f,\"one_cpu_round_trip_us\":%.2f}\n", free_us, pinned_us);
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "run") == 0) return run_load(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "fill") == 0) return fill(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "floor") == 0) return floor_loop(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "delete") == 0) return delete_all(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "echo") == 0) return echo_loop(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "burn") == 0) return burn(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "wake") == 0) return wake(argc, argv);
    fprintf(stderr, "usage: loadgen run|fill|floor|echo|burn|wake|delete ...\n");
    return 2;
}
