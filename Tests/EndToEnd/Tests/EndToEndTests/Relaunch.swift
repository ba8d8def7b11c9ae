import Cookies

/// What an app relaunch does to the jar: the one place the flow's "relaunch" step happens.
///
/// Until the persistent on-disk jar lands (`CookieJar(contentsOf:)`, SQLite), the relaunch is simulated
/// on the same jar: ending the session deletes the session cookies (rfc6265bis-22 §5.7: a cookie
/// without expiry lasts until the session ends) and keeps the persistent ones. To switch to the real
/// thing, save the jar here and return `try CookieJar(contentsOf: file)`; the flow then runs on the
/// reopened jar (and the change mirror re-seeds from it, as a web view's store would).
func relaunch(_ jar: CookieJar) throws -> CookieJar {
    jar.deleteSessionCookies()
    return jar
}
