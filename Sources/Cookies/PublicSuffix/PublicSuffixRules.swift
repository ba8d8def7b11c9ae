/// A public suffix list parsed in pure Swift: the compiled-in list (`CompiledPublicSuffixList`), or any list file.
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

    /// A rule: the domain it names (without "!" or "*.") is `names[start..<start + length]`. 32-bit offsets and an
    /// 8-bit length keep an entry at 8 bytes (a list file is far below 4 GiB and a DNS name below 256 bytes).
    private struct Entry: Sendable {
        let start: UInt32
        let length: UInt8
        var kind: Kind
    }

    /// The names of all rules, as A-labels, back to back.
    private let names: [UInt8]
    /// One entry per distinct name.
    private let entries: [Entry]
    /// Open-addressing hash table with linear probing over `entries`: 0 is an empty slot, i + 1 is `entries[i]`.
    /// Its size is a power of two at least twice the number of entries, so probe runs stay short and a lookup
    /// hashes the candidate bytes in place, without allocating.
    private let slots: [UInt32]
    /// Where the rules came from: nil for a list parsed from text in memory.
    public let info: PublicSuffixListInfo?
    /// The first line that is neither a rule, a comment nor blank (its number from 1, and its first token),
    /// nil when there is none: a file that has one may be no list at all (an error page downloaded in its
    /// place), which the parser, skipping such lines, would still take for a list of a few rules.
    package let firstLineNotARule: LineNotARule?

    /// The first section the text begins (`// ===BEGIN ICANN DOMAINS===`) without ending it (`// ===END
    /// ICANN DOMAINS===`), nil when every section begun ends: a list cut short, as a download can be.
    package let unendedSection: String?

    /// A line of a list file that is neither a rule, a comment nor blank.
    package struct LineNotARule: Sendable {
        /// Its number, from 1.
        package let number: Int
        /// Its first token (at most 64 bytes of it).
        package let token: String
    }

    /// Parses `text` in the public suffix list format. Never fails: text without rules gives the list that has only
    /// the implicit "*" rule, under which every single label is a public suffix.
    public init(parsing text: String) {
        self.init(parsing: text, info: nil)
    }

    /// Parses `text`, a list described by `info`.
    init(parsing text: String, info: PublicSuffixListInfo?) {
        var text = text
        self = text.withUTF8 { PublicSuffixRules(parsing: $0, info: info) }
    }

    /// Reads and parses the list at `path` with POSIX `open`/`read`.
    /// Throws `.unreadable` when the file cannot be opened or read (with the system's reason); `.notAList`
    /// when a line is neither a rule, a comment nor blank (an error page or another file saved in the
    /// list's place, whose few lines that read as names would otherwise make a list that protects no
    /// suffix), or when a section it begins does not end (a download cut short: the rules after the cut
    /// would be missing). `.empty` comes first, for a file that holds no rule at all.
    public init(contentsOfFile path: String) throws(PublicSuffixListError) {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.contents(atPath: path, limit: .max)
        } catch {
            throw PublicSuffixListError(code: .unreadable, path: path, reason: error.explanation)
        }
        let info = PublicSuffixListInfo(source: .file, date: FileBytes.modificationTime(atPath: path), path: path)
        self = bytes.withUnsafeBufferPointer { PublicSuffixRules(parsing: $0, info: info) }
        if entries.isEmpty {
            throw PublicSuffixListError(code: .empty, path: path)
        }
        if let incompleteness {
            throw PublicSuffixListError(code: .notAList, path: path, reason: incompleteness)
        }
    }

    /// Why the text parsed is no complete list, nil when it is one: its first line that is neither a rule,
    /// a comment nor blank, or the first section it begins and does not end. `init(contentsOfFile:)`
    /// refuses such a file, and the generator of the compiled-in list such a list.
    @_spi(PublicSuffixListGenerator)
    public var incompleteness: String? {
        if let line = firstLineNotARule {
            return "line \(line.number): \"\(line.token)\" is no public suffix rule (a domain name, or one after \"*.\" or \"!\")"
        }
        if let section = unendedSection {
            return "its \(section) section does not end (no \"===END \(section)===\"): the file was cut short"
        }
        return nil
    }

    /// Parses the list format in `text` (UTF-8; ill-formed sequences only ever reach a rule that IDNA refuses).
    init(parsing text: UnsafeBufferPointer<UInt8>, info: PublicSuffixListInfo?) {
        var names: [UInt8] = []
        var rules: [(start: Int, length: Int, kind: Kind)] = []
        var firstLineNotARule: LineNotARule?
        var sections = ListSections()
        // A byte order mark, which an editor may save in front of UTF-8 text, is no part of the first line.
        var lineStart = text.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var lineNumber = 1
        while lineStart < text.count {
            let lineEnd = text[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? text.count
            let start = names.count
            let line = UnsafeBufferPointer(rebasing: text[lineStart..<lineEnd])
            var isNotARule = false
            if let kind = Self.appendRule(ofLine: line, to: &names, isNotARule: &isNotARule) {
                rules.append((start, names.count - start, kind))
            } else if isNotARule, firstLineNotARule == nil {
                firstLineNotARule = LineNotARule(number: lineNumber, token: Self.firstToken(of: line))
            } else {
                sections.note(line)
            }
            lineStart = lineEnd + 1
            lineNumber += 1
        }
        self.firstLineNotARule = firstLineNotARule
        self.unendedSection = sections.firstUnended

        // The smallest power of two that is at least twice the number of rules (and at least 1).
        let minimumSlots = max(1, rules.count * 2)
        var slots = [UInt32](repeating: 0, count: 1 << (Int.bitWidth - (minimumSlots - 1).leadingZeroBitCount))
        var entries: [Entry] = []
        entries.reserveCapacity(rules.count)
        names.withUnsafeBufferPointer { names in
            for rule in rules {
                let name = UnsafeBufferPointer(rebasing: names[rule.start..<rule.start + rule.length])
                let slot = slots.withUnsafeBufferPointer { slots in
                    entries.withUnsafeBufferPointer { entries in
                        Self.slot(for: name, hash: Self.hash(of: name), slots: slots, entries: entries, names: names)
                    }
                }
                if slots[slot] == 0 {
                    entries.append(Entry(start: UInt32(rule.start), length: UInt8(rule.length), kind: rule.kind))
                    slots[slot] = UInt32(entries.count)
                } else {
                    entries[Int(slots[slot]) - 1].kind.insert(rule.kind)
                }
            }
        }
        self.names = names
        self.entries = entries
        self.slots = slots
        var info = info
        info?.ruleCount = rules.count
        self.info = info
    }

    /// The registrable domain of `domain`, a host name as a URL may write it (any case, Unicode or A-labels,
    /// a trailing dot), canonicalised first (`CanonicalHost`) as `isPublicSuffix(_:)` takes it:
    /// `WWW.Example.CO.UK` gives `example.co.uk`, `www.example.co.uk.` gives `example.co.uk.`. Nil for a
    /// public suffix, an IP address, or a name that is no host.
    public func registrableDomain(of domain: String) -> String? {
        // A name canonical as written (nearly every one asked) is looked up as it is; any other is
        // canonicalised first.
        guard domain.withUTF8Bytes(CanonicalHost.isCanonicalDomainName) else {
            return CanonicalHost(domain).flatMap(registrableDomain(of:))
        }
        return registrableDomain(ofCanonicalDomain: domain)
    }

    /// The offset in `domain` where its registrable domain starts.
    ///
    /// The registrable domain is the label left of the longest public suffix. One pass from the last byte to the
    /// first hashes every suffix on the way (the table hashes names from their last byte, so the hash of a suffix
    /// is the running hash where it starts) and looks up each suffix that starts a label: one probe a label, and
    /// the suffix's parent, needed for a wildcard rule, is the suffix looked up just before.
    public func registrableDomainStart(inUTF8 domain: UnsafeBufferPointer<UInt8>) -> Int? {
        let dot = UInt8(ascii: ".")
        // A name with a leading dot has an empty first label and no registrable domain (as in libpsl).
        guard let first = domain.first, first != dot else { return nil }
        return names.withUnsafeBufferPointer { names in
            slots.withUnsafeBufferPointer { slots in
                entries.withUnsafeBufferPointer { entries in
                    var hash = Self.hashSeed
                    var registrableStart: Int?
                    var parentKind: Kind?
                    var parentIsPublicSuffix = false
                    var isLastLabel = true
                    var index = domain.count
                    while index > 0 {
                        index -= 1
                        let byte = domain[index]
                        if byte != dot {
                            hash = Self.hash(hash, byte)
                            if index > 0 { continue }
                        }
                        // A label starts at `labelStart`: the suffix from there has hash `hash`.
                        let labelStart = byte == dot ? index + 1 : 0
                        if parentIsPublicSuffix { registrableStart = labelStart }
                        let suffix = UnsafeBufferPointer(rebasing: domain[labelStart...])
                        let slot = slots[
                            Self.slot(for: suffix, hash: hash, slots: slots, entries: entries, names: names)]
                        let kind = slot == 0 ? nil : entries[Int(slot) - 1].kind
                        // The last label is a public suffix by the implicit "*" rule; any other suffix when a rule
                        // names it (not an exception) or a wildcard rule hangs from its parent.
                        parentIsPublicSuffix = isLastLabel
                            || (kind.map { !$0.contains(.exception) } ?? parentKind?.contains(.wildcard) ?? false)
                        parentKind = kind
                        isLastLabel = false
                        if byte == dot { hash = Self.hash(hash, byte) }
                    }
                    // The whole domain is a public suffix: it has no registrable domain.
                    return parentIsPublicSuffix ? nil : registrableStart
                }
            }
        }
    }

    /// FNV-1a (a fixed, unseeded hash is enough: the table never changes after loading, so input cannot lengthen
    /// probes), over a name's bytes from its last to its first.
    private static let hashSeed: UInt64 = 0xcbf2_9ce4_8422_2325

    @inline(__always)
    private static func hash(_ hash: UInt64, _ byte: UInt8) -> UInt64 {
        (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }

    /// The hash of `name` (from its last byte to its first).
    private static func hash(of name: UnsafeBufferPointer<UInt8>) -> UInt64 {
        name.reversed().reduce(hashSeed, hash)
    }

    /// The slot that holds `name`, whose hash is `hash`, or the empty slot where it belongs: linear probing.
    @inline(__always)
    private static func slot(
        for name: UnsafeBufferPointer<UInt8>, hash: UInt64, slots: UnsafeBufferPointer<UInt32>,
        entries: UnsafeBufferPointer<Entry>, names: UnsafeBufferPointer<UInt8>
    ) -> Int {
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while slots[index] != 0 {
            let entry = entries[Int(slots[index]) - 1]
            let start = Int(entry.start)
            if UnsafeBufferPointer(rebasing: names[start..<start + Int(entry.length)]).hasSameBytes(as: name) {
                break
            }
            index = (index + 1) & mask
        }
        return index
    }

    /// The rule a line of a list file states, in the form the compiled-in list keeps it: the name as A-labels, after
    /// "!" for an exception rule and "*." for a wildcard rule; nil for a line that states no rule. The list's
    /// generator writes these, so that the compiled-in list holds exactly what this type reads from the same file.
    @_spi(PublicSuffixListGenerator)
    public static func canonicalRule(ofLine line: String) -> String? {
        var line = line
        return line.withUTF8 { line in
            var name: [UInt8] = []
            var isNotARule = false
            guard let kind = appendRule(ofLine: line, to: &name, isNotARule: &isNotARule) else { return nil }
            let prefix = kind == .exception ? "!" : kind == .wildcard ? "*." : ""
            return prefix + String(decoding: name, as: UTF8.self)
        }
    }

    /// Appends the name of the rule that `line` states (its first token; the rest of the line is ignored) to
    /// `names` and returns its kind; returns nil, appending nothing, for a line that states none: a blank
    /// line, a comment, the explicit "*" rule (always implied), and, `isNotARule` set, a first token that is
    /// no rule (a name with a byte no domain name holds, an empty label, a "!" or "*." marker with nothing
    /// after it, a Unicode name that cannot be converted to A-labels, or one longer than a DNS name).
    private static func appendRule(
        ofLine line: UnsafeBufferPointer<UInt8>, to names: inout [UInt8], isNotARule: inout Bool
    ) -> Kind? {
        let token = firstTokenBytes(of: line)
        if token.isEmpty || token.starts(with: "//".utf8) || token.elementsEqual("*".utf8) {
            return nil
        }
        let start = names.count
        guard let kind = appendRule(token, to: &names), names.count - start <= Int(UInt8.max),
            names.withUnsafeBufferPointer({ isDomainName(UnsafeBufferPointer(rebasing: $0[start...])) })
        else {
            names.removeSubrange(start...)
            isNotARule = true
            return nil
        }
        return kind
    }

    /// The first token of `line`: whitespace ends it.
    private static func firstTokenBytes(of line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        let tokenStart = line.firstIndex(where: { !isWhitespace($0) }) ?? line.count
        let tokenEnd = line[tokenStart...].firstIndex(where: isWhitespace) ?? line.count
        return UnsafeBufferPointer(rebasing: line[tokenStart..<tokenEnd])
    }

    /// The first token of `line` as text, at most 64 bytes of it (for a message).
    private static func firstToken(of line: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: firstTokenBytes(of: line).prefix(64), as: UTF8.self)
    }

    /// Appends the name of the rule that `token` (a line's first token, neither empty nor a comment) states to
    /// `names` and returns its kind, or returns nil, appending nothing, for a "!" or "*." marker with nothing
    /// after it, or a Unicode name that cannot be converted to A-labels.
    private static func appendRule(_ token: UnsafeBufferPointer<UInt8>, to names: inout [UInt8]) -> Kind? {
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

    /// True when `name` (A-labels) is a domain name: only the bytes a canonical domain name holds
    /// (`nonCanonicalHostBytes`: lower-case letters, digits, "-", "_" and "."), and no label empty.
    private static func isDomainName(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        !name.isEmpty && name.first != UInt8(ascii: ".") && name.last != UInt8(ascii: ".")
            && name.firstIndex(markedBy: { $0.nonCanonicalHostBytes }) == nil
            && !zip(name, name.dropFirst()).contains { $0 == UInt8(ascii: ".") && $1 == UInt8(ascii: ".") }
    }

    /// The whitespace that ends a rule: space, tab, and the CR of CRLF line ends.
    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
            || byte == 0x0B || byte == 0x0C
    }
}
