import Foundation
import HTTPTypes
import Hummingbird
import Synchronization

/// The backend's redirect routes, for clients that follow redirects with the jar:
///
/// - `POST /sign-in` with `{"email", "password"}`: signs in like `POST /api/v1/auth` (setting the session
///   and remember-me cookies) and answers 302 to `/home`; 401 for a wrong password.
/// - `GET /home`: what `GET /me` answers.
/// - `GET /bounce?to=URL`: 302 to `URL` (another site's, for the cross-site hops).
/// - `GET /set-and-bounce?set=LINE&to=URL`: 302 to `URL`, setting the cookie of the `Set-Cookie` line `LINE`.
/// - `POST /submit`: 303 to `/echo`.
/// - `POST /moved-temporarily`: 307 to `/echo`.
/// - `GET|POST /echo`: 200 and `{"method", "bodyBytes", "contentType", "authorization", "cookies",
///   "cookieHeader", "origin"}` of the request (`cookies` the names, `cookieHeader` the field as sent;
///   empty when absent).
/// - `GET /loop/a` and `GET /loop/b`: 302 to each other, for ever.
/// - `GET /locations?to=A&to=B…`: 302 with one Location field for each `to`, in order.
/// - `GET /files/NAME`: 200 and `{"path"}`, the request's path as it came (percent-encoded).
/// - `GET /SEGMENT/stray`: 200, setting `stray=1`: where Foundation's reading of `Location: \\host/stray` (the
///   backslashes percent-encoded into a path on the same host) lands.
/// - `GET /bounce-with-body/huge` and `GET /bounce-with-body/trickling`: 302 to `/echo` with a body that
///   does not end while the client reads it: a terabyte announced in Content-Length and written in 64 KiB
///   chunks as fast as the client takes them, or chunked, one byte every 100 ms.
/// - `GET /redirect-bodies`: `{"writing": n}`, how many of those bodies are still being written (one ends
///   when its connection is closed).
extension Backend {
    static func addRedirectRoutes(to router: Router<BasicRequestContext>, accounts: Accounts) {
        router.post("/sign-in") { request, context -> Response in
            let credentials = try await request.decode(as: Credentials.self, context: context)
            guard let grant = await accounts.signIn(email: credentials.email, password: credentials.password) else {
                return json(.unauthorized, ["error": "wrong email or password"])
            }
            return redirect(.found, to: "/home",
                setCookies: [sessionCookie(grant.session), rememberMeCookie(grant.rememberToken)])
        }
        router.get("/home") { request, _ -> Response in
            await me(request, accounts: accounts)
        }
        router.get("/bounce") { request, _ -> Response in
            redirect(.found, to: request.uri.queryParameters.get("to") ?? "/")
        }
        router.get("/set-and-bounce") { request, _ -> Response in
            redirect(
                .found, to: request.uri.queryParameters.get("to") ?? "/",
                setCookies: request.uri.queryParameters.get("set").map { [$0] } ?? [])
        }
        router.post("/submit") { _, _ -> Response in
            redirect(.seeOther, to: "/echo")
        }
        router.post("/moved-temporarily") { _, _ -> Response in
            redirect(.temporaryRedirect, to: "/echo")
        }
        for method in [HTTPRequest.Method.get, .post] {
            router.on("/echo", method: method) { request, _ -> Response in
                let body = try await request.body.collect(upTo: 1 << 20)
                return json(.ok, [
                    "method": request.method.rawValue, "bodyBytes": String(body.readableBytes),
                    "contentType": request.headers[.contentType] ?? "",
                    "authorization": request.headers[.authorization] ?? "", "cookies": cookieNames(of: request),
                    "cookieHeader": request.headers[.cookie] ?? "",
                    "origin": request.headers[.origin] ?? "",
                ])
            }
        }
        router.get("/loop/a") { _, _ -> Response in redirect(.found, to: "/loop/b") }
        router.get("/loop/b") { _, _ -> Response in redirect(.found, to: "/loop/a") }
        router.get("/locations") { request, _ -> Response in
            var headers = HTTPFields()
            for location in request.uri.queryParameters.getAll("to") {
                headers.append(HTTPField(name: .location, value: location))
            }
            return Response(status: .found, headers: headers)
        }
        router.get("/{segment}/stray") { _, _ -> Response in
            var headers = HTTPFields()
            headers.append(HTTPField(name: .setCookie, value: "stray=1"))
            return Response(status: .ok, headers: headers)
        }
        router.get("/files/{name}") { request, _ -> Response in
            json(.ok, ["path": request.uri.path])
        }
        let writing = WritingCount()
        router.get("/bounce-with-body/{kind}") { _, context -> Response in
            let trickles = context.parameters.get("kind") == "trickling"
            let body = ResponseBody(contentLength: trickles ? nil : 1 << 40) { writer in
                writing.count.withLock { $0 += 1 }
                defer { writing.count.withLock { $0 -= 1 } }
                let chunk = ByteBuffer(repeating: UInt8(ascii: "x"), count: trickles ? 1 : 64 << 10)
                while true {
                    try await writer.write(chunk)
                    if trickles { try await Task.sleep(for: .milliseconds(100)) }
                }
            }
            var headers = HTTPFields()
            headers[.location] = "/echo"
            return Response(status: .found, headers: headers, body: body)
        }
        router.get("/redirect-bodies") { _, _ -> Response in
            json(.ok, ["writing": String(writing.count.withLock { $0 })])
        }
    }

    static func redirect(_ status: HTTPResponse.Status, to location: String, setCookies: [String] = []) -> Response {
        var headers = HTTPFields()
        headers[.location] = location
        for line in setCookies {
            headers.append(HTTPField(name: .setCookie, value: line))
        }
        return Response(status: status, headers: headers)
    }
}

/// How many bodies the backend is writing.
final class WritingCount: Sendable {
    let count = Mutex(0)
}
