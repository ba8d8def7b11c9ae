import Foundation

/// A ratchet file: the case ids known to fail, one per line with its reason (`id  reason`); blank lines
/// and lines starting with `#` are comments; lines end in LF or CRLF. Every line needs a reason of one of
/// three kinds:
/// `bis-22 changed §N: …` (the expectation came from RFC 6265 and rfc6265bis-22 changed it),
/// `contradicts 6265 and bis-22: …` (the expectation contradicts both), or `not yet: …` (work goes on).
struct KnownFailures {
    static let reasonKinds = ["bis-22 changed", "contradicts 6265 and bis-22", "not yet"]

    var reasons: [String: String] = [:]

    static func load(_ path: String) throws -> KnownFailures {
        let data = try InputBytes.file(path)
        var known = KnownFailures()
        for (number, rawLine) in String(decoding: data, as: UTF8.self).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(maxSplits: 1, whereSeparator: { $0 == " " || $0 == "\t" })
            let reason = parts.count == 2 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
            guard reasonKinds.contains(where: { reason.hasPrefix($0) }) else {
                throw InputError(
                    description: "\(path):\(number + 1): the reason must start with one of: \(reasonKinds.joined(separator: ", "))")
            }
            guard known.reasons.updateValue(reason, forKey: String(parts[0])) == nil else {
                throw InputError(description: "\(path):\(number + 1): \(parts[0]) is listed twice")
            }
        }
        return known
    }
}
