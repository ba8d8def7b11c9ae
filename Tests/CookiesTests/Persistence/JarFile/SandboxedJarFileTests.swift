#if canImport(CSystemCallFilter)
import CSystemCallFilter
import Foundation
import TestSupport
import Testing

@testable import Cookies

/// A jar opened in a container whose sandbox predates the faccessat2 system call (Linux 5.8): Docker's
/// seccomp profile before 20.10 (https://github.com/moby/moby/pull/41353) answers it with EPERM instead of
/// ENOSYS, and glibc 2.33 and later, whose `faccessat` makes that call first (glibc commit 3d3ab573a5f3),
/// then gives up with EPERM. EPERM is also what the file system answers for an immutable directory, which
/// cannot take a jar's `-wal` and `-shm`: the jar checks its directory with `access`, whose system call
/// every sandbox allows, and opens (this project's contract).
@Suite(.enabled(if: canRefuseFaccessat2OnAThread, "needs seccomp filters, and a glibc that makes faccessat2"))
struct SandboxedJarFileTests {
    let directory = TemporaryDirectory()
    var path: String { directory.file("cookies.sqlite") }

    /// A closed jar, whose `-wal` or `-shm` is missing so that its directory is checked, opens and writes on a
    /// thread whose faccessat2 fails with EPERM.
    @Test(arguments: [JarFileCompanions.none, .wal])
    func closedJarOpensWhereFaccessat2IsRefused(_ companions: JarFileCompanions) throws {
        try makeJarFile(at: path, leaving: companions)
        let path = path
        let count = try onThreadRefusingFaccessat2 { () throws -> Int in
            let jar = try openTestJar(path)
            jar.setCookie("new=1; Max-Age=3600", from: url("https://example.com/"))
            try jar.close()
            return jar.count
        }
        #expect(count == companions.cookieCount + 1)
        #expect(try openTestJar(path).count == companions.cookieCount + 1)
    }
}

/// What `body` returns or throws, run on a thread of its own whose faccessat2 system call fails with EPERM,
/// as in an older container's sandbox (`onThreadFailing`).
private func onThreadRefusingFaccessat2<R: Sendable>(_ body: @escaping @Sendable () throws -> R) throws -> R {
    try onThreadFailing([(csystemcallfilter_faccessat2, EPERM)], body)
}

/// True when a thread can be made to fail faccessat2 with EPERM, and `faccessat` with `AT_EACCESS` then fails
/// with EPERM on it (glibc 2.33 and later, which makes that call first): the sandbox the suite stands in for.
private let canRefuseFaccessat2OnAThread: Bool =
    (try? onThreadRefusingFaccessat2 { () -> Bool in
        faccessat(AT_FDCWD, "/", F_OK, AT_EACCESS) != 0 && errno == EPERM
    }) ?? false
#endif
