/// Punycode, the Bootstring profile for IDNA (RFC 3492).
///
/// Works on the part of a label after the "xn--" ACE prefix (RFC 5890 §2.3.2.1); adding and removing the prefix is
/// `IDNA`'s job. Both directions are overflow-safe: arithmetic is checked against `maxint` as RFC 3492 §6.4 requires,
/// and any input that would overflow, or that is not valid Punycode, yields nil instead of trapping.
enum Punycode {
    // Parameter values for Punycode, RFC 3492 §5.
    private static let base = 36
    private static let tMin = 1
    private static let tMax = 26
    private static let skew = 38
    private static let damp = 700
    private static let initialBias = 72
    private static let initialN = 0x80
    private static let delimiter = UInt8(ascii: "-")

    /// The largest integer the algorithm may hold: RFC 3492 §6.4 requires detecting overflow of an unsigned 32-bit
    /// `maxint`; every Unicode scalar value and every valid delta fits well below it.
    private static let maxInt = Int(UInt32.max)

    /// Encodes `scalars` (RFC 3492 §6.3). Basic code points are copied as they are (case included); digits are
    /// written in lower case. Returns nil when a delta overflows `maxint`.
    static func encode(_ scalars: some Collection<Unicode.Scalar>) -> String? {
        var output: [UInt8] = []
        output.reserveCapacity(scalars.count + 8)
        for scalar in scalars where scalar.isASCII {
            output.append(UInt8(truncatingIfNeeded: scalar.value))
        }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 {
            output.append(delimiter)
        }

        let inputCount = scalars.count
        var n = initialN
        var delta = 0
        var bias = initialBias
        while handled < inputCount {
            // The smallest code point not yet handled; one exists because handled < inputCount.
            var m = maxInt
            for scalar in scalars where Int(scalar.value) >= n && Int(scalar.value) < m {
                m = Int(scalar.value)
            }
            guard let step = checkedMultiply(m - n, handled + 1), let increased = checkedAdd(delta, step) else {
                return nil
            }
            delta = increased
            n = m
            for scalar in scalars {
                let c = Int(scalar.value)
                if c < n {
                    guard let next = checkedAdd(delta, 1) else { return nil }
                    delta = next
                }
                if c == n {
                    // Represent delta as a generalized variable-length integer (RFC 3492 §3.3).
                    var q = delta
                    var k = base
                    while true {
                        let t = threshold(k, bias: bias)
                        if q < t { break }
                        output.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digit(q))
                    bias = adapt(delta: delta, numPoints: handled + 1, firstTime: handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes `label` (RFC 3492 §6.2). Digits are case-insensitive. Returns nil for non-ASCII input, a basic code
    /// point sequence with a non-basic member, an invalid or truncated digit sequence, a result that is not a Unicode
    /// scalar value (surrogates, > U+10FFFF), or overflow.
    static func decode(_ label: Substring) -> String? {
        let bytes = label.utf8
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }

        // Basic code points: everything before the last delimiter, if there is one.
        var output: [Unicode.Scalar] = []
        var position = bytes.startIndex
        if let lastDelimiter = bytes.lastIndex(of: delimiter) {
            for byte in bytes[..<lastDelimiter] {
                output.append(Unicode.Scalar(byte))
            }
            position = bytes.index(after: lastDelimiter)
        }

        var n = initialN
        var i = 0
        var bias = initialBias
        while position != bytes.endIndex {
            let oldI = i
            var w = 1
            var k = base
            while true {
                guard position != bytes.endIndex, let value = digitValue(bytes[position]) else { return nil }
                position = bytes.index(after: position)
                guard let step = checkedMultiply(value, w), let increased = checkedAdd(i, step) else { return nil }
                i = increased
                let t = threshold(k, bias: bias)
                if value < t { break }
                guard let widened = checkedMultiply(w, base - t) else { return nil }
                w = widened
                k += base
            }
            let count = output.count + 1
            bias = adapt(delta: i - oldI, numPoints: count, firstTime: oldI == 0)
            guard let advanced = checkedAdd(n, i / count) else { return nil }
            n = advanced
            i %= count
            guard let scalar = Unicode.Scalar(UInt32(clamping: n)), !scalar.isASCII else {
                return nil
            }
            output.insert(scalar, at: i)
            i += 1
        }
        var result = ""
        result.unicodeScalars.append(contentsOf: output)
        return result
    }

    /// Bias adaptation function, RFC 3492 §6.1.
    private static func adapt(delta: Int, numPoints: Int, firstTime: Bool) -> Int {
        var delta = firstTime ? delta / damp : delta / 2
        delta += delta / numPoints
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (((base - tMin + 1) * delta) / (delta + skew))
    }

    /// The threshold t for position k, clamped to [tmin, tmax] (RFC 3492 §6.2 and §6.3).
    private static func threshold(_ k: Int, bias: Int) -> Int {
        if k <= bias { return tMin }
        if k >= bias + tMax { return tMax }
        return k - bias
    }

    /// The basic code point for digit value `d` (0–25 are "a"–"z", 26–35 are "0"–"9"), RFC 3492 §5.
    private static func digit(_ d: Int) -> UInt8 {
        d < 26 ? UInt8(ascii: "a") + UInt8(d) : UInt8(ascii: "0") + UInt8(d - 26)
    }

    /// The digit value of a basic code point, either case, or nil when it is not a digit (RFC 3492 §5).
    private static func digitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(byte - UInt8(ascii: "a"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(byte - UInt8(ascii: "A"))
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0")) + 26
        default: nil
        }
    }

    private static func checkedAdd(_ a: Int, _ b: Int) -> Int? {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow || sum > maxInt ? nil : sum
    }

    private static func checkedMultiply(_ a: Int, _ b: Int) -> Int? {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow || product > maxInt ? nil : product
    }
}
