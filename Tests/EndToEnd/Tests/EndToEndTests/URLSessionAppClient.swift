import Cookies
import CookiesFoundation
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The app on URLSession (FoundationNetworking on Linux), its cookies in the jar through `JarURLSession`.
struct URLSessionAppClient: AppClient {
    let jar: CookieJar
    let baseURL: String
    let session: JarURLSession
    /// The same session without cookies.
    let plain: URLSession

    init(jar: CookieJar, baseURL: String) {
        self.jar = jar
        self.baseURL = baseURL
        self.session = JarURLSession(jar: jar)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        self.plain = URLSession(configuration: configuration)
    }

    func send(_ method: String, _ path: String, bearer: String?, json: [String: String]?, cookies: Bool) async throws
        -> Reply
    {
        var request = URLRequest(url: URL(string: baseURL + path)!)
        request.httpMethod = method
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let json {
            request.httpBody = try JSONEncoder().encode(json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = cookies ? try await session.data(for: request) : try await plain.data(for: request)
        return Reply(
            status: (response as? HTTPURLResponse)?.statusCode ?? 0,
            json: (try? JSONDecoder().decode([String: String].self, from: data)) ?? [:])
    }

    func close() async throws {
        plain.finishTasksAndInvalidate()
    }
}
