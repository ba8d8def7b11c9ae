import Cookies
import CookiesPostgres
import Foundation
import PostgresNIO
import Testing

extension PostgresServerTests {
    /// One instance on a real PostgreSQL server: the semantics of the SQLite jar (CookieJarFileTests).
    /// Serialised: the outage test restarts the server.
    @Suite struct PostgresCookieJarsTests {
        @Test func receivedCookiesReachTheDatabaseAndAnotherInstanceLoadsThem() throws {
            let db = TestDatabase("reload")
            defer { db.drop() }
            let first = try db.instance()
            let jar = try first.jar("user-1")
            jar.receive("sid=abc; Max-Age=3600; Secure; HttpOnly; SameSite=Lax", from: url("example.com"))
            jar.receive("pref=dark; Domain=example.com; Path=/app; Max-Age=60", from: url("www.example.com"))
            #expect(try first.flush("user-1") == 2)
            let second = try db.instance()
            let loaded = try second.jar("user-1").allCookies()
            #expect(Set(loaded) == Set(jar.allCookies()))
            #expect(try second.jar("user-2").count == 0, "another jar id is another jar")
        }

        // rfc6265bis-22 §5.7 step 6: a session cookie lasts until the session ends; kept only when asked, as
        // CookieJarFileOptions.persistsSessionCookies.
        @Test(arguments: [false, true])
        func sessionCookiesAreKeptOnlyWhenAsked(persists: Bool) throws {
            let db = TestDatabase("session")
            defer { db.drop() }
            let jars = try db.instance(persistsSessionCookies: persists)
            let jar = try jars.jar("u")
            jar.receive("session=1", from: url("example.com"))
            jar.receive("persistent=1; Max-Age=60", from: url("example.com"))
            try jars.flush("u")
            #expect(Set(try db.rows(of: "u").keys) == (persists ? ["session", "persistent"] : ["persistent"]))
        }

        /// By default a shared jar stores its session cookies: another instance sends them, and the instance
        /// that received one still has it after the jar was reloaded (another instance wrote it).
        @Test func sessionCookiesAreSharedByDefault() throws {
            let db = TestDatabase("sessiondefault")
            defer { db.drop() }
            let (a, b) = (try db.instance(persistsSessionCookies: nil), try db.instance(persistsSessionCookies: nil))
            try a.jar("u").receive("JSESSIONID=abc", from: url("example.com"))
            try a.flush("u")
            #expect(try b.jar("u").cookieHeader(for: url("example.com")) == "JSESSIONID=abc")
            try b.jar("u").receive("pref=1; Max-Age=60", from: url("example.com"))
            try b.flush("u")
            #expect(try a.jar("u").cookieHeader(for: url("example.com")) == "JSESSIONID=abc; pref=1")
        }

        // §5.7: expired cookies are evicted; like the SQLite jar, dropped on load and purged from the store.
        @Test func expiredCookiesAreDroppedOnLoadAndPurged() throws {
            let db = TestDatabase("expired")
            defer { db.drop() }
            let jars = try db.instance()
            try jars.jar("u").receive("short=1; Max-Age=10", from: url("example.com"))
            try jars.jar("u").receive("long=1; Max-Age=1000", from: url("example.com"))
            try jars.flush("u")
            db.clock.advance(seconds: 20)
            let later = try db.instance()
            #expect(try later.jar("u").allCookies().map(\.name) == ["long"])
            #expect(Set(try db.rows(of: "u").keys) == ["short", "long"], "purged at the first write")
            try later.flush("u")
            #expect(Set(try db.rows(of: "u").keys) == ["long"])
        }

        // Chromium kLastAccessThreshold (60 s), as CookieJarPersistence.lastAccessWriteInterval.
        @Test func lastAccessIsWrittenAtMostOncePerMinute() throws {
            let db = TestDatabase("access")
            defer { db.drop() }
            let jars = try db.instance()
            try jars.jar("u").receive("a=1; Max-Age=100000", from: url("example.com"))
            try jars.flush("u")
            let stored = try db.column("last_access", of: "a", in: "u")
            db.clock.advance(seconds: 30)
            _ = try jars.jar("u").cookieHeader(for: url("example.com"))
            try jars.flush("u")
            #expect(try db.column("last_access", of: "a", in: "u") == stored, "30 s later: not written")
            db.clock.advance(seconds: 31)
            try jars.flush("u")
            #expect(try db.column("last_access", of: "a", in: "u") == stored! + 30_000_000)
        }

        /// Last-access times alone (the minute's sweep of an instance's lookups) change no cookie any
        /// instance sends: written, they leave the jar's version where it was (this project's contract), so
        /// that another instance keeps its copy rather than reload the whole jar at its next request.
        @Test func aLastAccessSweepMakesNoOtherInstanceReload() throws {
            let db = TestDatabase("sweep")
            defer { db.drop() }
            let (a, b) = (try db.instance(), try db.instance())
            try a.jar("u").receive("a=1; Max-Age=100000", from: url("example.com"))
            try a.flush("u")
            let copy = try b.jar("u")
            let stored = try db.column("last_access", of: "a", in: "u")
            db.clock.advance(seconds: 61)
            _ = try a.jar("u").cookieHeader(for: url("example.com"))
            db.clock.advance(seconds: 61)
            _ = try a.jar("u")
            #expect(try db.column("last_access", of: "a", in: "u") == stored! + 61_000_000, "the sweep was written")
            #expect(try b.jar("u") === copy, "no reload")
        }

        /// A sweep of last-access times alone still takes the jar's row, as every write of the jar does (this
        /// project's contract): the jar's writes stay one at a time, and lock its cookies' rows in one order,
        /// so that two instances' writes never deadlock on them. While another instance holds the row, the
        /// sweep waits for it no longer than the timeout, its times pending.
        @Test func aLastAccessSweepWaitsForTheJarsRowAsAnyWrite() throws {
            let db = TestDatabase("sweeplock")
            defer { db.drop() }
            let jars = try db.instance(timeout: .seconds(1))
            try jars.jar("u").receive("a=1; Max-Age=100000", from: url("example.com"))
            try jars.flush("u")
            db.clock.advance(seconds: 61)
            _ = try jars.jar("u").cookieHeader(for: url("example.com"))
            db.clock.advance(seconds: 61)
            let frozen = try db.connectionLockingJar("u")
            defer { try? frozen.close().wait() }
            #expect(throws: PostgresCookieStoreError.self) { try jars.flush("u") }
            _ = try frozen.query("ROLLBACK", logger: Logger(label: "tests")).wait()
            #expect(try jars.flush("u") == 1)
        }

        /// A name and value may take 4,096 bytes together (rfc6265bis-22 §5.6 step 5), more than a btree
        /// index entry holds (2,704 bytes, SQLSTATE 54000 past it): the table is keyed by the identity's digest, so such a cookie is
        /// written, replaced and deleted like any other, and the jar's other cookies with it.
        @Test func aCookieWithALongNameIsStored() throws {
            let db = TestDatabase("long")
            defer { db.drop() }
            let jars = try db.instance()
            // Random letters: PostgreSQL compresses an index entry, and a name of one letter repeated would fit.
            let name = String((0..<3_000).map { _ in "abcdefghijklmnopqrstuvwxyz0123456789".randomElement()! })
            let jar = try jars.jar("u")
            jar.receive("\(name)=1; Max-Age=60", from: url("example.com"))
            jar.receive("short=1; Max-Age=60", from: url("example.com"))
            #expect(try jars.flush("u") == 2)
            jar.receive("\(name)=2; Max-Age=60", from: url("example.com"))
            try jars.flush("u")
            #expect(try db.rows(of: "u") == [name: "2", "short": "1"])
            #expect(Set(try db.instance().jar("u").allCookies().map(\.name)) == [name, "short"])
            jar.receive("\(name)=; Max-Age=0", from: url("example.com"))
            try jars.flush("u")
            #expect(try db.rows(of: "u") == ["short": "1"])
        }

        /// Tables of version 1 (keyed by the identity columns) are migrated to version 2 (keyed by the
        /// identity's digest) when an instance starts: their cookies load, and a cookie received again
        /// replaces its row instead of adding a second one.
        @Test func versionOneTablesAreMigrated() throws {
            let db = TestDatabase("migrate")
            defer { db.drop() }
            let s = db.schema
            for statement in [
                "CREATE SCHEMA \(s)",
                "CREATE TABLE \(s).cookiejar_schema (version bigint NOT NULL)",
                "INSERT INTO \(s).cookiejar_schema (version) VALUES (1)",
                "CREATE TABLE \(s).cookiejar_jars (jar_id text PRIMARY KEY, version bigint NOT NULL)",
                """
                CREATE TABLE \(s).cookiejar_cookies (
                    jar_id text NOT NULL REFERENCES \(s).cookiejar_jars ON DELETE CASCADE, name text NOT NULL,
                    value text NOT NULL, domain text NOT NULL, host_only boolean NOT NULL, path text NOT NULL,
                    partition_key text NOT NULL, expiry bigint, creation bigint NOT NULL, last_access bigint NOT NULL,
                    secure boolean NOT NULL, http_only boolean NOT NULL,
                    same_site smallint NOT NULL CHECK (same_site BETWEEN 0 AND 3), source_secure boolean NOT NULL,
                    source_port integer CHECK (source_port BETWEEN 0 AND 65535), version bigint NOT NULL,
                    PRIMARY KEY (jar_id, name, domain, host_only, path, partition_key))
                """,
                "INSERT INTO \(s).cookiejar_jars VALUES ('u', 1)",
                """
                INSERT INTO \(s).cookiejar_cookies VALUES ('u', 'sid', 'old', 'example.com', true, '/', '',
                    1800000600000000, 1800000000000000, 1800000000000000, true, true, 2, true, 443, 1)
                """,
            ] { _ = try TestDatabase.query(statement) }
            let jars = try db.instance()
            #expect(try TestDatabase.query("SELECT version FROM \(s).cookiejar_schema").first?[0].decode(Int64.self) == 2)
            let jar = try jars.jar("u")
            #expect(jar.allCookies().map { "\($0.name)=\($0.value)" } == ["sid=old"])
            jar.receive("sid=new; Max-Age=60; Secure; HttpOnly", from: url("example.com"))
            try jars.flush("u")
            #expect(try db.rows(of: "u") == ["sid": "new"])
            #expect(try TestDatabase.query("SELECT count(*) FROM \(s).cookiejar_cookies").first?[0].decode(Int64.self) == 1)
        }

        /// A schema named by a reserved word (`user`, `order`: lower-case letters, as the configuration asks)
        /// is quoted as an identifier: the tables are made and used there.
        @Test func aSchemaNamedByAReservedWordWorks() throws {
            var configuration = PostgresCookieJars.Configuration.environment()
            configuration.schema = "order"
            configuration.writeOptions.flushDelay = nil
            _ = try? TestDatabase.query("DROP SCHEMA IF EXISTS \"order\" CASCADE")
            defer { _ = try? TestDatabase.query("DROP SCHEMA IF EXISTS \"order\" CASCADE") }
            let jars = try PostgresCookieJars(configuration)
            try jars.jar("u").receive("a=1; Max-Age=60", from: url("example.com"))
            #expect(try jars.flush("u") == 1)
            #expect(try TestDatabase.query("SELECT name FROM \"order\".cookiejar_cookies").map { try $0[0].decode(String.self) } == ["a"])
            try jars.shutDown()
        }

        @Test func newerSchemaIsRefused() throws {
            let db = TestDatabase("newer")
            defer { db.drop() }
            _ = try db.instance()
            _ = try TestDatabase.query("UPDATE \(db.schema).cookiejar_schema SET version = 99")
            #expect {
                _ = try db.instance()
            } throws: { ($0 as? PostgresCookieStoreError)?.code == .newerSchema }
        }

        /// A role given a schema of its own and nothing more (no CREATE on the database) makes its tables
        /// there: `CREATE SCHEMA IF NOT EXISTS` asks for the database's CREATE privilege even when the schema
        /// exists (PostgreSQL manual, CREATE SCHEMA: "the invoking user must have the CREATE privilege for
        /// the current database"), so it is not run then.
        @Test func aRoleWithASchemaOfItsOwnMakesItsTablesThere() throws {
            let role = "cookiejar_app_\(UInt32.random(in: 0...UInt32.max))"
            _ = try TestDatabase.query("CREATE ROLE \(role) LOGIN")
            _ = try TestDatabase.query("CREATE SCHEMA \(role) AUTHORIZATION \(role)")
            defer {
                _ = try? TestDatabase.query("DROP SCHEMA IF EXISTS \(role) CASCADE")
                _ = try? TestDatabase.query("DROP ROLE IF EXISTS \(role)")
            }
            var configuration = PostgresCookieJars.Configuration.environment()
            configuration.connection.username = role
            configuration.schema = role
            configuration.writeOptions.flushDelay = nil
            let jars = try PostgresCookieJars(configuration)
            defer { try? jars.shutDown() }
            try jars.jar("u").receive("a=1; Max-Age=60", from: url("example.com"))
            #expect(try jars.flush("u") == 1)
        }

        /// Tables of the jars' names that are not the jars' (another application's, or a part of the jars'
        /// lost) are refused as `.foreign`, naming what is wrong, and left as they are (this project's
        /// contract: a foreign store is never written to); a `cookiejar_schema` that holds no bigint is
        /// one too, not an outage.
        @Test(arguments: [
            (["CREATE TABLE $.cookiejar_cookies (id integer)", "INSERT INTO $.cookiejar_cookies VALUES (7)"],
             "cookiejar_cookies exists without cookiejar_schema"),
            (["CREATE TABLE $.cookiejar_jars (id integer)"], "cookiejar_jars exists without cookiejar_schema"),
            (["CREATE TABLE $.cookiejar_schema (version text)", "INSERT INTO $.cookiejar_schema VALUES ('v2')"],
             "cookiejar_schema holds no version"),
            (["CREATE TABLE $.cookiejar_schema (version bigint)", "INSERT INTO $.cookiejar_schema VALUES (NULL)"],
             "cookiejar_schema holds no version"),
            (["CREATE TABLE $.cookiejar_schema (version bigint)", "INSERT INTO $.cookiejar_schema VALUES (2)"],
             "cookiejar_jars is missing"),
            (["CREATE TABLE $.cookiejar_schema (version bigint)", "INSERT INTO $.cookiejar_schema VALUES (2)",
              "CREATE TABLE $.cookiejar_jars (jar_id text PRIMARY KEY, version text)", "CREATE TABLE $.cookiejar_cookies (id integer)"],
             "column version of cookiejar_jars is text, not bigint"),
            (["CREATE TABLE $.cookiejar_schema (version bigint)", "INSERT INTO $.cookiejar_schema VALUES (2)",
              "CREATE TABLE $.cookiejar_jars (jar_id text PRIMARY KEY, version bigint)",
              "CREATE TABLE $.cookiejar_cookies (jar_id text, id integer)", "INSERT INTO $.cookiejar_cookies VALUES ('j', 7)"],
             "cookiejar_cookies has no column name"),
        ])
        func foreignTablesAreRefusedAndLeftAsTheyAre(statements: [String], detail: String) throws {
            let db = TestDatabase("foreign")
            defer { db.drop() }
            _ = try TestDatabase.query("CREATE SCHEMA \(db.schema)")
            for statement in statements { _ = try TestDatabase.query(statement.replacingOccurrences(of: "$", with: db.schema)) }
            try expectRefusedAsForeign(
                db, detail: detail,
                leaving: "SELECT table_name FROM information_schema.tables WHERE table_schema = '\(db.schema)' ORDER BY 1")
            if statements[0].contains("cookiejar_cookies") {
                #expect(try TestDatabase.query("SELECT id FROM \(db.schema).cookiejar_cookies").map { try $0[0].decode(Int32.self) } == [7])
            }
        }

        /// Starting an instance on `db` is refused as `.foreign`, its detail holding `detail`, and the text
        /// rows `listing` selects (the tables, or their columns) are the same after.
        func expectRefusedAsForeign(
            _ db: TestDatabase, detail: String, leaving listing: String, sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            let before = try TestDatabase.query(listing).map { try $0[0].decode(String.self) }
            #expect(sourceLocation: sourceLocation) {
                _ = try db.instance()
            } throws: { error in
                let error = error as! PostgresCookieStoreError
                return error.code == .foreign && error.detail.contains(detail)
            }
            #expect(try TestDatabase.query(listing).map { try $0[0].decode(String.self) } == before, sourceLocation: sourceLocation)
        }

        /// Jar tables altered by hand: a column more that a row may go without is let be (the jars start and
        /// write), one that every row must be given (NOT NULL without a default) would fail every write of a
        /// cookie and is refused as `.foreign` at start, as is a column of another type, each named; the
        /// tables are left as they are.
        @Test func alteredJarTablesAreCheckedColumnByColumn() throws {
            let db = TestDatabase("altered")
            defer { db.drop() }
            do {
                let jars = try db.instance()
                defer { try? jars.shutDown() }
                try jars.jar("u").receive("a=1; Max-Age=60", from: url("example.com"))
                #expect(try jars.flush("u") == 1)
            }
            _ = try TestDatabase.query("ALTER TABLE \(db.schema).cookiejar_cookies ADD COLUMN note text")
            do {
                let jars = try db.instance()
                defer { try? jars.shutDown() }
                #expect(try jars.jar("u").cookieHeader(for: url("example.com")) == "a=1")
                try jars.jar("u").receive("b=2; Max-Age=60", from: url("example.com"))
                #expect(try jars.flush("u") == 1)
            }
            for (alteration, undoing, detail) in [
                ("ALTER TABLE $.cookiejar_cookies ADD COLUMN owner text NOT NULL DEFAULT ''; ALTER TABLE $.cookiejar_cookies ALTER COLUMN owner DROP DEFAULT",
                 "ALTER TABLE $.cookiejar_cookies DROP COLUMN owner",
                 "cookiejar_cookies has a column owner that every row must be given"),
                ("ALTER TABLE $.cookiejar_cookies ALTER COLUMN same_site TYPE integer",
                 "ALTER TABLE $.cookiejar_cookies ALTER COLUMN same_site TYPE smallint",
                 "column same_site of cookiejar_cookies is integer, not smallint"),
            ] {
                for statement in alteration.replacingOccurrences(of: "$", with: db.schema).split(separator: ";") {
                    _ = try TestDatabase.query(String(statement))
                }
                try expectRefusedAsForeign(
                    db, detail: detail,
                    leaving: "SELECT column_name::text FROM information_schema.columns WHERE table_schema = '\(db.schema)' ORDER BY 1")
                #expect(try TestDatabase.query("SELECT count(*) FROM \(db.schema).cookiejar_cookies").first?[0].decode(Int64.self) == 2)
                _ = try TestDatabase.query(undoing.replacingOccurrences(of: "$", with: db.schema))
            }
            // Undone, the tables are the jars' again.
            let jars = try db.instance()
            defer { try? jars.shutDown() }
            #expect(try jars.jar("u").cookieHeader(for: url("example.com")) == "a=1; b=2")
        }

        // Cookies are UTF-8 (PostgreSQL manual, "Character Set Support"): a LATIN1 database could not hold
        // every cookie, and is refused at start, naming its encoding. A SQL_ASCII database keeps bytes as
        // given: the UTF-8 written comes back as it went, and a row another writer gave bytes that are not
        // UTF-8 fails the read (the server checks what it sends a UTF8 client: SQLSTATE 22021), where it
        // would have been read with U+FFFD in their place, another cookie.
        @Test func theDatabaseEncodingHoldsEveryCookie() throws {
            func database(_ encoding: String) throws -> (name: String, configuration: PostgresCookieJars.Configuration) {
                let name = "cookiejar_\(encoding.lowercased())_\(UInt32.random(in: 0...UInt32.max))"
                _ = try TestDatabase.query("CREATE DATABASE \(name) ENCODING '\(encoding)' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0")
                var configuration = PostgresCookieJars.Configuration.environment()
                configuration.connection.database = name
                configuration.schema = "jars"
                configuration.writeOptions.flushDelay = nil
                return (name, configuration)
            }
            let latin1 = try database("LATIN1")
            defer { _ = try? TestDatabase.query("DROP DATABASE \(latin1.name)") }
            #expect {
                _ = try PostgresCookieJars(latin1.configuration)
            } throws: { error in
                let error = error as! PostgresCookieStoreError
                return error.code == .invalidConfiguration && error.detail.contains("LATIN1")
            }

            let ascii = try database("SQL_ASCII")
            defer { _ = try? TestDatabase.query("DROP DATABASE \(ascii.name)") }
            let jars = try PostgresCookieJars(ascii.configuration)
            defer { try? jars.shutDown() }
            try jars.jar("u").receive("lang=fran\u{E7}ais; Max-Age=600", from: url("example.com"))
            try jars.flush("u")
            let reader = try PostgresCookieJars(ascii.configuration)
            defer { try? reader.shutDown() }
            #expect(try reader.jar("u").allCookies().map(\.value) == ["fran\u{E7}ais"])

            var direct = ascii.configuration.connection
            direct.database = ascii.name
            let connection = try PostgresConnection.connect(
                on: MultiThreadedEventLoopGroup.singleton.any(), configuration: direct, id: 9, logger: Logger(label: "tests")
            ).wait()
            defer { try? connection.close().wait() }
            _ = try connection.query("UPDATE jars.cookiejar_cookies SET value = E'fran\\xe7ais'", logger: Logger(label: "tests")).wait()
            let later = try PostgresCookieJars(ascii.configuration)
            defer { try? later.shutDown() }
            #expect {
                _ = try later.jar("u")
            } throws: { error in
                (error as! PostgresCookieStoreError).description.contains("SQLSTATE 22021")
            }
        }

        /// A configuration that cannot be used is refused before anything connects, never a trap nor a
        /// plain-text connection nor another server: a PGPORT libpq refuses (fe-connect.c: an integer, then
        /// "invalid port number" outside 1–65535), a list of hosts or ports (libpq's hosts to try in turn),
        /// a timeout PostgreSQL cannot take (its timeouts are milliseconds up to 2^31 - 1), and TLS that
        /// libpq's PGSSLMODE asks for (libpq: "require", "verify-ca", "verify-full"; an unknown mode is an
        /// error there too) and the configuration does not enforce. The modes that allow plain text pass the
        /// check (and find no server on port 1).
        @Test(arguments: [
            (["PGPORT": "54x3"], nil, "PGPORT=\"54x3\" is not a port number"),
            (["PGPORT": "54 33"], nil, "PGPORT=\"54 33\" is not a port number"),
            (["PGPORT": "0"], nil, "PGPORT=\"0\" is not a port number"),
            (["PGPORT": "65536"], nil, "PGPORT=\"65536\" is not a port number"),
            (["PGHOST": "db1,db2"], nil, "lists several servers"),
            (["PGPORT": "5432,5433"], nil, "lists several servers"),
            (["PGSSLMODE": "require"], nil, "PGSSLMODE=require"),
            (["PGSSLMODE": "verify-full"], nil, "PGSSLMODE=verify-full"),
            (["PGSSLMODE": "requrie"], nil, "PGSSLMODE=requrie"),
            ([:], Duration.zero, "a timeout is more than zero"),
            ([:], Duration.seconds(Int64.max), "a timeout is more than zero"),
            ([:], Duration.seconds(25 * 86_400), "a timeout is more than zero"),
        ] as [([String: String], Duration?, String)])
        func anUnusableConfigurationIsRefusedBeforeConnecting(variables: [String: String], timeout: Duration?, detail: String) {
            var configuration = PostgresCookieJars.Configuration.environment(
                from: variables.merging(["PGHOST": "127.0.0.1", "PGPORT": "1"]) { given, _ in given })
            if let timeout { configuration.timeout = timeout }
            #expect {
                _ = try PostgresCookieJars(configuration)
            } throws: { error in
                let error = error as! PostgresCookieStoreError
                return error.code == .invalidConfiguration && error.detail.contains(detail)
            }
        }

        /// libpq reads PGPORT as an integer with spaces around it allowed (fe-connect.c, parse_int_param),
        /// and so does the configuration.
        @Test(arguments: ["5433", " 5433", "5433 ", "\t5433\n"])
        func aPortWithSpacesAroundItIsRead(port: String) {
            let configuration = PostgresCookieJars.Configuration.environment(from: ["PGHOST": "db", "PGPORT": port])
            #expect(configuration.serverName == "db:5433")
        }

        @Test(arguments: ["disable", "allow", "prefer", ""])
        func aTLSModeThatAllowsPlainTextConnects(mode: String) {
            let configuration = PostgresCookieJars.Configuration.environment(from: ["PGHOST": "127.0.0.1", "PGPORT": "1", "PGSSLMODE": mode])
            #expect {
                _ = try PostgresCookieJars(configuration)
            } throws: { ($0 as! PostgresCookieStoreError).code == .unreachable }
        }

        @Test func databaseDownAtStartIsAClearError() throws {
            var configuration = PostgresCookieJars.Configuration(
                connection: .init(host: "127.0.0.1", port: 1, username: "u", password: nil, database: "d", tls: .disable),
                serverName: "127.0.0.1:1")
            configuration.schema = "public"
            do {
                _ = try PostgresCookieJars(configuration)
                Issue.record("opened jars on a server that is not there")
            } catch {
                #expect(error.code == .unreachable)
                #expect(error.description.contains("127.0.0.1:1"), "\(error)")
            }
        }

        /// The server refusing the configuration's database (SQLSTATE 3D000, invalid_catalog_name) or role
        /// (28000, invalid_authorization_specification: a role that does not exist; a wrong password is
        /// 28P01, of the same class) is the configuration's error, which trying again does not mend, not
        /// an outage (PostgreSQL's Appendix A, Error Codes).
        @Test(arguments: [
            (["PGDATABASE": "no_such_database"], "3D000"),
            (["PGUSER": "no_such_role"], "28000"),
        ])
        func aDatabaseOrRoleTheServerRefusesIsAnInvalidConfiguration(variables: [String: String], sqlState: String) {
            let environment = ProcessInfo.processInfo.environment.filter { $0.key.hasPrefix("PG") }
            let configuration = PostgresCookieJars.Configuration.environment(from: environment.merging(variables) { _, given in given })
            #expect {
                _ = try PostgresCookieJars(configuration)
            } throws: { error in
                let error = error as! PostgresCookieStoreError
                return error.code == .invalidConfiguration && error.sqlState == sqlState && error.detail.contains("SQLSTATE \(sqlState)")
            }
        }

        // The LRU bound: the least recently used jar is flushed and let go to make room.
        @Test func leastRecentlyUsedJarIsFlushedAndLetGo() throws {
            let db = TestDatabase("lru")
            defer { db.drop() }
            let jars = try db.instance(maximumOpenJars: 2)
            for id in ["a", "b", "c"] { try jars.jar(id).receive("\(id)=1; Max-Age=60", from: url("example.com")) }
            #expect(jars.openJarCount == 2)
            #expect(try db.rows(of: "a") == ["a": "1"], "let go after a flush")
            #expect(try jars.jar("a").allCookies().map(\.name) == ["a"])
        }

        // The order is the order of use, not of opening: a jar asked for again is kept, the one left
        // unused longest goes, and a jar closed by hand leaves no gap in the order (LeastRecentlyUsed).
        @Test func evictionFollowsTheOrderOfUse() throws {
            let db = TestDatabase("lruorder")
            defer { db.drop() }
            let jars = try db.instance(maximumOpenJars: 3)
            var opened: [String: CookieJar] = [:]
            for id in ["a", "b", "c"] { opened[id] = try jars.jar(id) }
            #expect(try jars.jar("a") === opened["a"], "in memory: the same jar")
            opened["d"] = try jars.jar("d")  // b is now the least recently used
            #expect(try jars.jar("a") === opened["a"])
            #expect(try jars.jar("c") === opened["c"])
            #expect(try jars.jar("d") === opened["d"])
            try jars.close("c")
            opened["e"] = try jars.jar("e")  // room left by c: nothing else goes
            #expect(jars.openJarCount == 3)
            #expect(try jars.jar("a") === opened["a"])
            opened["b"] = try jars.jar("b")  // d is now the least recently used (order: b, a, e, d)
            #expect(try jars.jar("e") === opened["e"])
            #expect(try jars.jar("a") === opened["a"])
            #expect(try jars.jar("b") === opened["b"])
            #expect(try jars.jar("d") !== opened["d"], "closed to make room, opened again")
            #expect(jars.openJarCount == 3)
        }

        // A lost connection: flush throws, the changes stay pending, and the next flush after the server is
        // back writes them. The error never carries a cookie's value.
        @Test(.enabled(if: ProcessInfo.processInfo.environment["PGDATA_DIR"] != nil, "needs PGDATA_DIR (start-postgres.sh) to restart the server"))
        func lostConnectionSurfacesAtFlushAndChangesStayPending() throws {
            let db = TestDatabase("outage")
            defer { db.drop() }
            let jars = try db.instance()
            let jar = try jars.jar("u")
            jar.receive("secret=hunter2-value; Max-Age=60", from: url("example.com"))
            try pgctl("stop", "-m", "fast")
            do {
                try jars.flush("u")
                Issue.record("a flush with the server down returned")
            } catch {
                #expect(error.code == .unreachable)
                #expect(!error.description.contains("hunter2"))
            }
            #expect(jar.hasPendingChanges)
            try pgctl("start", "-w")
            #expect(try jars.flush("u") == 1)
            #expect(try db.rows(of: "u") == ["secret": "hunter2-value"])
        }

        /// A jar let go to make room whose write fails (its row locked by a frozen instance) keeps its
        /// changes, and they are never out of sight: `flush` and `jar` of its id throw while they cannot
        /// be written (no empty success, no jar read without them), and write them once the lock is gone.
        @Test func aJarLetGoToMakeRoomKeepsChangesItCouldNotWrite() throws {
            let db = TestDatabase("evicting")
            defer { db.drop() }
            let jars = try db.instance(maximumOpenJars: 1, timeout: .seconds(1))
            try jars.jar("u").receive("base=1; Max-Age=60", from: url("example.com"))
            try jars.flush("u")
            try jars.jar("u").receive("x=1; Max-Age=60", from: url("example.com"))
            let frozen = try db.connectionLockingJar("u")
            defer { try? frozen.close().wait() }
            _ = try jars.jar("w")
            #expect(jars.openJarCount == 1)
            #expect(throws: PostgresCookieStoreError.self) { try jars.flush("u") }
            #expect(throws: PostgresCookieStoreError.self) { try jars.jar("u") }
            #expect(try db.rows(of: "u") == ["base": "1"])
            _ = try frozen.query("ROLLBACK", logger: Logger(label: "tests")).wait()
            #expect(try jars.flush("u") == 1)
            #expect(try db.rows(of: "u") == ["base": "1", "x": "1"])
            #expect(Set(try jars.jar("u").allCookies().map(\.name)) == ["base", "x"])
        }

        /// A jar replaced by a reload (another instance wrote) while a request held it, whose later change
        /// cannot be written (its row locked by a frozen instance) when the request drops it: the change is
        /// not lost with the jar (this project's contract: nothing dropped without telling why). `jar` and
        /// `flush` of its id throw while it cannot be written, and write it once the lock is gone.
        @Test func aReplacedJarDroppedWithChangesItCouldNotWriteKeepsThem() throws {
            let db = TestDatabase("dropped")
            defer { db.drop() }
            let (a, b) = (try db.instance(timeout: .seconds(1)), try db.instance(timeout: .seconds(1)))
            var held: CookieJar? = try a.jar("u")
            try b.jar("u").receive("other=1; Max-Age=60", from: url("example.com"))
            try b.flush("u")
            #expect(try a.jar("u") !== held, "reloaded: another instance wrote")
            held?.receive("sid=rotated; Max-Age=60", from: url("example.com"))
            let frozen = try db.connectionLockingJar("u")
            defer { try? frozen.close().wait() }
            #expect(throws: PostgresCookieStoreError.self) { try a.flush("u") }
            held = nil
            #expect(throws: PostgresCookieStoreError.self) { try a.jar("u") }
            _ = try frozen.query("ROLLBACK", logger: Logger(label: "tests")).wait()
            #expect(Set(try a.jar("u").allCookies().map(\.name)) == ["other", "sid"])
            #expect(try db.rows(of: "u") == ["other": "1", "sid": "rotated"])
            #expect(a.inMemoryJarCount == 1, "the jar let go is forgotten once written")
        }

        /// Jars let go to make room, or replaced, that no request holds and that have nothing left to write
        /// are forgotten, whichever ids they had: memory stays bounded by `maximumOpenJars` and the requests
        /// in flight (this project's contract), however many distinct jars the instance meets.
        @Test func jarsLetGoAreForgottenOnceDoneWith() throws {
            let db = TestDatabase("forgotten")
            defer { db.drop() }
            let jars = try db.instance(maximumOpenJars: 2)
            for index in 0..<20 { try jars.jar("j\(index)").receive("a=1; Max-Age=60", from: url("example.com")) }
            #expect(jars.openJarCount == 2)
            #expect(jars.inMemoryJarCount == 2)
            #expect(try db.rows(of: "j0") == ["a": "1"], "written when let go")
        }

        /// A jar let go to make room is written by the call that let it go and by a request of its id at
        /// once (the first waiting for the jar's row, which another instance's write holds): it is let go
        /// once, and forgotten once done with; let go twice, neither copy would ever be the only reference,
        /// and the jar would stay in memory for ever.
        @Test(.timeLimit(.minutes(1))) func aJarLetGoWhileTwoCallsWriteItIsForgottenOnceDoneWith() throws {
            let db = TestDatabase("evictedtwice")
            defer { db.drop() }
            let jars = try db.instance(maximumOpenJars: 1, timeout: .seconds(20))
            try jars.jar("a").receive("base=1; Max-Age=60", from: url("example.com"))
            try jars.flush("a")  // the jar's row, for the other connection to lock
            try jars.jar("a").receive("x=1; Max-Age=60", from: url("example.com"))
            let frozen = try db.connectionLockingJar("a")
            defer { try? frozen.close().wait() }
            let group = DispatchGroup()
            group.enter()
            Thread { _ = try? jars.jar("b"); group.leave() }.start()  // lets "a" go, and waits to write it
            #expect(db.untilAWriteWaitsForALock())
            group.enter()
            Thread { _ = try? jars.jar("a"); group.leave() }.start()  // writes the "a" let go too
            Thread.sleep(forTimeInterval: 0.5)
            _ = try frozen.query("ROLLBACK", logger: Logger(label: "tests")).wait()
            group.wait()
            for _ in 0..<3 { _ = try jars.jar("a") }
            #expect(jars.openJarCount == 1 && jars.inMemoryJarCount == 1)
            #expect(try db.rows(of: "a") == ["base": "1", "x": "1"])
        }

        /// A request's jar, replaced meanwhile by a reload, is let go with a change the request made; its
        /// background flush is under way (waiting for the jar's row) when the next request asks for the
        /// jar: that request waits for the write and reads the change, as it would a change still pending.
        @Test(.timeLimit(.minutes(1))) func theNextRequestWaitsForAWriteUnderWayOfAJarLetGo() throws {
            let db = TestDatabase("letgoinflight")
            defer { db.drop() }
            let a = try db.instance(flushDelay: .milliseconds(10))
            let b = try db.instance()
            var held: CookieJar? = try a.jar("u")  // a request begins
            try b.jar("u").receive("other=1; Max-Age=60", from: url("example.com"))
            try b.flush("u")
            #expect(try a.jar("u") !== held, "reloaded for another request: the first one's jar is let go")
            let frozen = try db.connectionLockingJar("u")
            held?.receive("sid=new; Max-Age=60", from: url("example.com"))  // the first request sets a cookie, ends
            held = nil
            #expect(db.untilAWriteWaitsForALock(), "the background flush is under way")
            db.rollBack(frozen, after: 0.5)
            let next = try a.jar("u")  // the next request
            #expect(Set(next.allCookies().map(\.name)) == ["other", "sid"])
            try frozen.close().wait()
        }

        /// A request's change on the open jar, whose background flush is under way (waiting for the jar's
        /// row) when the next request asks for the jar, after another instance wrote it: the next request
        /// waits for the write and reads the jar with the change, as `jar(_:)` promises ("its pending changes
        /// written"), not a reload without it.
        @Test(.timeLimit(.minutes(1))) func theNextRequestWaitsForABackgroundWriteUnderWayOfTheOpenJar() throws {
            let db = TestDatabase("openinflight")
            defer { db.drop() }
            let a = try db.instance(flushDelay: .milliseconds(10))
            let b = try db.instance()
            try a.jar("u").receive("base=1; Max-Age=600", from: url("example.com"))
            try a.flush("u")
            let held = try a.jar("u")  // a request begins
            try b.jar("u").receive("fromB=1; Max-Age=600", from: url("example.com"))
            try b.flush("u")
            let frozen = try db.connectionLockingJar("u")
            held.receive("mine=1; Max-Age=600", from: url("example.com"))  // the request sets a cookie
            #expect(db.untilAWriteWaitsForALock(), "the background flush is under way")
            db.rollBack(frozen, after: 0.5)
            let next = try a.jar("u")  // the next request
            #expect(Set(next.allCookies().map(\.name)) == ["base", "fromB", "mine"])
            try frozen.close().wait()
        }

        /// A server that stops answering mid-connection (here a proxy that stops forwarding, as a failover
        /// without a reset or a firewall that dropped the connection's state) holds no call longer than four
        /// times the timeout: the write throws `.unreachable` with its changes pending, a new connection to
        /// the frozen network is given up alike, and once the network answers again the next flush writes
        /// them.
        @Test(.timeLimit(.minutes(1))) func aServerThatStopsAnsweringHoldsNoCallPastTheDeadline() throws {
            let db = TestDatabase("frozen")
            defer { db.drop() }
            let upstream = Int(ProcessInfo.processInfo.environment["PGPORT"] ?? "5432") ?? 5432
            let proxy = try FreezableProxy(upstreamPort: upstream)
            defer { proxy.stop() }
            var configuration = PostgresCookieJars.Configuration(
                connection: .init(
                    host: "127.0.0.1", port: proxy.port, username: ProcessInfo.processInfo.environment["PGUSER"] ?? "postgres",
                    password: nil, database: ProcessInfo.processInfo.environment["PGDATABASE"] ?? "postgres", tls: .disable),
                serverName: "127.0.0.1:\(proxy.port)")
            configuration.schema = db.schema
            configuration.timeout = .milliseconds(500)
            configuration.connections = 1
            configuration.writeOptions.flushDelay = nil
            let jars = try PostgresCookieJars(configuration)
            let jar = try jars.jar("u")
            jar.receive("a=1; Max-Age=60", from: url("example.com"))
            #expect(try jars.flush("u") == 1)
            jar.receive("b=1; Max-Age=60", from: url("example.com"))
            proxy.freeze()
            for _ in 0..<2 {
                // The first flush waits on the open connection, the second on a new one.
                let start = ContinuousClock.now
                #expect {
                    try jars.flush("u")
                } throws: { ($0 as? PostgresCookieStoreError)?.code == .unreachable }
                #expect(ContinuousClock.now - start < .seconds(5))
            }
            #expect(jar.hasPendingChanges)
            proxy.thaw()
            #expect(try jars.flush("u") == 1)
            #expect(try db.rows(of: "u") == ["a": "1", "b": "1"])
        }

        // An instance that froze inside a write holds the jar's row lock: the other instances' writes wait
        // for it no longer than the configured timeout (lock_timeout), then throw with PostgreSQL's SQLSTATE
        // and keep their changes pending; once the lock is released the next flush writes them.
        @Test func aWriteWaitsForALockedJarNoLongerThanTheTimeout() throws {
            let db = TestDatabase("locked")
            defer { db.drop() }
            let jars = try db.instance(timeout: .seconds(1))
            try jars.jar("u").receive("a=1; Max-Age=60", from: url("example.com"))
            try jars.flush("u")
            let frozen = try db.connectionLockingJar("u")
            defer { try? frozen.close().wait() }
            let jar = try jars.jar("u")
            jar.receive("b=1; Max-Age=60", from: url("example.com"))
            let start = ContinuousClock.now
            do {
                try jars.flush("u")
                Issue.record("a flush past a held lock returned")
            } catch {
                // lock_timeout (55P03) or statement_timeout (57014), whichever the server checks first.
                #expect(error.code == .server)
                #expect(error.description.contains("55P03") || error.description.contains("57014"), "\(error)")
            }
            #expect(ContinuousClock.now - start < .seconds(10))
            #expect(jar.hasPendingChanges)
            _ = try frozen.query("ROLLBACK", logger: Logger(label: "tests")).wait()
            #expect(try jars.flush("u") == 1)
            #expect(try db.rows(of: "u") == ["a": "1", "b": "1"])
        }

        // The server ending the connection in the middle of a write (FATAL 57P01, as at a restart or a
        // fail-over; here pg_terminate_backend on the write waiting for a locked row) is an outage:
        // `.unreachable`, the changes pending, and the next flush reconnects and writes them.
        @Test(.timeLimit(.minutes(1))) func aConnectionTheServerEndsMidWriteIsAnOutage() throws {
            let db = TestDatabase("terminated")
            defer { db.drop() }
            let jars = try db.instance()
            try jars.jar("u").receive("a=1; Max-Age=60", from: url("example.com"))
            try jars.flush("u")
            let holder = try db.connectionLockingJar("u")
            defer { try? holder.close().wait() }
            let jar = try jars.jar("u")
            jar.receive("b=1; Max-Age=60", from: url("example.com"))
            let terminator = Thread { db.untilAWriteWaitsForALock(selecting: "pg_terminate_backend(pid)", seconds: 5) }
            terminator.start()
            do {
                try jars.flush("u")
                Issue.record("a flush whose connection the server ended returned")
            } catch {
                #expect(error.code == .unreachable, "\(error)")
            }
            #expect(jar.hasPendingChanges)
            _ = try holder.query("ROLLBACK", logger: Logger(label: "tests")).wait()
            #expect(try jars.flush("u") == 1)
            #expect(try db.rows(of: "u") == ["a": "1", "b": "1"])
        }

        /// The README's way to call the jars from async code: the blocking calls on SwiftNIO's thread pool,
        /// neither on an event loop (where a future's `wait()` traps) nor on the Swift concurrency pool.
        @Test func asyncCodeCallsTheJarsOnTheThreadPool() async throws {
            let db = TestDatabase("threadpool")
            defer { db.drop() }
            let jars = try db.instance()
            let header = try await NIOThreadPool.singleton.runIfActive {
                let jar = try jars.jar("u")
                for line in ["sid=1; Max-Age=60", "theme=dark; Max-Age=60"] { jar.receive(line, from: url("example.com")) }
                try jars.flush("u")
                return jar.cookieHeader(for: url("example.com"))
            }
            #expect(header == "sid=1; theme=dark")
            #expect(try db.rows(of: "u") == ["sid": "1", "theme": "dark"])
        }

        /// Runs pg_ctl on the test cluster (as the `postgres` user when root), through the shell: `system`
        /// waits for it alone, not for the server it starts.
        private func pgctl(_ arguments: String...) throws {
            let environment = ProcessInfo.processInfo.environment
            let version = try FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql").sorted().last ?? ""
            let data = environment["PGDATA_DIR"]!
            var command = "/usr/lib/postgresql/\(version)/bin/pg_ctl -D \(data) -l \(data)/../server.log \(arguments.joined(separator: " "))"
            if arguments[0] == "start" {
                command += " -o '-k \(environment["PGHOST"]!) -p \(environment["PGPORT"]!) -c listen_addresses=127.0.0.1'"
            }
            if getuid() == 0 { command = "runuser -u postgres -- \(command)" }
            #expect(system(command + " >/dev/null") == 0, "\(command)")
        }
    }
}
