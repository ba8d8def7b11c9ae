/// A public suffix list parsed in pure Swift, for platforms without libpsl and for anyone shipping a newer list.
///
/// File format (publicsuffix.org/list wiki "Format"): one rule per line, read only up to the first whitespace;
/// lines starting with "//" are comments; blank lines are ignored. The ICANN and PRIVATE sections are both used.
/// A rule is a normal rule ("co.uk"), a wildcard rule ("*.kawasaki.jp", only the leftmost label may be "*", as in
/// libpsl and the published list) or an exception rule ("!city.kawasaki.jp"). Rules in Unicode are stored as
/// A-labels (RFC 5891 §4.4, via `IDNA.toASCII`) so that lookups work on A-labels.
///
/// Matching follows the publicsuffix.org algorithm (publicsuffix.org/list wiki "Algorithm"): a name is a public
/// suffix when it is a single label (the implicit "*" rule), when a normal rule names it, or when a wildcard rule
/// covers it and no exception rule names it; the registrable domain is the longest public suffix of the domain plus
/// the label to its left. One deliberate refinement, shared with libpsl and browsers: the name a wildcard rule hangs
/// from ("kawasaki.jp" for "*.kawasaki.jp") is a public suffix too. Otherwise a host under one registrant of
/// *.kawasaki.jp could set a cookie for "kawasaki.jp" that every other registrant receives. This keeps the answers
/// identical to `LibPSLList`, so `SystemPublicSuffixList` behaves the same on every platform.
///
/// Lookups hash the candidate suffixes of the domain in place, in its UTF-8 storage, and allocate only the returned
/// string (not even that when the whole domain is the answer).
public struct PublicSuffixRules: PublicSuffixList {
    /// What rules name a domain; one domain can be named by several (e.g. "ck" can have both "ck" and "*.ck").
    private struct Kind: OptionSet, Sendable {
        let rawValue: UInt8
        /// A normal rule names the domain.
        static let normal = Kind(rawValue: 1 << 0)
        /// A wildcard rule "*." + domain: every child of the domain is a public suffix.
        static let wildcard = Kind(rawValue: 1 << 1)
        /// An exception rule "!" + domain: the domain is not a public suffix even though a wildcard covers it.
        static let exception = Kind(rawValue: 1 << 2)
    }

    /// A rule: the domain it names (without "!" or "*.") is `names[start..<start + length]`.
    private struct Entry: Sendable {
        let start: Int
        let length: Int
        var kind: Kind
    }

    /// The names of all rules, as A-labels, back to back.
    private let names: [UInt8]
    /// One entry per distinct name.
    private let entries: [Entry]
    /// Open-addressing hash table with linear probing over `entries`: 0 is an empty slot, i + 1 is `entries[i]`.
    /// Its size is a power of two at least twice the number of entries, so probe runs stay short and a lookup
    /// hashes the candidate bytes in place, without allocating.
    private let slots: [Int]

    /// Parses `text` in the public suffix list format. Never fails: text without rules gives the list that has only
    /// the implicit "*" rule, under which every single label is a public suffix.
    public init(parsing text: String) {
        var text = text
        var names: [UInt8] = []
        var rules: [(start: Int, length: Int, kind: Kind)] = []
        text.withUTF8 { bytes in
            var lineStart = 0
            while lineStart < bytes.count {
                let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                let tokenStart = bytes[lineStart..<lineEnd].firstIndex(where: { !Self.isWhitespace($0) }) ?? lineEnd
                let tokenEnd = bytes[tokenStart..<lineEnd].firstIndex(where: Self.isWhitespace) ?? lineEnd
                let start = names.count
                if let kind = Self.appendRule(UnsafeBufferPointer(rebasing: bytes[tokenStart..<tokenEnd]), to: &names) {
                    rules.append((start, names.count - start, kind))
                }
                lineStart = lineEnd + 1
            }
        }

        // The smallest power of two that is at least twice the number of rules (and at least 1).
        let minimumSlots = max(1, rules.count * 2)
        var slots = [Int](repeating: 0, count: 1 << (Int.bitWidth - (minimumSlots - 1).leadingZeroBitCount))
        var entries: [Entry] = []
        entries.reserveCapacity(rules.count)
        names.withUnsafeBufferPointer { names in
            for rule in rules {
                let name = UnsafeBufferPointer(rebasing: names[rule.start..<rule.start + rule.length])
                let slot = Self.slot(for: name, in: slots, entries: entries, names: names)
                if slots[slot] == 0 {
                    entries.append(Entry(start: rule.start, length: rule.length, kind: rule.kind))
                    slots[slot] = entries.count
                } else {
                    entries[slots[slot] - 1].kind.insert(rule.kind)
                }
            }
        }
        self.names = names
        self.entries = entries
        self.slots = slots
    }

    /// Reads and parses the list at `path` with POSIX `open`/`read`.
    /// Throws `.unreadable` when the file cannot be opened or read, `.empty` when it holds no rule.
    public init(contentsOfFile path: String) throws(PublicSuffixListError) {
        self.init(parsing: try Self.readFile(atPath: path))
        if entries.isEmpty {
            throw PublicSuffixListError(code: .empty, path: path)
        }
    }

    public func registrableDomain(of domain: String) -> String? {
        var contiguous = domain
        guard let start = contiguous.withUTF8(registrableDomainStart) else {
            return nil
        }
        return start == 0 ? domain : String(domain[domain.utf8.index(domain.startIndex, offsetBy: start)...])
    }

    /// The offset in `domain` where its registrable domain starts.
    private func registrableDomainStart(in domain: UnsafeBufferPointer<UInt8>) -> Int? {
        // A name with a leading dot has an empty first label and no registrable domain (as in libpsl).
        guard domain.first != UInt8(ascii: ".") else { return nil }
        return names.withUnsafeBufferPointer { names in
            // Walk from the whole domain towards its last label; the first public suffix met is the longest one.
            // The last label always is one (the "*" rule), so the walk ends there at the latest.
            var registrableStart: Int?
            var suffixStart = 0
            while let dot = domain[suffixStart...].firstIndex(of: UInt8(ascii: ".")) {
                let suffix = UnsafeBufferPointer(rebasing: domain[suffixStart...])
                let parent = UnsafeBufferPointer(rebasing: domain[(dot + 1)...])
                if isPublicSuffix(suffix, parent: parent, names: names) {
                    break
                }
                registrableStart = suffixStart
                suffixStart = dot + 1
            }
            return registrableStart
        }
    }

    /// Whether `name`, whose labels after the first are `parent`, is a public suffix (publicsuffix.org "Algorithm",
    /// with the wildcard refinement described on the type).
    private func isPublicSuffix(
        _ name: UnsafeBufferPointer<UInt8>, parent: UnsafeBufferPointer<UInt8>, names: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        if let kind = kind(of: name, names: names) {
            return !kind.contains(.exception)
        }
        return kind(of: parent, names: names)?.contains(.wildcard) ?? false
    }

    /// What rules name `name`, or nil when none does.
    private func kind(of name: UnsafeBufferPointer<UInt8>, names: UnsafeBufferPointer<UInt8>) -> Kind? {
        let slot = slots[Self.slot(for: name, in: slots, entries: entries, names: names)]
        return slot == 0 ? nil : entries[slot - 1].kind
    }

    /// The slot that holds `name`, or the empty slot where it belongs: linear probing from its FNV-1a hash
    /// (a fixed, unseeded hash is enough: the table never changes after loading, so input cannot lengthen probes).
    private static func slot(
        for name: UnsafeBufferPointer<UInt8>, in slots: [Int], entries: [Entry], names: UnsafeBufferPointer<UInt8>
    ) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while slots[index] != 0 {
            let entry = entries[slots[index] - 1]
            if entry.length == name.count && names[entry.start..<entry.start + entry.length].elementsEqual(name) {
                break
            }
            index = (index + 1) & mask
        }
        return index
    }

    /// Appends the name of the rule that `token` (a line's first token) states to `names` and returns its kind, or
    /// returns nil, appending nothing, for no rule: an empty token, a comment, the explicit "*" rule (it is always
    /// implied), a "!" or "*." marker with nothing after it, or a Unicode rule that cannot be converted to A-labels.
    private static func appendRule(_ token: UnsafeBufferPointer<UInt8>, to names: inout [UInt8]) -> Kind? {
        if token.isEmpty || token.starts(with: "//".utf8) || token.elementsEqual("*".utf8) {
            return nil
        }
        let kind: Kind
        let name: Slice<UnsafeBufferPointer<UInt8>>
        if token.first == UInt8(ascii: "!") {
            kind = .exception
            name = token.dropFirst()
        } else if token.starts(with: "*.".utf8) {
            kind = .wildcard
            name = token.dropFirst(2)
        } else {
            kind = .normal
            name = token[...]
        }
        if name.isEmpty {
            return nil
        }
        if name.allSatisfy({ $0 < 0x80 && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) {
            names.append(contentsOf: name)
        } else if let ascii = IDNA.toASCII(String(decoding: name, as: UTF8.self)) {
            names.append(contentsOf: ascii.utf8)
        } else {
            return nil
        }
        return kind
    }

    /// The whitespace that ends a rule: space, tab, and the CR of CRLF line ends.
    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
            || byte == 0x0B || byte == 0x0C
    }

    /// The contents of the file at `path`, decoded as UTF-8 (ill-formed sequences become U+FFFD).
    private static func readFile(atPath path: String) throws(PublicSuffixListError) -> String {
        do {
            return String(decoding: try FileBytes.contents(atPath: path, limit: .max), as: UTF8.self)
        } catch {
            throw PublicSuffixListError(code: .unreadable, path: path)
        }
    }
}
