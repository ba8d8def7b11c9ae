/// The parts of a set-cookie-string that rfc6265bis-22 §5.6 splits at ";" — the name-value-pair (step 2),
/// then each cookie-av of the unparsed-attributes (attribute steps 1–3) — each with the position of its
/// first "=" (step 3, attribute step 4).
///
/// One pass reads the bytes eight at a time, stopping only at ";", "=" and bytes below 0x20 or equal to
/// 0x7F, and finds the CTLs of step 1 on the way: the parts before a CTL are returned, the part holding
/// it throws. The caller reads every part, so a line with a CTL anywhere always ends in that error.
struct SetCookieSegments {
    /// One part: the offsets of its bytes in the line (";" excluded), and of its first "=" (`end` when it
    /// has none).
    struct Segment {
        let start: Int
        let end: Int
        let equals: Int
    }

    private let line: UnsafeBufferPointer<UInt8>
    /// Where the next part starts; past the end (`line.count + 1`) once the last part was returned.
    private var start = 0
    /// The offset of the word whose stops are in `pending`.
    private var wordStart = 0
    /// The high bit of each ";", "=", byte below 0x20 and 0x7F of that word not yet handled.
    private var pending: UInt64 = 0
    /// The offset of the next word to read.
    private var nextWord = 0
    /// Every word read, or-ed together: its high bits tell whether the bytes read so far are ASCII.
    private var wordsRead: UInt64 = 0

    /// True when the line is ASCII; meaningful once every part was read (each byte is in a word read).
    var isASCII: Bool { wordsRead & .highBits == 0 }

    init(_ line: UnsafeBufferPointer<UInt8>) {
        self.line = line
    }

    /// Step 2: the name-value-pair, the bytes up to the first ";" (all of them without one). Read first.
    /// - Throws: `.controlCharacter` when it holds a CTL other than HTAB (step 1).
    @inline(__always)
    mutating func nameValuePair() throws(CookieRejection) -> Segment {
        try segment()
    }

    /// Attribute steps 1–3: the next cookie-av (empty ones included), nil after the last.
    /// - Throws: `.controlCharacter` when it holds a CTL other than HTAB (step 1).
    @inline(__always)
    mutating func nextCookieAV() throws(CookieRejection) -> Segment? {
        guard start <= line.count else { return nil }
        return try segment()
    }

    /// Step 1 for the rest of the line, for a caller that has no use for the remaining parts.
    /// - Throws: `.controlCharacter` when one of them holds a CTL other than HTAB.
    mutating func skipRemainingCookieAVs() throws(CookieRejection) {
        while try nextCookieAV() != nil {}
    }

    /// The part from `start` to the next ";" or the end of the line.
    @inline(__always)
    private mutating func segment() throws(CookieRejection) -> Segment {
        var equals = -1
        var end = line.count
        scan: while let index = nextStop() {
            switch line[index] {
            case UInt8(ascii: ";"):
                end = index
                break scan
            case UInt8(ascii: "="):
                if equals < 0 { equals = index }
            case 0x09:
                break
            default:
                throw .controlCharacter
            }
        }
        let segment = Segment(start: start, end: end, equals: equals < 0 ? end : equals)
        start = end + 1
        return segment
    }

    /// The index of the next ";", "=", byte below 0x20 or 0x7F, nil after the last.
    @inline(__always)
    private mutating func nextStop() -> Int? {
        if pending == 0, !readWordsUntilStop() { return nil }
        let index = wordStart &+ pending.trailingZeroBitCount / 8
        pending &= pending &- 1
        return index
    }

    /// Reads words from `nextWord` on until one holds a stop, into `wordStart` and `pending`; false when
    /// the line ends first. The last word of a line whose length is not a multiple of eight overlaps the
    /// one before it, without the stops already read.
    @inline(__always)
    private mutating func readWordsUntilStop() -> Bool {
        guard nextWord < line.count else { return false }
        let base = line.baseAddress.unsafelyUnwrapped
        var offset = nextWord
        while line.count &- offset >= 8 {
            let word = UInt64.littleEndianWord(at: base, offset: offset)
            wordsRead |= word
            let found = word.setCookieStops
            offset &+= 8
            if found != 0 {
                wordStart = offset &- 8
                pending = found
                nextWord = offset
                return true
            }
        }
        nextWord = offset
        guard offset < line.count else { return false }
        readLastBytes(base)
        return pending != 0
    }

    /// `readWordsUntilStop` for the last (fewer than eight) bytes of the line.
    private mutating func readLastBytes(_ base: UnsafePointer<UInt8>) {
        if line.count >= 8 {
            wordStart = line.count - 8
            let word = UInt64.littleEndianWord(at: base, offset: wordStart)
            wordsRead |= word
            pending = word.setCookieStops & (~0 << ((nextWord - wordStart) * 8))
        } else {
            // A line shorter than a word: its bytes, and the high bit of each as a mask for the rest.
            wordStart = 0
            var word: UInt64 = 0
            var present: UInt64 = 0
            for index in 0..<line.count {
                word |= UInt64(line[index]) << (index * 8)
                present |= 0x80 << (index * 8)
            }
            wordsRead |= word
            pending = word.setCookieStops & present
        }
        nextWord = line.count
    }
}
