extension CookieHeader {
    /// One `Cookie` field value from the `Cookie` fields a request already carries (`fields`, in order)
    /// and the jar's value for the request (`jarValue`): the request's own pairs first, then the jar's
    /// pairs whose name none of the request's own pairs has (the caller chose that cookie's value); nil
    /// when there is no pair at all.
    ///
    /// One field, because "the user agent MUST NOT attach more than one Cookie header field"
    /// (rfc6265bis-22 §5.8.1; RFC 6265 §5.4): HTTP/1.1 has no rule for joining repeated ones, and a
    /// client that sends each field on its own sends several.
    public static func merging(_ fields: some Sequence<String>, with jarValue: String?) -> String? {
        let own = fields.flatMap(parse)
        let names = Set(own.map(\.name))
        let added = jarValue.map(parse)?.filter { !names.contains($0.name) } ?? []
        let pairs = own + added
        return pairs.isEmpty ? nil : serialize(pairs)
    }

    /// The `Cookie` fields `fields` without the pairs named one of `names`, as one field (none when no pair
    /// is left): a request's own cookies once a response changed those (`RedirectChain.receive(_:)`).
    public static func removing(_ names: Set<String>, from fields: [String]) -> [String] {
        guard !names.isEmpty else { return fields }
        let kept = fields.flatMap(parse).filter { !names.contains($0.name) }
        return kept.isEmpty ? [] : [serialize(kept)]
    }
}
