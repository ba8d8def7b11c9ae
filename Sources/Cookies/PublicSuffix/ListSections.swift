/// The sections a public suffix list file marks with comments (publicsuffix.org/list wiki "Format": `//
/// ===BEGIN ICANN DOMAINS===` … `// ===END ICANN DOMAINS===`, then the PRIVATE section alike), as its lines
/// are read: a section begun and not ended is a file cut short.
struct ListSections {
    /// The sections begun and not ended yet, in the order they began.
    private var open: [String] = []

    /// The first section begun that did not end, nil when every one did.
    var firstUnended: String? { open.first }

    /// Notes the marker `line` holds, if it is a comment that holds one.
    mutating func note(_ line: UnsafeBufferPointer<UInt8>) {
        guard line.starts(with: "//".utf8) else { return }
        if let name = Self.name(after: "===BEGIN ", in: line) {
            open.append(name)
        } else if let name = Self.name(after: "===END ", in: line) {
            open.removeAll { $0 == name }
        }
    }

    /// The section's name between `marker` and the next "===" of `line`, nil when it holds no such marker.
    private static func name(after marker: String, in line: UnsafeBufferPointer<UInt8>) -> String? {
        guard let markerStart = firstIndex(of: Array(marker.utf8), in: line, from: 0) else { return nil }
        let start = markerStart + marker.utf8.count
        guard let end = firstIndex(of: Array("===".utf8), in: line, from: start) else { return nil }
        return String(decoding: line[start..<end], as: UTF8.self)
    }

    /// Where `needle` first occurs in `bytes` from `start` on.
    private static func firstIndex(of needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
