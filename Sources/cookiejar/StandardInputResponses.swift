import Foundation

/// What `explain` reads from standard input: the responses whose Set-Cookie values it explains, in order,
/// and the lines it ignored, which a warning counts.
struct StandardInputResponses {
    /// One response's header block, or the values given without one.
    struct Response {
        /// The status code of its status line; nil without one (fields or values alone).
        var status: Int?
        /// Its Location field values, one a field, in order (for `RedirectChain.follow(status:locations:)`).
        var locations: [String] = []
        /// Its Set-Cookie field values, in order.
        var setCookies: [String] = []
    }

    var responses: [Response] = []
    /// Whether the input had a status line (`HTTP/`): response headers, not fields or values alone.
    var hasStatusLines = false
    /// Lines after the empty line that ends a header block, before any status line: a body.
    var bodyLines = 0
    /// Lines of a header block that are no field (nor a status line, nor a folded continuation).
    var linesNotFields = 0

    /// The warning about the lines ignored, nil when none was.
    var warning: String? {
        func lines(_ count: Int) -> String { "\(count) line\(count == 1 ? "" : "s")" }
        var parts: [String] = []
        if bodyLines > 0 { parts.append(lines(bodyLines) + " after the end of a header block (its body)") }
        if linesNotFields > 0 { parts.append(lines(linesNotFields) + " that \(linesNotFields == 1 ? "is" : "are") no header field") }
        return parts.isEmpty ? nil : "warning: standard input: " + parts.joined(separator: " and ") + " ignored"
    }

    /// The responses of standard input: header blocks (a status line; lines named `Set-Cookie:` and
    /// `Location:`, any case; other fields are skipped; a line starting with whitespace continues the
    /// field before it, obs-fold, which RFC 9112 §5.2 replaces with a space) or else one Set-Cookie value
    /// per non-empty line, a response without status. An empty line ends a header block (RFC 9112 §2.1:
    /// the body follows); after it, only a status line (`HTTP/`) starts another, as `curl -i -L` writes
    /// one for each response. Fields without any status line are one response, an empty line between
    /// them separating them. curl's verbose output (`CurlVerboseOutput`) is read by its response header
    /// lines, its other lines being curl's own or the body. A byte-order mark at the start (an editor's)
    /// is no part of the first line.
    init(reading text: String) {
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
        if CurlVerboseOutput.isVerbose(lines) {
            (lines, bodyLines) = CurlVerboseOutput.responseHeaderLines(of: lines)
        }
        let looksLikeHeaders = lines.first { !$0.isEmpty }.map { $0.hasPrefix("HTTP/") } ?? false
        guard looksLikeHeaders || lines.contains(where: { Explain.valueWithoutFieldName($0) != nil }) else {
            responses = [Response(setCookies: lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty })]
            return
        }
        hasStatusLines = lines.contains { $0.hasPrefix("HTTP/") }
        // Empty lines before the first block are skipped; after a block's end, lines up to the next status
        // line are its body.
        enum Place { case beforeBlocks, inBlock, afterBlock }
        var place = Place.beforeBlocks
        // The current response, from its status line or its first field on: its status and its fields.
        var inResponse = false
        var status: Int?
        var fields: [String] = []
        // Whether a continuation line folds into the current response's last field: not after a status
        // line, nor after the empty line ending a block.
        var folds = false
        var responses: [Response] = []
        func finish() {
            guard inResponse else { return }
            responses.append(
                Response(
                    status: status, locations: fields.compactMap { Explain.value(ofField: "location", in: $0) },
                    setCookies: fields.compactMap(Explain.valueWithoutFieldName)))
        }
        for line in lines {
            if line.hasPrefix("HTTP/") {
                finish()
                inResponse = true
                status = Self.statusCode(ofStatusLine: line)
                fields = []
                place = .inBlock
                folds = false
                continue
            }
            switch place {
            case .beforeBlocks where line.isEmpty: continue
            case .inBlock where line.isEmpty:
                place = hasStatusLines ? .afterBlock : .beforeBlocks
                folds = false
            case .afterBlock where !line.isEmpty: bodyLines += 1
            case .afterBlock: continue
            case .beforeBlocks, .inBlock:
                place = .inBlock
                inResponse = true
                if line.first == " " || line.first == "\t" {
                    guard folds, let last = fields.last else {
                        linesNotFields += 1
                        continue
                    }
                    fields[fields.count - 1] = last + " " + line.trimmingCharacters(in: .whitespaces)
                } else if Self.isFieldLine(line) {
                    fields.append(line)
                    folds = true
                } else {
                    linesNotFields += 1
                }
            }
        }
        finish()
        self.responses = responses
    }

    /// The status code of a status line (RFC 9112 §4: `HTTP-version SP status-code SP [ reason-phrase ]`,
    /// the code three digits); nil when it has none.
    static func statusCode(ofStatusLine line: String) -> Int? {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count > 1, parts[1].count == 3, parts[1].allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(parts[1])
    }

    /// Whether `line` is a header field line: a field name, a token (RFC 9110 §5.1) as a method is, and a
    /// colon.
    private static func isFieldLine(_ line: String) -> Bool {
        guard let colon = line.firstIndex(of: ":") else { return false }
        return HTTPMethod.isValid(String(line[..<colon]))
    }
}
