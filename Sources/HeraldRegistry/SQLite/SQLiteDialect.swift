import HeraldCore

/// The registry's SQL for SQLite (3.37 or newer: `STRICT` tables, `RETURNING`, upserts).
///
/// Times are INTEGER microseconds since the epoch. `BEGIN IMMEDIATE` takes
/// the database's one write lock at the start of every write transaction,
/// which serializes writers (of every process using the file), so no
/// statement needs a lock of its own. Text compares byte for byte (BINARY).
enum SQLiteDialect: RegistryTables {
    /// The device columns and their placeholders, parameters 1-4.
    private static let device = "app = ?1 AND provider = ?2 AND address_kind = ?3 AND address = ?4"

    static let sql = RegistrySQL(
        backend: "SQLite",
        begin: SQLStatement(registrations, "BEGIN IMMEDIATE"),
        commit: SQLStatement(registrations, "COMMIT"),
        rollback: SQLStatement(registrations, "ROLLBACK"),
        lockMigrations: nil,
        createMigrationsTable: SQLStatement(
            versions,
            """
            CREATE TABLE IF NOT EXISTS herald_schema_migrations (
                version INTEGER PRIMARY KEY,
                applied_at TEXT NOT NULL
            ) STRICT
            """),
        appliedVersions: SQLStatement(versions, "SELECT version FROM herald_schema_migrations ORDER BY version"),
        recordVersion: SQLStatement(
            versions,
            """
            INSERT INTO herald_schema_migrations (version, applied_at) VALUES (?1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
            """),
        migrations: [
            Migration(
                version: 1,
                statements: [
                    SQLStatement(
                        registrations,
                        """
                        CREATE TABLE herald_registrations (
                            id INTEGER PRIMARY KEY AUTOINCREMENT,
                            app TEXT NOT NULL,
                            channel TEXT NOT NULL,
                            provider TEXT NOT NULL,
                            address_kind TEXT NOT NULL,
                            address TEXT NOT NULL,
                            environment TEXT,
                            topic TEXT,
                            created_at INTEGER NOT NULL,
                            updated_at INTEGER NOT NULL,
                            CONSTRAINT herald_registrations_member UNIQUE (app, channel, provider, address_kind, address)
                        ) STRICT
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
                            app TEXT NOT NULL,
                            channel TEXT NOT NULL,
                            devices INTEGER NOT NULL CHECK (devices >= 0),
                            PRIMARY KEY (app, channel)
                        ) STRICT, WITHOUT ROWID
                        """),
                ]),
            Migration(
                version: 2,
                statements: [
                    SQLStatement(
                        events,
                        """
                        CREATE TABLE herald_event_ids (
                            event_id TEXT PRIMARY KEY,
                            received_at INTEGER NOT NULL
                        ) STRICT, WITHOUT ROWID
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
                            app TEXT NOT NULL,
                            event_id TEXT NOT NULL,
                            received_at INTEGER NOT NULL,
                            PRIMARY KEY (app, event_id)
                        ) STRICT, WITHOUT ROWID
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
                            app TEXT PRIMARY KEY,
                            registrations INTEGER NOT NULL CHECK (registrations >= 0)
                        ) STRICT, WITHOUT ROWID
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
                            app TEXT NOT NULL,
                            provider TEXT NOT NULL,
                            address_kind TEXT NOT NULL,
                            address TEXT NOT NULL,
                            webpush_p256dh TEXT,
                            webpush_auth TEXT,
                            timezone TEXT,
                            locale TEXT,
                            attributes TEXT NOT NULL DEFAULT '{}',
                            last_seen INTEGER NOT NULL,
                            created_at INTEGER NOT NULL,
                            PRIMARY KEY (app, provider, address_kind, address)
                        ) STRICT, WITHOUT ROWID
                        """),
                    SQLStatement(devices, "CREATE INDEX herald_devices_last_seen ON herald_devices (last_seen)"),
                    SQLStatement(
                        devices,
                        """
                        INSERT INTO herald_devices (app, provider, address_kind, address, last_seen, created_at)
                        SELECT app, provider, address_kind, address, CAST(strftime('%s', 'now') AS INTEGER) * 1000000, min(created_at) FROM herald_registrations
                        GROUP BY app, provider, address_kind, address
                        """),
                ]),
            // Channel pages in device order, through herald_registrations_member
            // (app, channel, provider, address_kind, address): the id index has no reader left.
            Migration(
                version: 6,
                statements: [SQLStatement(registrations, "DROP INDEX herald_registrations_channel")]),
        ],
        lockDevice: nil,
        // INDEXED BY: the device's few rows through herald_registrations_device.
        // SQLite's planner would otherwise take herald_registrations_member
        // (app=?) for its channel order and read every registration of the
        // app, once per `register`, `replaceToken` and `channels(of:)`.
        deviceChannels: SQLStatement(
            registrations,
            """
            SELECT channel, environment, topic FROM herald_registrations INDEXED BY herald_registrations_device
            WHERE \(device) ORDER BY channel
            """),
        insertMembership: SQLStatement(
            registrations,
            """
            INSERT INTO herald_registrations
                (app, provider, address_kind, address, channel, environment, topic, created_at, updated_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8)
            ON CONFLICT (app, channel, provider, address_kind, address) DO UPDATE
                SET environment = excluded.environment, topic = excluded.topic, updated_at = excluded.updated_at
            """),
        updateOverrides: SQLStatement(
            registrations,
            """
            UPDATE herald_registrations SET environment = ?6, topic = ?7, updated_at = ?8 WHERE \(device) AND channel = ?5
            """),
        moveMembership: SQLStatement(
            registrations,
            """
            UPDATE herald_registrations SET address_kind = ?6, address = ?7, updated_at = ?8 WHERE \(device) AND channel = ?5
            """),
        deleteMembership: SQLStatement(
            registrations,
            """
            DELETE FROM herald_registrations WHERE \(device) AND channel = ?5 RETURNING id
            """),
        deleteDevice: SQLStatement(registrations, "DELETE FROM herald_registrations WHERE \(device) RETURNING channel"),
        upsertDevice: SQLStatement(
            devices,
            """
            INSERT INTO herald_devices
                (app, provider, address_kind, address, webpush_p256dh, webpush_auth, timezone, locale, attributes,
                 last_seen, created_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, nullif(?7, ''), nullif(?8, ''), coalesce(?9, '{}'), ?10, ?10)
            ON CONFLICT (app, provider, address_kind, address) DO UPDATE SET
                webpush_p256dh = coalesce(excluded.webpush_p256dh, webpush_p256dh),
                webpush_auth = coalesce(excluded.webpush_auth, webpush_auth),
                timezone = CASE WHEN ?7 IS NULL THEN timezone ELSE excluded.timezone END,
                locale = CASE WHEN ?8 IS NULL THEN locale ELSE excluded.locale END,
                attributes = coalesce(?9, attributes), last_seen = max(last_seen, excluded.last_seen)
            """),
        deviceRow: SQLStatement(
            devices,
            """
            SELECT webpush_p256dh, webpush_auth, timezone, locale, attributes, last_seen, created_at FROM herald_devices
            WHERE \(device)
            """),
        deleteUnusedDevice: SQLStatement(
            devices,
            """
            DELETE FROM herald_devices WHERE \(device) AND NOT EXISTS (
                SELECT 1 FROM herald_registrations INDEXED BY herald_registrations_device WHERE \(device))
            """),
        deleteDeviceRow: SQLStatement(devices, "DELETE FROM herald_devices WHERE \(device)"),
        moveDevice: SQLStatement(
            devices,
            """
            UPDATE herald_devices SET address_kind = ?5, address = ?6, last_seen = max(last_seen, ?7) WHERE \(device)
                AND NOT EXISTS (SELECT 1 FROM herald_devices
                    WHERE app = ?1 AND provider = ?2 AND address_kind = ?5 AND address = ?6)
            """),
        addToChannel: SQLStatement(
            channels,
            """
            INSERT INTO herald_channels (app, channel, devices) VALUES (?1, ?2, 1)
            ON CONFLICT (app, channel) DO UPDATE SET devices = devices + 1 WHERE devices < ?3
            RETURNING devices
            """),
        removeFromChannel: SQLStatement(
            channels,
            """
            UPDATE herald_channels SET devices = devices - 1 WHERE app = ?1 AND channel = ?2 RETURNING devices
            """),
        dropEmptyChannel: SQLStatement(
            channels, "DELETE FROM herald_channels WHERE app = ?1 AND channel = ?2 AND devices <= 0"),
        addToApp: SQLStatement(
            apps,
            """
            INSERT INTO herald_apps (app, registrations) SELECT ?1, ?2 WHERE ?2 <= ?3
            ON CONFLICT (app) DO UPDATE SET registrations = registrations + excluded.registrations
                WHERE registrations + excluded.registrations <= ?3
            RETURNING registrations
            """),
        removeFromApp: SQLStatement(
            apps, "UPDATE herald_apps SET registrations = max(registrations - ?2, 0) WHERE app = ?1"),
        channelDevices: SQLStatement(channels, "SELECT devices FROM herald_channels WHERE app = ?1 AND channel = ?2"),
        appRegistrations: SQLStatement(apps, "SELECT registrations FROM herald_apps WHERE app = ?1"),
        page: { providers in
            let filter = RegistrySQL.providerFilter(providers, column: "r.provider") { "?\($0)" }
            return SQLStatement(
                registrations,
                """
                SELECT r.provider, r.address_kind, r.address, r.environment, r.topic, r.created_at, r.updated_at,
                    d.webpush_p256dh, d.webpush_auth, d.timezone, d.locale, d.attributes
                FROM herald_registrations AS r LEFT JOIN herald_devices AS d
                    ON d.app = r.app AND d.provider = r.provider AND d.address_kind = r.address_kind AND d.address = r.address
                WHERE r.app = ?1 AND r.channel = ?2 AND (r.provider, r.address_kind, r.address) > (?3, ?4, ?5)\(filter)
                ORDER BY r.provider, r.address_kind, r.address LIMIT ?6
                """)
        },
        // `WHERE true`: an upsert's SELECT needs a WHERE, or SQLite reads ON as a join's.
        claimEvents: SQLStatement(
            events,
            """
            INSERT INTO herald_event_ids (app, event_id, received_at)
            SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), ?2 FROM json_each(?1) WHERE true
            ON CONFLICT (app, event_id) DO UPDATE SET received_at = excluded.received_at WHERE received_at <= ?3
            RETURNING app, event_id
            """),
        eventsReceivedAt: SQLStatement(
            events,
            """
            SELECT app, event_id, received_at FROM herald_event_ids
            WHERE (app, event_id) IN (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?1))
            """),
        forgetEvents: SQLStatement(events, "DELETE FROM herald_event_ids WHERE received_at < ?1"),
        staleDevices: SQLStatement(
            devices,
            """
            SELECT app, provider, address_kind, address, last_seen, created_at, NULL, NULL, timezone, locale, attributes
            FROM herald_devices WHERE last_seen < ?1 AND (?3 IS NULL OR app = ?3)
            ORDER BY last_seen, app, provider, address_kind, address LIMIT ?2
            """),
        retireDevice: SQLStatement(
            devices, "DELETE FROM herald_devices WHERE \(device) AND last_seen < ?5 RETURNING last_seen"),
        tryLockDevice: nil,
        lockDevices: nil,
        // CROSS JOIN: the JSON array outside, each device's rows through herald_registrations_device.
        devicesMemberships: SQLStatement(
            registrations,
            """
            SELECT r.app, r.provider, r.address_kind, r.address, r.channel, r.environment, r.topic
            FROM json_each(?1) AS d CROSS JOIN herald_registrations AS r INDEXED BY herald_registrations_device
            WHERE r.app = json_extract(d.value, '$[0]') AND r.provider = json_extract(d.value, '$[1]')
                AND r.address_kind = json_extract(d.value, '$[2]') AND r.address = json_extract(d.value, '$[3]')
            """),
        insertMemberships: SQLStatement(
            registrations,
            """
            INSERT INTO herald_registrations
                (app, provider, address_kind, address, channel, environment, topic, created_at, updated_at)
            SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'),
                json_extract(value, '$[3]'), json_extract(value, '$[4]'), json_extract(value, '$[5]'),
                json_extract(value, '$[6]'), ?2, ?2
            FROM json_each(?1) ORDER BY key
            """),
        upsertDevices: { given in
            SQLStatement(
                devices,
                """
                INSERT INTO herald_devices
                    (app, provider, address_kind, address, webpush_p256dh, webpush_auth, timezone, locale, attributes,
                     last_seen, created_at)
                SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'),
                    json_extract(value, '$[3]'), json_extract(value, '$[4]'), json_extract(value, '$[5]'),
                    nullif(json_extract(value, '$[6]'), ''), nullif(json_extract(value, '$[7]'), ''),
                    coalesce(json_extract(value, '$[8]'), '{}'), ?2, ?2
                FROM json_each(?1) WHERE true ORDER BY key
                ON CONFLICT (app, provider, address_kind, address) DO UPDATE SET
                    webpush_p256dh = coalesce(excluded.webpush_p256dh, webpush_p256dh),
                    webpush_auth = coalesce(excluded.webpush_auth, webpush_auth),
                    timezone = \(given.timezone ? "excluded.timezone" : "timezone"),
                    locale = \(given.locale ? "excluded.locale" : "locale"),
                    attributes = \(given.attributes ? "excluded.attributes" : "attributes"),
                    last_seen = max(last_seen, excluded.last_seen)
                """)
        },
        addToChannels: SQLStatement(
            channels,
            """
            INSERT INTO herald_channels (app, channel, devices)
            SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]')
            FROM json_each(?1) WHERE json_extract(value, '$[2]') <= ?2 ORDER BY key
            ON CONFLICT (app, channel) DO UPDATE SET devices = devices + excluded.devices
                WHERE devices + excluded.devices <= ?2
            RETURNING app, channel
            """),
        devicesProfiles: SQLStatement(
            devices,
            """
            SELECT d.app, d.provider, d.address_kind, d.address, d.webpush_p256dh, d.webpush_auth, d.timezone, d.locale,
                d.attributes
            FROM json_each(?1) AS k CROSS JOIN herald_devices AS d
            WHERE d.app = json_extract(k.value, '$[0]') AND d.provider = json_extract(k.value, '$[1]')
                AND d.address_kind = json_extract(k.value, '$[2]') AND d.address = json_extract(k.value, '$[3]')
            """),
        nextDevices: SQLStatement(
            registrations,
            """
            SELECT DISTINCT app, provider, address_kind, address FROM herald_registrations INDEXED BY herald_registrations_device
            WHERE (app, provider, address_kind, address) > (?1, ?2, ?3, ?4)
            ORDER BY app, provider, address_kind, address LIMIT ?5
            """),
        nextDevicesOfApp: SQLStatement(
            registrations,
            """
            SELECT DISTINCT app, provider, address_kind, address FROM herald_registrations INDEXED BY herald_registrations_device
            WHERE app = ?1 AND (provider, address_kind, address) > (?2, ?3, ?4)
            ORDER BY app, provider, address_kind, address LIMIT ?5
            """))
}

extension RegistryDialect {
    /// The registry in one SQLite file: for a single Herald instance and for
    /// development. One connection on its own thread does all the work (SQLite
    /// admits one writer at a time anyway); WAL mode and a busy timeout let
    /// other processes (the CLI, a backup) read and write the file meanwhile.
    ///
    /// `path` is the database file (created on first use, with its `-wal` and
    /// `-shm` files beside it); nothing is opened until the store's first call.
    public static func sqlite(path: String) throws(RegistryError) -> RegistryDialect {
        guard !path.isEmpty else { throw unusable("the SQLite path is empty") }
        return RegistryDialect(sql: SQLiteDialect.sql, location: path, poolSize: 1) { operation throws(RegistryError) in
            try SQLiteConnection.open(path: path, operation: operation)
        }
    }
}
