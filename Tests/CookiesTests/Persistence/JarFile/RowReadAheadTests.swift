import Foundation
#if canImport(CSystemCallFilter)
import CSystemCallFilter
#endif
import TestSupport
import Testing

@testable import Cookies

/// A jar file of more rows than `CookieDatabase.rowsReadAlone` has the rest read ahead on a thread of its
/// own (`RowReadAhead`): every row is loaded as a reading on one thread loads it, the rows around the
/// chunks' edges and a row larger than a chunk included, and a row that is no cookie ends the loading
/// with the same error, naming that row.
@Suite struct RowReadAheadTests {
    let directory = TemporaryDirectory()
    var path: String { directory.file("cookies.sqlite") }
    static let readAlone = CookieDatabase.rowsReadAlone
    static let perChunk = RowReadAhead<Never>.rowsPerChunk
    /// Room for every test's cookies (the per-site limit is kept: 100 sites share them).
    static let limits = CookieLimits(maxCookies: 100_000)

    /// A closed jar file of `count` cookies over 100 sites, whose rows are in the order written; returns
    /// the cookies, each as the text its name, value, domain and path make.
    func writeJar(cookies count: Int) throws -> [String] {
        let jar = try CookieJar(
            contentsOf: path, options: testFileOptions(), publicSuffixList: testPublicSuffixList, limits: Self.limits,
            clock: ManualCookieClock(testEpoch))
        for index in 0..<count {
            jar.setCookie("c\(index)=v\(index); Max-Age=3600", from: url("https://www.site\(index % 100).com/p\(index % 7)/x"))
        }
        try jar.close()
        return Self.texts(of: jar.allCookies())
    }

    func openJar() throws -> CookieJar {
        try CookieJar(
            contentsOf: path, options: testFileOptions(), publicSuffixList: testPublicSuffixList, limits: Self.limits,
            clock: ManualCookieClock(testEpoch))
    }

    static func texts(of cookies: [Cookie]) -> [String] {
        cookies.map { "\($0.name)=\($0.value) \($0.domain)\($0.path)" }.sorted()
    }

    /// Row counts on either side of the reading alone, of a chunk's edge, and of more chunks than go round
    /// (three).
    static let rowCounts = [
        readAlone - 1, readAlone, readAlone + 1, readAlone + perChunk, readAlone + perChunk + 1,
        readAlone + 3 * perChunk + 7,
    ]

    @Test(arguments: rowCounts)
    func everyRowLoadsAsWritten(rows: Int) throws {
        let written = try writeJar(cookies: rows)
        #expect(written.count == rows)
        let jar = try openJar()
        #expect(Self.texts(of: jar.allCookies()) == written)
        #expect(jar.cookiesNotLoaded.isEmpty)
        // A reading of the whole file (`cookiejar inspect`) reads the same rows.
        #expect(Self.texts(of: try CookieDatabase.snapshot(path)) == written)
    }

    /// A row whose texts outgrow a chunk (a value of 200,000 bytes, which no jar may hold: §5.6 step 5
    /// allows 4,096 octets of name and value) in the middle of a chunk is handed over on its own and listed
    /// as not loaded; the rows on either side of it load.
    @Test func rowLargerThanAChunkIsReadAndRefused() throws {
        let rows = Self.readAlone + 2 * Self.perChunk
        let written = try writeJar(cookies: rows)
        let row = Self.readAlone + Self.perChunk / 2
        let select = try SQLiteConnection(path: path, flags: .readOnly).prepare("SELECT name FROM cookies WHERE id = \(row)")
        #expect(try select.step())
        let name = select.string(at: 0)
        try runSQL("UPDATE cookies SET value = hex(zeroblob(100000)) WHERE id = \(row);", on: path)
        let jar = try openJar()
        #expect(jar.cookiesNotLoaded.map(\.rejection) == [.nameAndValueTooLong])
        #expect(jar.cookiesNotLoaded.first?.identity.name == name)
        #expect(Self.texts(of: jar.allCookies()) == written.filter { !$0.hasPrefix("\(name)=") })
    }

    /// A row that is no cookie after the rows read alone ends the loading with the error a reading on one
    /// thread gives, naming the row and column (`CookieFileErrorTests`); the file is left untouched.
    @Test(arguments: [
        ("PRAGMA ignore_check_constraints = ON; UPDATE cookies SET same_site = 7", "its same_site column holds a value the schema does not allow"),
        ("UPDATE cookies SET value = CAST(x'3176C3' AS TEXT)", "its value column is not valid UTF-8"),
    ])
    func rowThatIsNoCookieIsCorruptionNamingIt(damage: String, reason: String) throws {
        let rows = Self.readAlone + 2 * Self.perChunk + 3
        _ = try writeJar(cookies: rows)
        let row = rows - 2
        try runSQL("\(damage) WHERE id = \(row);", on: path)
        let before = fileBytes(path)
        let expected = "\(path): row \(row) of table cookies is not a valid cookie: \(reason)"
        #expect {
            try openJar()
        } throws: { error in
            (error as? CookieFileError).map { $0.code == .corrupt && $0.description == expected } == true
        }
        #expect {
            try CookieDatabase.snapshot(path)
        } throws: { error in
            (error as? CookieFileError)?.description == expected
        }
        #expect(fileBytes(path) == before)
    }

    /// SQLite's own error in the middle of the reading (a leaf page of the table overwritten, past the rows
    /// read alone) ends the loading and the whole-file reading with the error a reading on one thread meets,
    /// after the same rows.
    @Test(arguments: [0.5, 0.9])
    func sqliteErrorMidReadingIsTheOneThreadsError(at fraction: Double) throws {
        _ = try writeJar(cookies: 5_000)
        try runSQL("PRAGMA journal_mode = DELETE;", on: path)
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        let pageSize: UInt64 = 4_096
        try handle.seek(toOffset: UInt64(Double(try handle.seekToEnd()) * fraction) / pageSize * pageSize)
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 64))
        try handle.close()
        // The reading on one thread, SQLite's alone.
        var rowsBeforeError = 0
        var sqliteError: SQLiteError?
        do {
            let select = try SQLiteConnection(path: path, flags: .readOnly).prepare("SELECT id, \(CookieDatabaseSchema.columns) FROM cookies")
            while try select.step() { rowsBeforeError += 1 }
        } catch {
            sqliteError = error
        }
        let error = try #require(sqliteError, "the damage made no error")
        #expect(rowsBeforeError > Self.readAlone)
        let expected = "\(path): cannot read the cookies: \(error.message) (SQLite code \(error.code))"
        #expect {
            try openJar()
        } throws: { ($0 as? CookieFileError)?.description == expected }
        #expect {
            try CookieDatabase.snapshot(path)
        } throws: { ($0 as? CookieFileError)?.description == expected }
    }

    #if canImport(CSystemCallFilter)
    /// Where no thread can be made (clone3 and clone refused, as a container's seccomp profile may refuse
    /// them), the rows are read on the opening thread: the file loads whole, and reads whole.
    @Test(.enabled(if: canRefuseThreadCreation, "this machine lets no test thread refuse clone3 and clone"))
    func rowsAreReadOnTheOpeningThreadWhereNoThreadCanBeMade() throws {
        let written = try writeJar(cookies: Self.readAlone + Self.perChunk + 5)
        let path = path
        let (loaded, read) = try onThreadFailingThreadCreation { () throws -> ([String], [String]) in
            #expect(!canMakeAThread())
            let jar = try CookieJar(
                contentsOf: path, options: testFileOptions(), publicSuffixList: testPublicSuffixList, limits: Self.limits,
                clock: ManualCookieClock(testEpoch))
            return (Self.texts(of: jar.allCookies()), Self.texts(of: try CookieDatabase.snapshot(path)))
        }
        #expect(loaded == written && read == written)
    }
    #endif

    /// The reading thread itself: rows arrive in order with their own bytes (each row's texts are written
    /// into one buffer that the next row overwrites, as SQLite's are), none is read on the calling thread,
    /// and a failure arrives after the rows read before it.
    @Test(arguments: [0, 1, perChunk - 1, perChunk, 5 * perChunk + 3])
    func readsOnItsOwnThreadInOrder(rows: Int) throws {
        for failsAfter in [nil, rows] as [Int?] {
            let caller = pthread_self()
            // Written on the reading thread, read after `forEach` joined it.
            final class Count { var value = 0 }
            let readOnCaller = Count()
            let scratch = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 64)
            defer { scratch.deallocate() }
            var index = 0
            let readAhead = try #require(RowReadAhead<RowError>.start { () throws(RowError) -> LoadedCookie? in
                if pthread_equal(pthread_self(), caller) != 0 { readOnCaller.value += 1 }
                if index == failsAfter { throw RowError(index: index) }
                guard index < rows else { return nil }
                defer { index += 1 }
                return Self.cookie(index, in: scratch)
            })
            var names: [String] = []
            let result = Result { () throws(RowError) -> Int in
                try readAhead.forEach { names.append(String(decoding: $0.name, as: UTF8.self) + "/" + String(decoding: $0.domain, as: UTF8.self)) }
            }
            switch result {
            case .success(let count): #expect(failsAfter == nil && count == rows)
            case .failure(let error): #expect(error == RowError(index: rows) && failsAfter == rows)
            }
            #expect(names == (0..<rows).map { "c\($0)/d\($0).example" })
            #expect(readOnCaller.value == 0)
        }
    }

    /// A row whose texts exceed a chunk is handed over in the reader's own buffers, which the reading does
    /// not touch again before the row was taken: each row's reading writes its index into the large value's
    /// first byte, which a large row must still hold when it arrives.
    @Test func rowLargerThanAChunkArrivesBeforeTheReadingGoesOn() throws {
        let rows = 4 * Self.perChunk
        let scratch = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 64)
        let large = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: RowReadAhead<Never>.bytesPerChunk + 1)
        defer {
            scratch.deallocate()
            large.deallocate()
        }
        large.initialize(repeating: UInt8(ascii: "v"))
        // Large rows mid-chunk, back to back, and first in a chunk.
        let largeRows: Set = [5, 700, 701, Self.perChunk * 2]
        var index = 0
        let readAhead = try #require(RowReadAhead<Never>.start { () -> LoadedCookie? in
            guard index < rows else { return nil }
            defer { index += 1 }
            large[0] = UInt8(truncatingIfNeeded: index)
            var cookie = Self.cookie(index, in: scratch)
            if largeRows.contains(index) { cookie.value = UnsafeBufferPointer(large) }
            return cookie
        })
        var arrived: [Int: UInt8] = [:]
        var names: [String] = []
        let count = readAhead.forEach { cookie in
            names.append(String(decoding: cookie.name, as: UTF8.self))
            guard cookie.value.count > Self.perChunk else { return }
            // Time for a reading that went on to overwrite the value.
            usleep(2_000)
            arrived[names.count - 1] = cookie.value[0]
        }
        #expect(count == rows && names == (0..<rows).map { "c\($0)" })
        #expect(arrived == Dictionary(uniqueKeysWithValues: largeRows.map { ($0, UInt8(truncatingIfNeeded: $0)) }))
    }

    struct RowError: Error, Equatable {
        let index: Int
    }

    /// A cookie named "c<index>" of domain "d<index>.example", its texts written into `scratch`.
    static func cookie(_ index: Int, in scratch: UnsafeMutableBufferPointer<UInt8>) -> LoadedCookie {
        let name = Array("c\(index)".utf8), domain = Array("d\(index).example".utf8)
        _ = scratch.initialize(fromContentsOf: name + domain + Array("/".utf8))
        let base = UnsafeBufferPointer(scratch)
        func part(_ start: Int, _ count: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: base[start..<(start + count)]) }
        return LoadedCookie(
            name: part(0, name.count), value: part(0, 0), domain: part(name.count, domain.count),
            path: part(name.count + domain.count, 1), partitionKey: nil, isHostOnly: true, expiry: nil,
            creation: testEpoch, lastAccess: testEpoch, isSecure: false, isHTTPOnly: false, sameSite: .default,
            isSourceSecure: true, sourcePort: 443)
    }
}

#if canImport(CSystemCallFilter)
/// What `body` returns or throws, run on a thread on which `pthread_create` fails: glibc makes clone3, and
/// clone where clone3 is missing; both are refused.
private func onThreadFailingThreadCreation<R: Sendable>(_ body: @escaping @Sendable () throws -> R) throws -> R {
    try onThreadFailing([(csystemcallfilter_clone3, EPERM), (csystemcallfilter_clone, EAGAIN)], body)
}

/// True when a thread can be made on the calling thread.
private func canMakeAThread() -> Bool {
    var thread = pthread_t()
    guard pthread_create(&thread, nil, { _ in nil }, nil) == 0 else { return false }
    pthread_join(thread, nil)
    return true
}

/// True when a test thread can be made on which `pthread_create` fails.
private let canRefuseThreadCreation: Bool = (try? onThreadFailingThreadCreation { !canMakeAThread() }) ?? false
#endif
