import AsyncHTTPClient
import Cookies
import CookiesFoundation
import Foundation
import NIOCore

/// The app on AsyncHTTPClient, which follows no redirect itself here: the client follows them, storing
/// the `Set-Cookie` fields of every hop (AsyncHTTPClient keeps repeated fields apart) and sending the
/// jar's `Cookie` field on the next.
struct AsyncHTTPClientAppClient: AppClient {
    let jar: CookieJar
    let baseURL: String
    let client: HTTPClient

    init(jar: CookieJar, baseURL: String) {
        self.jar = jar
        self.baseURL = baseURL
        self.client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))
    }

    func send(_ method: String, _ path: String, bearer: String?, json: [String: String]?, cookies: Bool) async throws
        -> Reply
    {
        var url = URL(string: baseURL + path)!
        var method = method
        var body = try json.map { try JSONEncoder().encode($0) }
        for _ in 0...20 {
            var request = HTTPClientRequest(url: url.absoluteString)
            request.method = .init(rawValue: method)
            if let bearer { request.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
            if let body {
                request.body = .bytes(ByteBuffer(bytes: body))
                request.headers.add(name: "Content-Type", value: "application/json")
            }
            let cookieURL = CookieURL(url)!
            let context = CookieRequestContext(method: method)
            if cookies, let header = jar.cookieHeader(for: cookieURL, context: context) {
                request.headers.add(name: "Cookie", value: header)
            }
            let response = try await client.execute(request, timeout: .seconds(30))
            let data = try await response.body.collect(upTo: 1 << 20)
            if cookies {
                jar.receive(response.headers["Set-Cookie"], from: cookieURL, context: context)
            }
            guard let redirect = Redirect(status: Int(response.status.code),
                location: response.headers.first(name: "Location"), from: url, method: method)
            else {
                return Reply(status: Int(response.status.code),
                    json: (try? JSONDecoder().decode([String: String].self, from: Data(data.readableBytesView))) ?? [:])
            }
            if redirect.dropsBody(of: method) { body = nil }
            url = redirect.url
            method = redirect.method
        }
        throw HTTPClientError.redirectLimitReached
    }

    func close() async throws {
        try await client.shutdown()
    }
}
