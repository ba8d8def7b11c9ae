// The `Cookie` header written straight from a site's storage: the entries give the pairs' lengths, the
// pair buffer their bytes, so a header is measured and copied without a String per cookie.

extension SiteTables {
    /// The `Cookie` header carrying the cookies at `sent` (§5.8.3 step 6): their pairs (`name=value`, the
    /// value alone for a nameless cookie) joined by "; ", measured from the entries, copied into a buffer
    /// (`HeaderScratch`) and from there into the String, which takes the bytes as the well-formed UTF-8
    /// they are. `sent` is not empty (no cookie, no header: §5.8.3 step 6).
    func cookieHeader(sending sent: UnsafeBufferPointer<Int32>) -> String {
        var length = 2 * (sent.count - 1)
        var isASCII = true
        for index in sent {
            length += Int(entries[Int(index)].pairLength)
            isASCII = isASCII && entries[Int(index)].flags.contains(.asciiPair)
        }
        return HeaderScratch.withBytes(count: length) { buffer in
            let base = buffer.baseAddress!
            // An empty pair buffer may lend no address; every pair is then empty, and nothing is read
            // from the stand-in.
            let pairBytes = pairs.baseAddress ?? UnsafePointer(base)
            var offset = 0
            for (position, index) in sent.enumerated() {
                if position > 0 {
                    base[offset] = UInt8(ascii: ";")
                    base[offset + 1] = UInt8(ascii: " ")
                    offset += 2
                }
                let entry = entries[Int(index)]
                let pairLength = Int(entry.pairLength)
                copyBytes(from: pairBytes + Int(entry.pairStart), to: base + offset, count: pairLength)
                offset += pairLength
            }
            return String(wellFormedUTF8: UnsafeBufferPointer(buffer), isASCII: isASCII)
        }
    }
}
