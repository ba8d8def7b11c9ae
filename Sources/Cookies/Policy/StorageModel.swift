extension CookieStore {
    /// The storage model of rfc6265bis-22 §5.7: builds a cookie from the parts (§5.6) of the
    /// `Set-Cookie` line whose UTF-8 is `line`, received from `url` in `context`, checks it, and stores
    /// it (or deletes the cookie it replaces when it has already expired).
    ///
    /// The cookies stored and removed are read out of the site only while the store records changes.
    mutating func receive(
        _ parts: CookieParts, line: UnsafeBufferPointer<UInt8>, from url: CookieURL, context: CookieRequestContext,
        now: CookieTime
    ) -> StorageAction {
        guard url.isHTTPFamily else { return .rejected(.unsupportedScheme) }

        // Steps 2–4 (empty, CTL, 4096 octets) ran while parsing. Step 6: expiry-time from the last
        // Max-Age, else the last Expires, capped at the cookie-age-limit (§5.5, §5.6.1, §5.6.2: 400 days
        // after the receive time); neither: a session cookie.
        let expiry = limits.expiryTime(maxAge: parts.maxAge, expires: parts.expires, receivedAt: now)

        // What the later steps read of the request, worked out once: they take these plain values instead
        // of the URL and the context. The bytes are lent through spans, whose lending is inlined, so the
        // closures copy neither the URL nor the context (a copy retains every String it holds).
        let request = ReceivingRequest(
            isSecure: url.isSecure, port: url.port, isNonHTTPAPI: context.api == .nonHTTP,
            // Steps 17–18 need the request's same-site status only for cookies other than SameSite=None.
            refusesSameSiteCookies: (parts.sameSite ?? .default) != SameSite.none && isCrossSite(url, context: context)
                && (context.api == .nonHTTP || !context.isTopLevelNavigation))
        // CHIPS §2.1: the partition key of a Partitioned cookie is the top-level site (one without Secure
        // is refused below).
        let partitionKey = parts.partitioned && parts.secure ? site(of: context.partition ?? url) : nil
        let hostIsIPAddress = url.hostIsIPAddress
        return url.withHostAndPathBytes { host, uriPath in
            partitionKey.withUTF8BytesViaSpan { partitionKey in
                parts.withDomain(in: line) { domainAttribute in
                    // Steps 7–10: the Domain attribute, lower-cased (§5.6.3).
                    var domainAttribute = domainAttribute
                    // Step 8: a Domain attribute with a character not in CHAR (non-ASCII) ignores the cookie.
                    if !parts.isASCII, !domainAttribute.isASCII { return .rejected(.domainNotASCII) }
                    // Step 9: a public suffix as Domain is allowed only when it is the request-host itself,
                    // which makes the cookie host-only.
                    if !domainAttribute.isEmpty, !hostIsIPAddress, isPublicSuffix(domainAttribute: domainAttribute) {
                        guard host.hasSameBytes(as: domainAttribute) else { return .rejected(.domainIsPublicSuffix) }
                        domainAttribute = UnsafeBufferPointer(start: nil, count: 0)
                    }
                    // Step 10: the request-host must domain-match a non-empty Domain attribute. The domain
                    // is the host for a host-only cookie, the attribute otherwise.
                    let isHostOnly = domainAttribute.isEmpty
                    guard isHostOnly || DomainMatch.matches(host: host, hostIsIPAddress: hostIsIPAddress, domain: domainAttribute)
                    else { return .rejected(.domainMismatch) }
                    return receive(
                        parts, line: line, uriPath: uriPath, domain: isHostOnly ? host : domainAttribute,
                        isHostOnly: isHostOnly, expiry: expiry, request: request, partitionKey: partitionKey, now: now)
                }
            }
        }
    }

    /// Steps 11–24 of §5.7 for the line whose UTF-8 is `line` and whose parts are `parts`, received in
    /// `request` from a URL whose path's UTF-8 is `uriPath`, with the domain (UTF-8), host-only-flag and
    /// expiry of steps 6–10 and the partition key (CHIPS; UTF-8, nil for none). The name, value and Path
    /// attribute are read from the line's bytes and the default-path from the request-uri's: Strings are
    /// made only for what the jar keeps and does not hold yet.
    private mutating func receive(
        _ parts: CookieParts, line: UnsafeBufferPointer<UInt8>, uriPath: UnsafeBufferPointer<UInt8>,
        domain: UnsafeBufferPointer<UInt8>, isHostOnly: Bool, expiry: CookieTime?, request: ReceivingRequest,
        partitionKey: UnsafeBufferPointer<UInt8>?, now: CookieTime
    ) -> StorageAction {
        let isSecureOrigin = request.isSecure
        // Step 11: the last Path attribute, or the default-path of the request-uri.
        let path: UnsafeBufferPointer<UInt8>
        if let attribute = parts.path, !attribute.isEmpty {
            path = attribute.bytes(in: line)
        } else {
            path = CookiePath.defaultPath(of: uriPath)
        }

        // Steps 12–13: Secure only from a secure origin.
        if parts.secure, !isSecureOrigin { return .rejected(.secureFromInsecureOrigin) }
        // Steps 14–15: HttpOnly never through a non-HTTP API.
        if parts.httpOnly, request.isNonHTTPAPI { return .rejected(.httpOnlyFromNonHTTPAPI) }

        // The site's slot; its key is read only where it is needed.
        let existingSlot = siteSlot(ofCookieDomain: domain)
        let name = parts.name.bytes(in: line)

        // Step 16: leave Secure cookies alone — an insecure origin cannot set a cookie that would
        // overwrite or shadow a Secure cookie of the same name whose domain domain-matches the new
        // cookie's domain (or the reverse) and whose path the new path path-matches.
        if !parts.secure, !isSecureOrigin,
            shadowsSecureCookie(
                name: name, domain: domain, path: path, site: existingSlot.map { sites[$0].key } ?? siteKey(ofCookieDomain: domain),
                at: existingSlot, now: now)
        {
            return .rejected(.wouldShadowSecureCookie)
        }

        // Steps 17–18: the same-site-flag; cookies other than SameSite=None cannot be set by a cross-site
        // request unless it is a top-level navigation (nor by a non-HTTP API in a cross-site document).
        let sameSite = parts.sameSite ?? .default
        if sameSite != .none, request.refusesSameSiteCookies { return .rejected(.sameSiteFromCrossSite) }
        // Step 19: SameSite=None requires Secure.
        if sameSite == .none, !parts.secure { return .rejected(.sameSiteNoneWithoutSecure) }

        // Step 20: `__Secure-` requires the secure-only-flag.
        if name.caseInsensitivelyStarts(with: "__secure-"), !parts.secure {
            return .rejected(.securePrefixViolation)
        }
        // Step 21: `__Host-` requires Secure, host-only, and a Path attribute whose path is "/".
        if name.caseInsensitivelyStarts(with: "__host-"),
            !(parts.secure && isHostOnly && parts.path != nil && path.count == 1 && path[0] == UInt8(ascii: "/"))
        {
            return .rejected(.hostPrefixViolation)
        }
        // Step 22: a nameless cookie cannot pose as a prefixed one.
        let value = parts.value.bytes(in: line)
        if name.isEmpty, value.caseInsensitivelyStarts(with: "__secure-") || value.caseInsensitivelyStarts(with: "__host-") {
            return .rejected(.namelessWithPrefix)
        }
        // CHIPS §2.1: Partitioned requires Secure.
        if parts.partitioned, !parts.secure { return .rejected(.partitionedWithoutSecure) }

        // The cookie as its site keeps it; the site sets the slots of its strings, and step 24 its times.
        let identity = CookieIdentityBytes(name: name, domain: domain, isHostOnly: isHostOnly, path: path, partitionKey: partitionKey)
        var entry = StoredCookie(
            isHostOnly: isHostOnly, expiry: expiry, creation: now, lastAccess: now, isSecure: parts.secure,
            isHTTPOnly: parts.httpOnly, sameSite: sameSite, isSourceSecure: isSecureOrigin, sourcePort: request.port,
            domain: 0, path: 0, partition: StoredCookie.unpartitioned)
        let isExpired = entry.isExpired(at: now)

        // Step 23: a cookie of the same identity is replaced; the new one keeps its creation time, unless
        // a non-HTTP API would replace an HttpOnly cookie (23.2). An expired old cookie is gone already
        // (it never shadows a newer one), so it lends nothing. Step 24: otherwise the new cookie is
        // inserted. One visit to the site does both. Cookies are read back from the site (whose tables
        // hold their strings) only for the changes, when they are recorded.
        let creation = creationTime(at: now)
        let perSiteLimit = limits.maxCookiesPerSite
        let recordsChanges = self.recordsChanges
        // The changes, in the order the site sees them (an expired cookie of the same identity, removed
        // before the new one is stored; then this line's own change), when changes are recorded: appended
        // to the store's own array, lent to the site's closure (no allocation while it has room).
        var siteChanges: [CookieChange] = []
        if recordsChanges { swap(&siteChanges, &changes) }
        // Where the new cookie was inserted in its site, and whether that site went over its limit.
        var storedAt = 0
        var overLimit = false
        let slot = existingSlot ?? siteSlot(forKey: siteKey(ofCookieDomain: domain))
        let action: StorageAction = withSite(at: slot) { site in
            if let index = site.indexOfCookie(with: identity) {
                let old = site.entries[index]
                if old.isExpired(at: now) {
                    if let expired = site.remove(at: index, returning: recordsChanges) {
                        siteChanges.append(.removed(expired, cause: .expired))
                    }
                } else {
                    if request.isNonHTTPAPI, old.isHTTPOnly { return .rejected(.wouldOverwriteHTTPOnlyCookie) }
                    if isExpired {
                        if let previous = site.remove(at: index, returning: recordsChanges) {
                            siteChanges.append(.removed(previous, cause: .expired))
                        }
                        return .deleted
                    }
                    entry.creation = old.creation
                    let previous = recordsChanges ? site.cookie(at: index) : nil
                    // The pair is known to be ASCII when the whole line is (the site reads it otherwise).
                    site.replace(at: index, with: entry, name: name, value: value, isKnownASCII: parts.isASCII)
                    if let previous { siteChanges.append(.replaced(old: previous, new: site.cookie(at: index))) }
                    return .replaced
                }
            }
            if isExpired { return .expired }
            entry.creation = creation
            entry.lastAccess = creation
            let index = site.insert(entry, value: value, isKnownASCII: parts.isASCII, identity: identity)
            if recordsChanges { siteChanges.append(.added(site.cookie(at: index))) }
            storedAt = index
            overLimit = site.count > perSiteLimit
            return .stored
        }
        if recordsChanges { swap(&siteChanges, &changes) }
        if action == .stored {
            noteCreation(creation)
            // The cookie to keep is read out only when a limit is exceeded.
            if overLimit || count > limits.maxCookies {
                enforceLimits(site: sites[slot].key, keeping: sites[slot].cookie(at: storedAt), now: now)
            }
        }
        return action
    }

    /// §5.7 step 16: is there an unexpired Secure cookie named `name` whose domain domain-matches
    /// `domain` (or the reverse) and whose path `path` path-matches (name and path as UTF-8)? Such cookies
    /// live in the site `key` (at `slot`, nil when it has no cookies), except host-only cookies of
    /// public-suffix hosts above `domain` (their own site), and, when `domain` is itself such a host,
    /// cookies of the sites below it.
    mutating func shadowsSecureCookie(
        name: UnsafeBufferPointer<UInt8>, domain: UnsafeBufferPointer<UInt8>, path: UnsafeBufferPointer<UInt8>,
        site key: String, at slot: Int?, now: CookieTime
    ) -> Bool {
        func shadows(inSiteAt slot: Int?) -> Bool {
            guard let slot else { return false }
            return withSites { $0[slot].hasSecureCookie(shadowedBy: name, domain: domain, path: path, now: now) }
        }
        if shadows(inSiteAt: slot) { return true }
        // Sites named after a public-suffix host above `domain`: a site key is a registrable domain or a
        // host without one, so the hosts between `domain` and `key` are never keys; only those above
        // `key` can be.
        var rest = Substring(key)
        while let dot = rest.utf8.firstIndex(of: UInt8(ascii: ".")) {
            rest = rest[rest.utf8.index(after: dot)...]
            if shadows(inSiteAt: siteSlots[String(rest)]) { return true }
        }
        // `domain` is a host without a registrable domain, or a registrable domain with public suffixes
        // below it ("s3.amazonaws.com" below "amazonaws.com"): sites below it, when there are any.
        if key.hasUTF8(domain), hasSites(below: key) {
            // Byte comparisons (canonical domains are ASCII): a key ending in "." + `domain`.
            return withSites { sites in
                sites.indices.contains { slot in
                    sites[slot].key.utf8.count > domain.count
                        && DomainMatch.matches(host: sites[slot].key, hostIsIPAddress: false, domain: key)
                        && sites[slot].hasSecureCookie(shadowedBy: name, domain: domain, path: path, now: now)
                }
            }
        }
        return false
    }

    /// §5.2: a request is same-site when its site for cookies is not opaque and has the same scheme and
    /// the same registrable domain as the URL (hosts without one must be equal); ports never matter.
    mutating func isCrossSite(_ url: CookieURL, context: CookieRequestContext) -> Bool {
        switch context.siteForCookies {
        case .requestOrigin:
            return false
        case .opaque:
            return true
        case .origin(let origin):
            return origin.scheme != url.scheme || siteKey(of: origin.host) != siteKey(of: url.host)
        }
    }
}

/// What steps 11–24 of §5.7 read of the request a line came with.
struct ReceivingRequest {
    /// The request-uri's scheme is secure (steps 12–13, 16).
    let isSecure: Bool
    /// The request-uri's explicit port, kept as the cookie's source port.
    let port: Int?
    /// A non-HTTP API sets the cookie (steps 14–15, 23.2).
    let isNonHTTPAPI: Bool
    /// Steps 17–18: the request is cross-site and not a top-level navigation through HTTP, so that only
    /// SameSite=None cookies may be set.
    let refusesSameSiteCookies: Bool
}
