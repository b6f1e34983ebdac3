import HeraldCore

/// The registry's SQL for PostgreSQL (11 or newer; tested on 15).
///
/// Times are `timestamptz` columns (readable in psql), exchanged as integer
/// microseconds since the epoch through `time(_:)` and `micros(_:)`.
/// Transactions are READ COMMITTED; what makes concurrent instances safe is
/// the advisory locks (`lockMigrations`, `lockDevice`) and the row lock an
/// upsert takes on a channel's count (see `RegistryOperations`). Channel
/// order is byte order (`COLLATE "C"`), as on SQLite.
enum PostgresDialect: RegistryTables {
    /// The key of the migrations' advisory lock: two 32-bit keys ("HRLD", 1),
    /// a key space apart from the devices' single 64-bit keys.
    static let migrationLock = "1213353028, 1"

    /// The device columns and their placeholders, parameters 1-4.
    private static let device = "app = $1 AND provider = $2 AND address_kind = $3 AND address = $4"

    /// A `timestamptz` from the microseconds in `parameter`.
    private static func time(_ parameter: String) -> String {
        "(timestamptz 'epoch' + \(parameter)::bigint * interval '1 microsecond')"
    }

    /// The microseconds since the epoch of a `timestamptz` column (exact: `extract` is numeric).
    private static func micros(_ column: String) -> String {
        "(extract(epoch FROM \(column)) * 1000000)::bigint"
    }

    static let sql = RegistrySQL(
        backend: "PostgreSQL",
        begin: SQLStatement(registrations, "BEGIN"),
        commit: SQLStatement(registrations, "COMMIT"),
        rollback: SQLStatement(registrations, "ROLLBACK"),
        lockMigrations: SQLStatement(versions, "SELECT pg_advisory_xact_lock(\(migrationLock))"),
        createMigrationsTable: SQLStatement(
            versions,
            """
            CREATE TABLE IF NOT EXISTS herald_schema_migrations (
                version integer PRIMARY KEY,
                applied_at timestamptz NOT NULL
            )
            """),
        appliedVersions: SQLStatement(versions, "SELECT version FROM herald_schema_migrations ORDER BY version"),
        recordVersion: SQLStatement(
            versions, "INSERT INTO herald_schema_migrations (version, applied_at) VALUES ($1, now())"),
        migrations: [
            Migration(
                version: 1,
                statements: [
                    SQLStatement(
                        registrations,
                        """
                        CREATE TABLE herald_registrations (
                            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                            app text NOT NULL,
                            channel text NOT NULL,
                            provider text NOT NULL,
                            address_kind text NOT NULL,
                            address text NOT NULL,
                            environment text,
                            topic text,
                            created_at timestamptz NOT NULL,
                            updated_at timestamptz NOT NULL,
                            CONSTRAINT herald_registrations_member UNIQUE (app, channel, provider, address_kind, address)
                        )
                        """),
                    SQLStatement(
                        registrations,
                        """
                        CREATE INDEX herald_registrations_device ON herald_registrations (app, provider, address_kind, address)
                        """),
                    SQLStatement(
                        registrations,
                        "CREATE INDEX herald_registrations_channel ON herald_registrations (app, channel, id)"),
                    SQLStatement(
                        channels,
                        """
                        CREATE TABLE herald_channels (
                            app text NOT NULL,
                            channel text NOT NULL,
                            devices bigint NOT NULL CHECK (devices >= 0),
                            PRIMARY KEY (app, channel)
                        )
                        """),
                ]),
            Migration(
                version: 2,
                statements: [
                    SQLStatement(
                        events,
                        """
                        CREATE TABLE herald_event_ids (
                            event_id text PRIMARY KEY,
                            received_at timestamptz NOT NULL
                        )
                        """),
                    SQLStatement(events, "CREATE INDEX herald_event_ids_received ON herald_event_ids (received_at)"),
                ]),
            // The duplicate window is kept per app: the ids of the window
            // before are dropped with the table (docs/traffic.md).
            Migration(
                version: 3,
                statements: [
                    SQLStatement(events, "DROP TABLE herald_event_ids"),
                    SQLStatement(
                        events,
                        """
                        CREATE TABLE herald_event_ids (
                            app text NOT NULL,
                            event_id text NOT NULL,
                            received_at timestamptz NOT NULL,
                            PRIMARY KEY (app, event_id)
                        )
                        """),
                    SQLStatement(events, "CREATE INDEX herald_event_ids_received ON herald_event_ids (received_at)"),
                ]),
            // Each app's registrations, counted for registry.max_registrations_per_app.
            Migration(
                version: 4,
                statements: [
                    SQLStatement(
                        apps,
                        """
                        CREATE TABLE herald_apps (
                            app text PRIMARY KEY,
                            registrations bigint NOT NULL CHECK (registrations >= 0)
                        )
                        """),
                    SQLStatement(
                        apps,
                        """
                        INSERT INTO herald_apps (app, registrations) SELECT app, sum(devices) FROM herald_channels GROUP BY app
                        """),
                ]),
            // One row per device, the same on every channel of its app (docs/registry.md,
            // "Schema"); the devices already registered get theirs from their memberships.
            Migration(
                version: 5,
                statements: [
                    SQLStatement(
                        devices,
                        """
                        CREATE TABLE herald_devices (
                            app text NOT NULL,
                            provider text NOT NULL,
                            address_kind text NOT NULL,
                            address text NOT NULL,
                            webpush_p256dh text,
                            webpush_auth text,
                            timezone text,
                            locale text,
                            attributes text NOT NULL DEFAULT '{}',
                            last_seen timestamptz NOT NULL,
                            created_at timestamptz NOT NULL,
                            PRIMARY KEY (app, provider, address_kind, address)
                        )
                        """),
                    SQLStatement(devices, "CREATE INDEX herald_devices_last_seen ON herald_devices (last_seen)"),
                    SQLStatement(
                        devices,
                        """
                        INSERT INTO herald_devices (app, provider, address_kind, address, last_seen, created_at)
                        SELECT app, provider, address_kind, address, now(), min(created_at) FROM herald_registrations
                        GROUP BY app, provider, address_kind, address
                        """),
                ]),
            // Channel pages in device order, byte for byte as on SQLite: the
            // device's columns compare in "C" (their indexes are rebuilt, the
            // tables are not rewritten), herald_registrations_member serves the
            // pages, and the id index has no reader left. herald_devices'
            // columns too, so the two tables' device columns compare alike.
            Migration(
                version: 6,
                statements: [
                    SQLStatement(
                        registrations,
                        """
                        ALTER TABLE herald_registrations ALTER COLUMN provider TYPE text COLLATE "C",
                            ALTER COLUMN address_kind TYPE text COLLATE "C", ALTER COLUMN address TYPE text COLLATE "C"
                        """),
                    SQLStatement(registrations, "DROP INDEX herald_registrations_channel"),
                    SQLStatement(
                        devices,
                        """
                        ALTER TABLE herald_devices ALTER COLUMN provider TYPE text COLLATE "C",
                            ALTER COLUMN address_kind TYPE text COLLATE "C", ALTER COLUMN address TYPE text COLLATE "C"
                        """),
                ]),
        ],
        lockDevice: SQLStatement(registrations, "SELECT pg_advisory_xact_lock($1::bigint)"),
        deviceChannels: SQLStatement(
            registrations,
            """
            SELECT channel, environment, topic FROM herald_registrations WHERE \(device) ORDER BY channel COLLATE "C"
            """),
        insertMembership: SQLStatement(
            registrations,
            """
            INSERT INTO herald_registrations
                (app, provider, address_kind, address, channel, environment, topic, created_at, updated_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, \(time("$8")), \(time("$8")))
            ON CONFLICT (app, channel, provider, address_kind, address) DO UPDATE
                SET environment = EXCLUDED.environment, topic = EXCLUDED.topic, updated_at = EXCLUDED.updated_at
            """),
        updateOverrides: SQLStatement(
            registrations,
            """
            UPDATE herald_registrations SET environment = $6, topic = $7, updated_at = \(time("$8"))
            WHERE \(device) AND channel = $5
            """),
        moveMembership: SQLStatement(
            registrations,
            """
            UPDATE herald_registrations SET address_kind = $6, address = $7, updated_at = \(time("$8"))
            WHERE \(device) AND channel = $5
            """),
        deleteMembership: SQLStatement(
            registrations, "DELETE FROM herald_registrations WHERE \(device) AND channel = $5 RETURNING id"),
        deleteDevice: SQLStatement(registrations, "DELETE FROM herald_registrations WHERE \(device) RETURNING channel"),
        upsertDevice: SQLStatement(
            devices,
            """
            INSERT INTO herald_devices AS d
                (app, provider, address_kind, address, webpush_p256dh, webpush_auth, timezone, locale, attributes,
                 last_seen, created_at)
            VALUES ($1, $2, $3, $4, $5, $6, nullif($7, ''), nullif($8, ''), coalesce($9, '{}'), \(time("$10")), \(time("$10")))
            ON CONFLICT (app, provider, address_kind, address) DO UPDATE SET
                webpush_p256dh = coalesce(EXCLUDED.webpush_p256dh, d.webpush_p256dh),
                webpush_auth = coalesce(EXCLUDED.webpush_auth, d.webpush_auth),
                timezone = CASE WHEN $7::text IS NULL THEN d.timezone ELSE EXCLUDED.timezone END,
                locale = CASE WHEN $8::text IS NULL THEN d.locale ELSE EXCLUDED.locale END,
                attributes = coalesce($9, d.attributes), last_seen = greatest(d.last_seen, EXCLUDED.last_seen)
            """),
        deviceRow: SQLStatement(
            devices,
            """
            SELECT webpush_p256dh, webpush_auth, timezone, locale, attributes, \(micros("last_seen")), \(micros("created_at"))
            FROM herald_devices WHERE \(device)
            """),
        deleteUnusedDevice: SQLStatement(
            devices,
            """
            DELETE FROM herald_devices WHERE \(device) AND NOT EXISTS (SELECT 1 FROM herald_registrations WHERE \(device))
            """),
        deleteDeviceRow: SQLStatement(devices, "DELETE FROM herald_devices WHERE \(device)"),
        moveDevice: SQLStatement(
            devices,
            """
            UPDATE herald_devices SET address_kind = $5, address = $6, last_seen = greatest(last_seen, \(time("$7")))
            WHERE \(device) AND NOT EXISTS (SELECT 1 FROM herald_devices
                WHERE app = $1 AND provider = $2 AND address_kind = $5 AND address = $6)
            """),
        addToChannel: SQLStatement(
            channels,
            """
            INSERT INTO herald_channels AS c (app, channel, devices) VALUES ($1, $2, 1)
            ON CONFLICT (app, channel) DO UPDATE SET devices = c.devices + 1 WHERE c.devices < $3
            RETURNING devices
            """),
        removeFromChannel: SQLStatement(
            channels,
            """
            UPDATE herald_channels SET devices = devices - 1 WHERE app = $1 AND channel = $2 RETURNING devices
            """),
        dropEmptyChannel: SQLStatement(
            channels, "DELETE FROM herald_channels WHERE app = $1 AND channel = $2 AND devices <= 0"),
        addToApp: SQLStatement(
            apps,
            """
            INSERT INTO herald_apps AS a (app, registrations) SELECT $1, $2::bigint WHERE $2::bigint <= $3::bigint
            ON CONFLICT (app) DO UPDATE SET registrations = a.registrations + EXCLUDED.registrations
                WHERE a.registrations + EXCLUDED.registrations <= $3::bigint
            RETURNING registrations
            """),
        removeFromApp: SQLStatement(
            apps,
            """
            UPDATE herald_apps SET registrations = greatest(registrations - $2::bigint, 0) WHERE app = $1
            """),
        channelDevices: SQLStatement(channels, "SELECT devices FROM herald_channels WHERE app = $1 AND channel = $2"),
        appRegistrations: SQLStatement(apps, "SELECT registrations FROM herald_apps WHERE app = $1"),
        page: { providers in
            let filter = RegistrySQL.providerFilter(providers, column: "r.provider") { "$\($0)" }
            // The channel in the row too: then the planner walks herald_registrations_member;
            // with the device's columns alone it may walk the device index, filtering on channel.
            return SQLStatement(
                registrations,
                """
                SELECT r.provider, r.address_kind, r.address, r.environment, r.topic, \(micros("r.created_at")),
                    \(micros("r.updated_at")), d.webpush_p256dh, d.webpush_auth, d.timezone, d.locale, d.attributes
                FROM herald_registrations AS r LEFT JOIN herald_devices AS d
                    ON d.app = r.app AND d.provider = r.provider AND d.address_kind = r.address_kind AND d.address = r.address
                WHERE r.app = $1 AND r.channel = $2
                    AND (r.channel, r.provider, r.address_kind, r.address) > ($2, $3, $4, $5)\(filter)
                ORDER BY r.provider, r.address_kind, r.address LIMIT $6
                """)
        },
        claimEvents: SQLStatement(
            events,
            """
            INSERT INTO herald_event_ids AS e (app, event_id, received_at)
            SELECT key ->> 0, key ->> 1, \(time("$2")) FROM json_array_elements($1::json) AS keys (key)
            ON CONFLICT (app, event_id) DO UPDATE SET received_at = EXCLUDED.received_at WHERE e.received_at <= \(time("$3"))
            RETURNING app, event_id
            """),
        eventsReceivedAt: SQLStatement(
            events,
            """
            SELECT app, event_id, \(micros("received_at")) FROM herald_event_ids
            WHERE (app, event_id) IN (SELECT key ->> 0, key ->> 1 FROM json_array_elements($1::json) AS keys (key))
            """),
        forgetEvents: SQLStatement(events, "DELETE FROM herald_event_ids WHERE received_at < \(time("$1"))"),
        staleDevices: SQLStatement(
            devices,
            """
            SELECT app, provider, address_kind, address, \(micros("last_seen")), \(micros("created_at")),
                NULL::text, NULL::text, timezone, locale, attributes
            FROM herald_devices WHERE last_seen < \(time("$1")) AND ($3::text IS NULL OR app = $3)
            ORDER BY last_seen, app, provider, address_kind, address LIMIT $2
            """),
        retireDevice: SQLStatement(
            devices,
            """
            DELETE FROM herald_devices WHERE \(device) AND last_seen < \(time("$5")) RETURNING \(micros("last_seen"))
            """),
        tryLockDevice: SQLStatement(devices, "SELECT pg_try_advisory_xact_lock($1::bigint)"),
        // One row, the locks taken in array order (a function scan yields it in order).
        lockDevices: SQLStatement(
            registrations,
            "SELECT count(pg_advisory_xact_lock(key::bigint)) FROM json_array_elements_text($1::json) AS keys (key)"),
        devicesMemberships: SQLStatement(
            registrations,
            """
            SELECT r.app, r.provider, r.address_kind, r.address, r.channel, r.environment, r.topic
            FROM json_array_elements($1::json) AS d (device)
            JOIN herald_registrations AS r ON r.app = d.device ->> 0 AND r.provider = d.device ->> 1
                AND r.address_kind = d.device ->> 2 AND r.address = d.device ->> 3
            """),
        insertMemberships: SQLStatement(
            registrations,
            """
            INSERT INTO herald_registrations
                (app, provider, address_kind, address, channel, environment, topic, created_at, updated_at)
            SELECT m ->> 0, m ->> 1, m ->> 2, m ->> 3, m ->> 4, m ->> 5, m ->> 6, \(time("$2")), \(time("$2"))
            FROM json_array_elements($1::json) WITH ORDINALITY AS rows (m, n) ORDER BY n
            """),
        upsertDevices: { given in
            SQLStatement(
                devices,
                """
                INSERT INTO herald_devices AS d
                    (app, provider, address_kind, address, webpush_p256dh, webpush_auth, timezone, locale, attributes,
                     last_seen, created_at)
                SELECT e ->> 0, e ->> 1, e ->> 2, e ->> 3, e ->> 4, e ->> 5, nullif(e ->> 6, ''), nullif(e ->> 7, ''),
                    coalesce(e ->> 8, '{}'), \(time("$2")), \(time("$2"))
                FROM json_array_elements($1::json) WITH ORDINALITY AS rows (e, n) ORDER BY n
                ON CONFLICT (app, provider, address_kind, address) DO UPDATE SET
                    webpush_p256dh = coalesce(EXCLUDED.webpush_p256dh, d.webpush_p256dh),
                    webpush_auth = coalesce(EXCLUDED.webpush_auth, d.webpush_auth),
                    timezone = \(given.timezone ? "EXCLUDED.timezone" : "d.timezone"),
                    locale = \(given.locale ? "EXCLUDED.locale" : "d.locale"),
                    attributes = \(given.attributes ? "EXCLUDED.attributes" : "d.attributes"),
                    last_seen = greatest(d.last_seen, EXCLUDED.last_seen)
                """)
        },
        addToChannels: SQLStatement(
            channels,
            """
            INSERT INTO herald_channels AS c (app, channel, devices)
            SELECT e ->> 0, e ->> 1, (e ->> 2)::bigint
            FROM json_array_elements($1::json) WITH ORDINALITY AS counts (e, n)
            WHERE (e ->> 2)::bigint <= $2::bigint ORDER BY n
            ON CONFLICT (app, channel) DO UPDATE SET devices = c.devices + EXCLUDED.devices
                WHERE c.devices + EXCLUDED.devices <= $2::bigint
            RETURNING app, channel
            """),
        devicesProfiles: SQLStatement(
            devices,
            """
            SELECT d.app, d.provider, d.address_kind, d.address, d.webpush_p256dh, d.webpush_auth, d.timezone, d.locale,
                d.attributes
            FROM json_array_elements($1::json) AS k (device)
            JOIN herald_devices AS d ON d.app = k.device ->> 0 AND d.provider = k.device ->> 1
                AND d.address_kind = k.device ->> 2 AND d.address = k.device ->> 3
            """),
        nextDevices: SQLStatement(
            registrations,
            """
            SELECT DISTINCT app, provider, address_kind, address FROM herald_registrations
            WHERE (app, provider, address_kind, address) > ($1, $2, $3, $4)
            ORDER BY app, provider, address_kind, address LIMIT $5
            """),
        nextDevicesOfApp: SQLStatement(
            registrations,
            """
            SELECT DISTINCT app, provider, address_kind, address FROM herald_registrations
            WHERE app = $1 AND (provider, address_kind, address) > ($2, $3, $4)
            ORDER BY app, provider, address_kind, address LIMIT $5
            """))
}

extension RegistryDialect {
    /// The registry in a PostgreSQL database: for several Herald instances
    /// sharing one registry. A pool of connections, each owned by a thread of
    /// its own; a lost connection is opened again on next use, and a call that
    /// cannot reach the server fails `.unavailable` (retryable).
    ///
    /// `url` is libpq's URL form (`postgres://user:password@host:port/database`,
    /// query parameters included); `poolSize` connections are opened as calls
    /// need them. The location messages name is the URL without password or query.
    public static func postgres(url: String, poolSize: Int = 4) throws(RegistryError) -> RegistryDialect {
        let server = PostgresConnection.label(for: url)
        guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") else {
            throw unusable(
                "expected a postgres:// or postgresql:// URL, found \"\(String(url.prefix { $0 != ":" }).truncatedForMessage)…\""
            )
        }
        // libpq's own message for a URL it cannot read quotes the token, password included.
        do { _ = try PostgresURL(parsing: url) } catch { throw unusable("\(server) cannot be used: \(error)") }
        guard (1...64).contains(poolSize) else { throw unusable("pool size \(poolSize) is out of range (1-64)") }
        let open: @Sendable (String) throws(RegistryError) -> any SQLConnection = { operation throws(RegistryError) in
            try PostgresConnection.open(url: url, operation: operation)
        }
        return RegistryDialect(sql: PostgresDialect.sql, location: server, poolSize: poolSize, open: open)
    }
}
