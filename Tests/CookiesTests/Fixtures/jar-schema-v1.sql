-- The SQL that wrote jar-schema-v1.sqlite (`sqlite3 jar-schema-v1.sqlite < jar-schema-v1.sql`): a jar
-- file as schema version 1 kept it. Domain cookies carry a leading dot on `host`; expiry is in
-- seconds; SameSite is text; there is no partition key and no source port.
PRAGMA application_id = 1131104882; -- 0x436B4A72, "CkJr"
PRAGMA user_version = 1;
CREATE TABLE cookies (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    host TEXT NOT NULL,
    path TEXT NOT NULL,
    expiry INTEGER,
    creation INTEGER NOT NULL,
    last_access INTEGER NOT NULL,
    secure INTEGER NOT NULL,
    http_only INTEGER NOT NULL,
    same_site TEXT NOT NULL,
    source_secure INTEGER NOT NULL,
    UNIQUE (name, host, path)
);
-- 2026-01-01T00:00:00Z = 1767225600 s; creation 2025-01-01T00:00:00Z = 1735689600000000 µs.
INSERT INTO cookies VALUES (1, 'sid', 'abc', '.example.com', '/', 1767225600, 1735689600000000, 1735689700000000, 1, 1, 'Strict', 1);
INSERT INTO cookies VALUES (2, 'theme', 'dark', 'www.example.org', '/app', 1767225600, 1735689600000001, 1735689600000001, 0, 0, 'Default', 0);
INSERT INTO cookies VALUES (3, 'track', 'x', '.example.net', '/', 1767225600, 1735689600000002, 1735689600000002, 1, 0, 'None', 1);
-- Expired before the test clock (2025-01-01): dropped on load.
INSERT INTO cookies VALUES (4, 'old', 'y', 'example.com', '/', 1700000000, 1600000000000000, 1600000000000000, 0, 0, 'Lax', 0);
