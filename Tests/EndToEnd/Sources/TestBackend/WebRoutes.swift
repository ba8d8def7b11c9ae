import Foundation
import HTTPTypes
import Hummingbird

/// The backend's web pages, what a web view loads beside the app's native requests:
///
/// - `GET /login`: the sign-in form (email, password), posting to `/login`.
/// - `POST /login` with a form (`application/x-www-form-urlencoded`: `email`, `password`): a web
///   sign-in. 303 to `/account`, setting the same session and remember-me cookies as the API's sign-in;
///   401 and a page for a wrong password.
/// - `GET /account`: the authenticated page: 200 and HTML naming the account, for a session or
///   remember-me cookie (the latter also starts a new session); 401 without.
/// - `GET /account/rotate`: the page again, after replacing the session with a new one (a new `session`
///   cookie; the old session stops working), as servers do on a privilege change.
/// - `GET /settings`: a page whose script sets `theme=dark` (a year) through `document.cookie`.
extension Backend {
    /// The cookie `/settings` sets from its script.
    public static let themeCookie = "theme=dark; path=/; max-age=31536000"

    static func addWebRoutes(to router: Router<BasicRequestContext>, accounts: Accounts) {
        router.get("/login") { _, _ -> Response in
            page(.ok, "Sign in", extra: """
                <form method="post" action="/login"><input name="email"><input name="password" type="password">\
                <button>Sign in</button></form>
                """)
        }
        router.get("/settings") { _, _ -> Response in
            page(.ok, "Settings", extra: "<script>document.cookie = \"\(themeCookie)\"</script>")
        }
        router.post("/login") { request, context -> Response in
            let body = try await request.body.collect(upTo: 16_384)
            let fields = formFields(String(buffer: body))
            guard let grant = await accounts.signIn(email: fields["email"] ?? "", password: fields["password"] ?? "")
            else { return page(.unauthorized, "Wrong email or password") }
            var headers = HTTPFields()
            headers[.location] = "/account"
            headers.append(HTTPField(name: .setCookie, value: sessionCookie(grant.session)))
            headers.append(HTTPField(name: .setCookie, value: rememberMeCookie(grant.rememberToken)))
            return Response(status: .seeOther, headers: headers)
        }
        router.get("/account") { request, _ -> Response in
            if let email = await account(of: request, in: accounts) { return page(.ok, "Signed in as \(email)") }
            if let token = request.cookies["remember_me"]?.value, let resumed = await accounts.resume(rememberToken: token) {
                return page(.ok, "Signed in as \(resumed.email)", setCookies: [sessionCookie(resumed.session)])
            }
            return page(.unauthorized, "Sign in first")
        }
        router.get("/account/rotate") { request, _ -> Response in
            guard let session = request.cookies["session"]?.value, let rotated = await accounts.rotate(session: session),
                let email = await accounts.account(session: rotated)
            else { return page(.unauthorized, "Sign in first") }
            return page(.ok, "Signed in as \(email)", setCookies: [sessionCookie(rotated)])
        }
    }

    /// An HTML page whose status line is `text` (`<p id="status">…</p>`), followed by `extra`.
    static func page(
        _ status: HTTPResponse.Status, _ text: String, extra: String = "", setCookies: [String] = []
    ) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        for line in setCookies { headers.append(HTTPField(name: .setCookie, value: line)) }
        let html = "<!doctype html><title>\(text)</title><p id=\"status\">\(text)</p>\(extra)"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// The fields of an `application/x-www-form-urlencoded` body (WHATWG URL §5.1: `+` is a space, then
    /// percent-decoding).
    static func formFields(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            if let name = parts.first { fields[name] = parts.count > 1 ? parts[1] : "" }
        }
        return fields
    }
}
