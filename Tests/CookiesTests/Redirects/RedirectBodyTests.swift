import Synchronization
import Testing

@testable import Cookies

/// What a client reads of a redirect's body before the next hop (`RedirectBody`).
@Suite("RedirectBody")
struct RedirectBodyTests {
    /// A body of `parts` chunks of `size` bytes (nil: without end), each after `pause` (nil: at once),
    /// whose elements are the chunks' sizes; counts the chunks taken from it.
    struct Body: AsyncSequence, Sendable {
        let size: Int
        let parts: Int?
        let pause: Duration?
        let taken = Taken()

        final class Taken: Sendable {
            let count = Mutex(0)
        }

        struct AsyncIterator: AsyncIteratorProtocol {
            let body: Body
            var index = 0

            mutating func next() async throws -> Int? {
                if let parts = body.parts, index == parts { return nil }
                if let pause = body.pause { try await Task.sleep(for: pause) }
                index += 1
                body.taken.count.withLock { $0 += 1 }
                return body.size
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(body: self) }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let body: Body
        /// The wait, or nil for one far longer than the test: `discard` must return without it.
        let wait: Duration?
        let taken: ClosedRange<Int>
    }

    /// This project's contract: at most `maximumBytes` (2 KiB, Go's net/http `maxBodySlurpSize`) for at
    /// most the wait; a body within both is read to its end (its connection can then carry the next hop).
    /// Times are only bounded from below: the tasks may wait for a thread of the pool the other suites
    /// keep busy.
    static let cases: [Case] = [
        Case(testDescription: "a short body there at once is read to its end",
            body: Body(size: 100, parts: 3, pause: nil), wait: nil, taken: 3...3),
        Case(testDescription: "a body of exactly maximumBytes is read to its end",
            body: Body(size: 1024, parts: 2, pause: nil), wait: nil, taken: 2...2),
        Case(testDescription: "a body without end is dropped once it passed maximumBytes",
            body: Body(size: 1024, parts: nil, pause: nil), wait: nil, taken: 3...3),
        Case(testDescription: "a body that trickles without end is dropped once the wait is over",
            body: Body(size: 1, parts: nil, pause: .milliseconds(20)), wait: .milliseconds(300),
            taken: 0...(RedirectBody.maximumBytes + 1)),
        Case(testDescription: "a body that does not come is dropped once the wait is over",
            body: Body(size: 1, parts: 1, pause: .seconds(3600)), wait: .milliseconds(100), taken: 0...0),
    ]

    @Test(.timeLimit(.minutes(3)), arguments: cases)
    func discard(_ testCase: Case) async {
        let started = ContinuousClock.now
        await RedirectBody.discard(testCase.body, waitingAtMost: testCase.wait ?? .seconds(3600)) { $0 }
        #expect(testCase.taken.contains(testCase.body.taken.count.withLock { $0 }))
        if let wait = testCase.wait { #expect(ContinuousClock.now - started >= wait) }
        #expect(RedirectBody.maximumBytes == 2048)
    }
}
