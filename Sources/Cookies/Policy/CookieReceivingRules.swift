/// The receive rules of rfc6265bis-22 §5.7, steps 1–22: from the parts (§5.6) of one `Set-Cookie` line
/// and the request it came with to a `ValidatedCookie`, or the `CookieRejection` that ignores the line.
/// Steps 23–24 (replace, insert) and the limits are the store's (`CookieStore.store(_:now:)`).
enum CookieReceivingRules {
    /// Steps 1–22 of §5.7 for the line whose UTF-8 is `line` and whose parts are `parts`, received from
    /// `url` in `context` at `now`, with the cookie-age-limit of `limits` (§5.5). The store is
    /// asked only the questions of `CookieStoreQueries`. A cookie that passes is lent to `accept`, with the
    /// store, for steps 23–24; its result is the success.
    ///
    /// The name, value, Domain and Path are read from the line's bytes, the host and default-path from the
    /// request-uri's: nothing is allocated here.
    @inline(__always)
    static func validate<Store: CookieStoreQueries, Result>(
        _ parts: CookieParts, line: UnsafeBufferPointer<UInt8>, from url: CookieURL, context: CookieRequestContext,
        now: CookieTime, limits: CookieLimits, store: inout Store,
        _ accept: (inout Store, borrowing ValidatedCookie) -> Result
    ) -> Swift.Result<Result, CookieRejection> {
        // Step 1: only a response to an HTTP-family request sets cookies (the user agent's choice, §5.7
        // step 1's "may ignore"): http, https, ws and wss.
        guard url.isHTTPFamily else { return .failure(.unsupportedScheme) }
        // Steps 2–4 (CTL, empty name and value, 4096 octets) ran while parsing (§5.6), or while building
        // the parts from texts (`ParsedSetCookie(name:value:…)`), which hold only what a line could give.

        // Step 5: the name and value are the line's. Step 6: the expiry-time from the last Max-Age, else
        // the last Expires, capped at the cookie-age-limit (§5.5, §5.6.1, §5.6.2: 400 days after the
        // receive time); neither: a session cookie.
        let expiry = limits.expiryTime(maxAge: parts.maxAge, expires: parts.expires, receivedAt: now)
        let isSecureOrigin = url.isSecure
        let isNonHTTPAPI = context.api == .nonHTTP
        let sameSite = parts.sameSite ?? .default
        // Steps 17–18 need the request's same-site status only for cookies other than SameSite=None.
        let refusesSameSiteCookies = sameSite != .none && store.isCrossSite(url, context: context)
            && (isNonHTTPAPI || !context.isTopLevelNavigation)
        // CHIPS §2.1: the partition key of a Partitioned cookie is the top-level site (one without Secure
        // is refused below); under an opaque site for cookies, without a partition given, none is known.
        let topLevel = parts.partitioned && parts.secure ? context.topLevel(for: url) : nil
        if parts.partitioned, parts.secure, topLevel == nil { return .failure(.partitionedWithoutTopLevelSite) }
        let partitionKey = topLevel.map { store.site(of: $0) }
        let hostIsIPAddress = url.hostIsIPAddress
        let sourcePort = url.port
        // The bytes are lent through spans, whose lending is inlined, so the closures copy neither the URL
        // nor the context (a copy retains every String it holds).
        return url.withHostAndPathBytes { host, uriPath in
            partitionKey.withUTF8BytesViaSpan { partitionKey in
                // Step 7: the Domain attribute, lower-cased (§5.6.3).
                parts.withDomain(in: line) { domainAttribute in
                    var domainAttribute = domainAttribute
                    // Step 8: a Domain attribute with a character not in CHAR (non-ASCII) ignores the cookie.
                    if !parts.isASCII, !domainAttribute.isASCII { return .failure(.domainNotASCII) }
                    // Step 9: a public suffix as Domain is allowed only when it is the request-host itself,
                    // which makes the cookie host-only.
                    if !domainAttribute.isEmpty, !hostIsIPAddress, store.isPublicSuffix(domainAttribute: domainAttribute) {
                        guard host.hasSameBytes(as: domainAttribute) else { return .failure(.domainIsPublicSuffix) }
                        domainAttribute = UnsafeBufferPointer(start: nil, count: 0)
                    }
                    // Step 10: the request-host must domain-match a non-empty Domain attribute. The domain
                    // is the host for a host-only cookie, the attribute otherwise. The attribute is compared
                    // as §5.6.3 leaves it (lower-cased), not canonicalised as a host: an IP address host
                    // matches only its own text (§5.1.3 "identical"), `Domain=[::1]` from `[::1]`, never
                    // `[0:0::1]`, nor `127.1` from `127.0.0.1`, as in Chromium and Firefox (which, unlike the
                    // draft, then store the cookie host-only: the Conformance article).
                    let isHostOnly = domainAttribute.isEmpty
                    guard isHostOnly || DomainMatch.matches(host: host, hostIsIPAddress: hostIsIPAddress, domain: domainAttribute)
                    else { return .failure(.domainMismatch) }
                    // And, as Chromium and Firefox (the Conformance article's deviation of 2026-11-27), the
                    // Domain attribute names a domain of the request-host's own site: at or below its site key
                    // (registrable domain). A domain the host domain-matches that is shorter than that key is
                    // above it, across a public suffix: `Domain=amazonaws.com` from `b.s3.amazonaws.com`.
                    if !isHostOnly, domainAttribute.count < store.siteKeyLength(ofHost: host) {
                        return .failure(.domainOfAnotherSite)
                    }
                    let domain = isHostOnly ? host : domainAttribute

                    // Step 11: the last Path attribute, or the default-path of the request-uri.
                    let path: UnsafeBufferPointer<UInt8>
                    if let attribute = parts.path, !attribute.isEmpty {
                        path = attribute.bytes(in: line)
                    } else {
                        path = CookiePath.defaultPath(of: uriPath)
                    }
                    // Steps 12–13: Secure only from a secure origin.
                    if parts.secure, !isSecureOrigin { return .failure(.secureFromInsecureOrigin) }
                    // Steps 14–15: HttpOnly never through a non-HTTP API.
                    if parts.httpOnly, isNonHTTPAPI { return .failure(.httpOnlyFromNonHTTPAPI) }

                    // Step 16: leave Secure cookies alone — an insecure origin cannot set a cookie that
                    // would overwrite or shadow a Secure cookie of the same name whose domain domain-matches
                    // the new cookie's domain (or the reverse) and whose path the new path path-matches.
                    let name = parts.name.bytes(in: line)
                    if !parts.secure, !isSecureOrigin,
                        store.hasSecureCookie(shadowedBy: name, domain: domain, path: path, now: now)
                    {
                        return .failure(.wouldShadowSecureCookie)
                    }

                    // Steps 17–18: the same-site-flag; cookies other than SameSite=None cannot be set by a
                    // cross-site request unless it is a top-level navigation (nor by a non-HTTP API in a
                    // cross-site document).
                    if sameSite != .none, refusesSameSiteCookies { return .failure(.sameSiteFromCrossSite) }
                    // Steps 19–22 and CHIPS §2.1: the rules on the cookie's own attributes.
                    let value = parts.value.bytes(in: line)
                    if let rejection = CookieAttributeRules.rejection(
                        name: name, value: value, isSecure: parts.secure, isHostOnly: isHostOnly,
                        hasRootPath: parts.path != nil && path.count == 1 && path[0] == UInt8(ascii: "/"),
                        sameSite: sameSite, isPartitioned: parts.partitioned)
                    {
                        return .failure(rejection)
                    }

                    let cookie = ValidatedCookie(
                        name: name, value: value, domain: domain, isHostOnly: isHostOnly, path: path, expiry: expiry,
                        isSecure: parts.secure, isHTTPOnly: parts.httpOnly, sameSite: sameSite, partitionKey: partitionKey,
                        isSourceSecure: isSecureOrigin, sourcePort: sourcePort, isFromNonHTTPAPI: isNonHTTPAPI,
                        isKnownASCII: parts.isASCII)
                    return .success(accept(&store, cookie))
                }
            }
        }
    }
}
