/// A cookie as its site keeps it: plain data, so that scanning a site's cookies never touches a reference
/// count. The name and value are a pair in the site's `CookiePairs`; the domain, path and partition key
/// are slots of the site's `InternedStrings`; the flags fit one byte.
///
/// 48 bytes (a jar's memory is mostly these and the pairs): the pair's lengths and the source port are
/// 16-bit, which holds every cookie §5.6 can give (name and value at most 4,096 bytes together, step 5)
/// and every port. A cookie handed over from elsewhere is held to the same bounds
/// (`rejection(nameLength:valueLength:sourcePort:)`).
struct StoredCookie: Sendable, BitwiseCopyable {
    /// The expiry in microseconds; meaningful only with `Flags.persistent`.
    var expiry: Int64
    var creation: CookieTime
    var lastAccess: CookieTime
    var domain: UInt32
    var path: UInt32
    /// `StoredCookie.unpartitioned`, or the slot of the partition key.
    var partition: UInt32
    /// Where the cookie's pair starts in the site's `CookiePairs`, its length, and the length of the
    /// name at its start (0: a nameless cookie, whose pair is its value).
    var pairStart: UInt32 = 0
    var pairLength: UInt16 = 0
    var nameLength: UInt16 = 0
    /// The source port; meaningful only with `Flags.hasSourcePort`.
    var sourcePort: UInt16
    var flags: Flags
    var sameSite: SameSite

    static let unpartitioned = UInt32.max

    struct Flags: OptionSet, Sendable, BitwiseCopyable {
        let rawValue: UInt8
        static let hostOnly = Flags(rawValue: 1 << 0)
        static let secure = Flags(rawValue: 1 << 1)
        static let httpOnly = Flags(rawValue: 1 << 2)
        static let sourceSecure = Flags(rawValue: 1 << 3)
        static let persistent = Flags(rawValue: 1 << 4)
        static let hasSourcePort = Flags(rawValue: 1 << 5)
        /// Every byte of the cookie's name-value pair is ASCII.
        static let asciiPair = Flags(rawValue: 1 << 6)
    }

    @inline(__always) var isHostOnly: Bool { flags.contains(.hostOnly) }
    @inline(__always) var isSecure: Bool { flags.contains(.secure) }
    @inline(__always) var isHTTPOnly: Bool { flags.contains(.httpOnly) }
    @inline(__always) var isPartitioned: Bool { partition != StoredCookie.unpartitioned }

    /// True when the cookie has expired at `now`.
    @inline(__always)
    func isExpired(at now: CookieTime) -> Bool {
        flags.contains(.persistent) && expiry <= now.microsecondsSinceEpoch
    }

    /// The expiry, or nil for a session cookie.
    var expiryTime: CookieTime? {
        flags.contains(.persistent) ? CookieTime(microsecondsSinceEpoch: expiry) : nil
    }

    /// `cookie` with its domain, path and partition key at the given slots.
    init(_ cookie: Cookie, domain: UInt32, path: UInt32, partition: UInt32) {
        self.init(
            isHostOnly: cookie.isHostOnly, expiry: cookie.expiry, creation: cookie.creation,
            lastAccess: cookie.lastAccess, isSecure: cookie.isSecure, isHTTPOnly: cookie.isHTTPOnly,
            sameSite: cookie.sameSite, isSourceSecure: cookie.isSourceSecure, sourcePort: cookie.sourcePort,
            domain: domain, path: path, partition: partition)
    }

    /// A cookie of these fields with its domain, path and partition key at the given slots.
    init(
        isHostOnly: Bool, expiry: CookieTime?, creation: CookieTime, lastAccess: CookieTime, isSecure: Bool,
        isHTTPOnly: Bool, sameSite: SameSite, isSourceSecure: Bool, sourcePort: Int?, domain: UInt32, path: UInt32,
        partition: UInt32
    ) {
        var flags: Flags = []
        if isHostOnly { flags.insert(.hostOnly) }
        if isSecure { flags.insert(.secure) }
        if isHTTPOnly { flags.insert(.httpOnly) }
        if isSourceSecure { flags.insert(.sourceSecure) }
        if expiry != nil { flags.insert(.persistent) }
        if sourcePort != nil { flags.insert(.hasSourcePort) }
        self.expiry = expiry?.microsecondsSinceEpoch ?? 0
        self.creation = creation
        self.lastAccess = lastAccess
        self.sourcePort = UInt16(sourcePort ?? 0)
        self.domain = domain
        self.path = path
        self.partition = partition
        self.flags = flags
        self.sameSite = sameSite
    }

    /// The `Cookie` this is, with its name and value and the strings its slots name.
    func cookie(name: String, value: String, domain: String, path: String, partitionKey: String?) -> Cookie {
        Cookie(
            name: name, value: value, domain: domain, isHostOnly: isHostOnly, path: path, expiry: expiryTime,
            creation: creation, lastAccess: lastAccess, isSecure: isSecure, isHTTPOnly: isHTTPOnly,
            sameSite: sameSite, partitionKey: partitionKey, isSourceSecure: flags.contains(.sourceSecure),
            sourcePort: flags.contains(.hasSourcePort) ? Int(sourcePort) : nil)
    }

    /// Why a cookie of these lengths (UTF-8 bytes) and source port cannot be kept, or nil when it can:
    /// a name and value over 4,096 bytes together, which §5.6 step 5 never lets through (Chromium holds
    /// every cookie to it, whatever its source), or a source port outside 0–65535.
    static func rejection(nameLength: Int, valueLength: Int, sourcePort: Int?) -> CookieRejection? {
        if !ParsedSetCookie.Limits.nameAndValueFit(nameBytes: nameLength, valueBytes: valueLength) { return .nameAndValueTooLong }
        if let sourcePort, !(0...Int(UInt16.max)).contains(sourcePort) { return .invalidSourcePort }
        return nil
    }
}

extension Cookie {
    /// Why `CookieJar.insert(_:)` refuses this cookie, expired or not, or nil when it does not: one no jar
    /// may hold (`LoadedCookie.rejection`: a name and value no `Set-Cookie` line could give, a control
    /// character other than HTAB in the domain or partition key, which §5.6 step 1 never lets through nor
    /// PostgreSQL's text holds as a NUL; sizes and a port out of bounds), one whose path no line's Path
    /// attribute could give (`CookieTextRules.pathRejection`), or one whose domain is not a canonical host,
    /// which no request's host would ever match.
    var insertionRejection: CookieRejection? {
        var rejection: CookieRejection?
        LoadedCookie.withLoaded(self) { rejection = $0.rejection }
        if let rejection = rejection ?? CookieTextRules.pathRejection(path) { return rejection }
        return CanonicalHost(domain)?.name == domain ? nil : .domainNotCanonical
    }

    /// Why `CookieJar.insert(_:)` does not store this cookie, unexpired, or nil: the rules on a cookie's own
    /// attributes refuse it (`CookieAttributeRules`: SameSite=None without Secure, the `__Secure-` and
    /// `__Host-` prefixes, Partitioned without Secure). An expired cookie is never stored: it deletes the
    /// cookie of its identity whatever its attributes.
    var attributeRejection: CookieRejection? {
        name.withUTF8Bytes { name in
            value.withUTF8Bytes { value in
                CookieAttributeRules.rejection(
                    name: name, value: value, isSecure: isSecure, isHostOnly: isHostOnly, hasRootPath: path == "/",
                    sameSite: sameSite, isPartitioned: partitionKey != nil)
            }
        }
    }
}
