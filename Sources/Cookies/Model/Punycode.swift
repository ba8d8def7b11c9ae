/// Punycode, the Bootstring profile for IDNA (RFC 3492).
///
/// Works on the part of a label after the "xn--" ACE prefix (RFC 5890 §2.3.2.1); adding the prefix is `IDNA`'s job.
/// Encoding only: the jar compares hosts as A-labels and never decodes one (a label that does not decode stays a
/// name of its own). Overflow-safe: arithmetic is checked against `maxint` as RFC 3492 §6.4 requires, and input
/// that would overflow yields nil instead of trapping.
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

    private static func checkedAdd(_ a: Int, _ b: Int) -> Int? {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow || sum > maxInt ? nil : sum
    }

    private static func checkedMultiply(_ a: Int, _ b: Int) -> Int? {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow || product > maxInt ? nil : product
    }
}
