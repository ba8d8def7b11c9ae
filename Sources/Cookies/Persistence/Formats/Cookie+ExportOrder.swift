extension Cookie {
    /// `cookies` in the order the writers put them in a file: oldest creation first, so that a reader
    /// which can only number cookies in file order (cookies.txt) keeps their send order (§5.8.3 step 2:
    /// earlier creation first); ties broken by domain, path, name and partition key, so that the same jar
    /// always gives the same file.
    static func inExportOrder(_ cookies: some Sequence<Cookie>) -> [Cookie] {
        let cookies = Array(cookies)
        return exportOrder(of: cookies).map { cookies[$0] }
    }

    /// The indices of `cookies` in export order (see `inExportOrder`): the cookies are compared in place,
    /// where sorting the cookies themselves would copy each (a retain of each of its strings) at every move.
    static func exportOrder(of cookies: [Cookie]) -> [Int] {
        cookies.withUnsafeBufferPointer { cookies in
            guard let first = cookies.baseAddress else { return [] }
            return cookies.indices.sorted { a, b in
                let a = first + a
                let b = first + b
                if a.pointee.creation != b.pointee.creation { return a.pointee.creation < b.pointee.creation }
                return a.pointee.exportTieBreakPrecedes(b.pointee)
            }
        }
    }

    /// Export order between two cookies created at the same instant.
    private func exportTieBreakPrecedes(_ other: Cookie) -> Bool {
        if domain != other.domain { return domain.utf8.lexicographicallyPrecedes(other.domain.utf8) }
        if path != other.path { return path.utf8.lexicographicallyPrecedes(other.path.utf8) }
        if name != other.name { return name.utf8.lexicographicallyPrecedes(other.name.utf8) }
        return (partitionKey ?? "").utf8.lexicographicallyPrecedes((other.partitionKey ?? "").utf8)
    }
}
