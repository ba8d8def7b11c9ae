/// The path rules of rfc6265bis-22 §5.1.4.
enum CookiePath {
    /// §5.1.4 "default-path" of a request-uri's path.
    ///
    /// 1. Let uri-path be the path portion of the request-uri if such a portion exists (and empty otherwise).
    /// 2. If uri-path is empty or if the first character of uri-path is not "/", output "/" and skip the rest.
    /// 3. If uri-path contains no more than one "/", output "/" and skip the remaining step.
    /// 4. Output the characters of uri-path from the first character up to, but not including, the
    ///    right-most "/".
    ///
    /// On UTF-8 bytes: the output is a prefix of `uriPath` (ending before an ASCII "/", so on a scalar
    /// boundary), or a constant "/".
    static func defaultPath(of uriPath: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard uriPath.first == UInt8(ascii: "/"), let last = uriPath.lastIndex(of: UInt8(ascii: "/")), last != 0
        else { return rootPath }
        return UnsafeBufferPointer(rebasing: uriPath[..<last])
    }

    /// "/" (a string literal's bytes, valid for as long as the program runs).
    private static var rootPath: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: ("/" as StaticString).utf8Start, count: 1)
    }

    /// §5.1.4 "path-match": the request-path path-matches the cookie-path if
    /// - they are identical, or
    /// - the cookie-path is a prefix of the request-path and its last character is "/", or
    /// - the cookie-path is a prefix of the request-path and the first character of the request-path
    ///   that is not included in the cookie-path is "/".
    @inline(__always)
    static func matches(requestPath: String, cookiePath: String) -> Bool {
        requestPath.withUTF8Bytes { request in matches(requestPath: request, cookiePath: cookiePath) }
    }

    /// The same with the request path as UTF-8 bytes.
    @inline(__always)
    static func matches(requestPath: UnsafeBufferPointer<UInt8>, cookiePath: String) -> Bool {
        cookiePath.withUTF8Bytes { cookie in matches(requestPath: requestPath, cookiePath: cookie) }
    }

    /// The same on UTF-8 bytes.
    @inline(__always)
    static func matches(requestPath request: UnsafeBufferPointer<UInt8>, cookiePath cookie: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = cookie.count
        guard request.count >= count else { return false }
        guard count == 0 || memoryEqual(request.baseAddress!, cookie.baseAddress!, count) else { return false }
        if request.count == count { return true }
        if cookie.last == UInt8(ascii: "/") { return true }
        return request[count] == UInt8(ascii: "/")
    }
}
