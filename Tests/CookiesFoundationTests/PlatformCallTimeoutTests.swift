import Cookies
import Testing
@testable import CookiesFoundation

/// `withTimeout`, the deadline of every call the sync makes on a platform store.
struct PlatformCallTimeoutTests {
    /// This library's contract: a call that outlives its timeout is abandoned and its task cancelled, so an
    /// adapter that makes one platform call per cookie (WKHTTPCookieStore's `deleteCookie`, and its
    /// `setCookie` before version 26) makes no further call once the call under way completes; resumed,
    /// it would delete or set cookies after the syncs that followed the timeout.
    @Test func aCallPastItsTimeoutIsCancelled() async throws {
        let calls = CookieLock(0)
        await #expect(throws: CookieSyncError.self) {
            try await withTimeout(.milliseconds(50), call: .deleteCookies) {
                for _ in 0..<3 where !Task.isCancelled {
                    calls.withLock { $0 += 1 }
                    // A platform call under way: it completes whether or not its task is cancelled.
                    await Task.detached { try? await Task.sleep(for: .milliseconds(150)) }.value
                }
            }
        }
        try await Task.sleep(for: .milliseconds(600))
        #expect(calls.withLock { $0 } == 1)
    }

    @Test func aCallWithinItsTimeoutGivesItsResult() async throws {
        let value = try await withTimeout(.seconds(5), call: .allCookies) { 42 }
        #expect(value == 42)
    }
}
