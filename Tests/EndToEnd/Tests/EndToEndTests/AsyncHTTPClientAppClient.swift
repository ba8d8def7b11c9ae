import AsyncHTTPClient
import Cookies
import CookiesAsyncHTTPClient
import Foundation
import NIOCore

/// The app on AsyncHTTPClient, its cookies in the jar through `JarHTTPClient`, which follows redirects
/// itself (storing the `Set-Cookie` fields of every hop, sending the jar's `Cookie` field on the next).
struct AsyncHTTPClientAppClient: AppClient {
    let jar: CookieJar
    let baseURL: String
    let client: HTTPClient
    let runner: JarHTTPClient

    init(jar: CookieJar, baseURL: String) {
        self.jar = jar
        self.baseURL = baseURL
        self.client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))
        self.runner = JarHTTPClient(jar: jar, client: client)
    }

    func send(_ method: String, _ path: String, bearer: String?, json: [String: String]?, cookies: Bool) async throws
        -> Reply
    {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = .init(rawValue: method)
        if let bearer { request.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        if let json {
            request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(json)))
            request.headers.add(name: "Content-Type", value: "application/json")
        }
        let response = cookies
            ? try await runner.execute(request, timeout: .seconds(30))
            : try await client.execute(request, timeout: .seconds(30))
        let data = try await response.body.collect(upTo: 1 << 20)
        return Reply(
            status: Int(response.status.code),
            json: (try? JSONDecoder().decode([String: String].self, from: Data(data.readableBytesView))) ?? [:])
    }

    func close() async throws {
        try await client.shutdown()
    }
}
