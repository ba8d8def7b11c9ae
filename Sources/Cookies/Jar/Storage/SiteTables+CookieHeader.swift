// The `Cookie` header written straight from a site's storage: the entries give the pairs' lengths, the
// pair buffer their bytes, so a header is measured and copied without a String per cookie, then made a
// String or appended to a caller's bytes.

extension SiteTables {
    /// The `Cookie` header carrying the cookies at `sent` (§5.8.3 step 4) as a String: written into a
    /// buffer (`HeaderScratch`) and from there taken by the String as the well-formed UTF-8 it is. `sent`
    /// is not empty (no cookie, no header: §5.8.3 step 4).
    func cookieHeader(sending sent: UnsafeBufferPointer<Int32>) -> String {
        let (length, isASCII) = headerLength(sending: sent)
        return HeaderScratch.withBytes(count: length) { buffer in
            writeHeader(sending: sent, to: buffer.baseAddress!)
            return String(wellFormedUTF8: UnsafeBufferPointer(buffer), isASCII: isASCII)
        }
    }

    /// Appends the `Cookie` header carrying the cookies at `sent` to `header`, written in place where the
    /// standard library lends an array's new capacity (`OutputSpan`, Swift 6.2 runtimes), else through
    /// `HeaderScratch`. `sent` is not empty.
    func appendCookieHeader(sending sent: UnsafeBufferPointer<Int32>, to header: inout [UInt8]) {
        let length = headerLength(sending: sent).length
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            header.append(addingCapacity: length) { output in
                output.withUnsafeMutableBufferPointer { buffer, initialized in
                    writeHeader(sending: sent, to: buffer.baseAddress!)
                    initialized = length
                }
            }
        } else {
            HeaderScratch.withBytes(count: length) { buffer in
                writeHeader(sending: sent, to: buffer.baseAddress!)
                header.append(contentsOf: buffer)
            }
        }
    }

    /// The length of the header carrying the cookies at `sent`, measured from the entries, and whether it
    /// is all ASCII.
    @inline(__always)
    private func headerLength(sending sent: UnsafeBufferPointer<Int32>) -> (length: Int, isASCII: Bool) {
        var length = 2 * (sent.count - 1)
        var isASCII = true
        for index in sent {
            length += Int(entries[Int(index)].pairLength)
            isASCII = isASCII && entries[Int(index)].flags.contains(.asciiPair)
        }
        return (length, isASCII)
    }

    /// Writes the header carrying the cookies at `sent` to `base`, which has room for its length
    /// (`headerLength`): their pairs (`name=value`, the value alone for a nameless cookie) joined by "; ".
    @inline(__always)
    private func writeHeader(sending sent: UnsafeBufferPointer<Int32>, to base: UnsafeMutablePointer<UInt8>) {
        // An empty pair buffer may lend no address; every pair is then empty, and nothing is read from
        // the stand-in.
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
    }
}
