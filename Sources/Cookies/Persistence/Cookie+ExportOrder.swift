extension Cookie {
    /// `cookies` in the order the writers put them in a file: oldest creation first, so that a reader
    /// which can only number cookies in file order (cookies.txt) keeps their send order (§5.8.3 step 2:
    /// earlier creation first); ties broken by domain, path, name and partition key, so that the same jar
    /// always gives the same file.
    static func inExportOrder(_ cookies: some Sequence<Cookie>) -> [Cookie] {
        cookies.sorted { a, b in
            if a.creation != b.creation { return a.creation < b.creation }
            if a.domain != b.domain { return a.domain.utf8.lexicographicallyPrecedes(b.domain.utf8) }
            if a.path != b.path { return a.path.utf8.lexicographicallyPrecedes(b.path.utf8) }
            if a.name != b.name { return a.name.utf8.lexicographicallyPrecedes(b.name.utf8) }
            return (a.partitionKey ?? "").utf8.lexicographicallyPrecedes((b.partitionKey ?? "").utf8)
        }
    }
}
