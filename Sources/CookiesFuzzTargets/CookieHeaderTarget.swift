import Cookies

extension FuzzTarget {
    /// The `Cookie` header (rfc6265bis-22 §4.2.1, §5.8.3 step 4): parse → serialize → parse is stable.
    ///
    /// A nameless pair is sent as its value alone (§5.8.3 step 4), so one whose value holds "=" reads
    /// back as what its value reads as ("a=b" a named pair, "=b" the nameless "b", "=" nothing); every
    /// other pair reads back as itself.
    static let cookieHeader = FuzzTarget(name: "cookie-header") { input throws(InvariantViolation) in
        let target = "cookie-header"
        let pairs = CookieHeader.parse(String(decoding: input, as: UTF8.self))
        for pair in pairs {
            try require(!pair.name.isEmpty || !pair.value.isEmpty, target, "a pair with empty name and value")
            try require(!(pair.name + pair.value).utf8.contains(UInt8(ascii: ";")), target, "a pair holds \";\"")
        }
        let again = CookieHeader.parse(CookieHeader.serialize(pairs))
        let expected = pairs.flatMap { pair in
            pair.name.isEmpty && pair.value.utf8.contains(UInt8(ascii: "=")) ? CookieHeader.parse(pair.value) : [pair]
        }
        try require(again == expected, target, "parse → serialize → parse changes the pairs")
    }
}
