/// curl's verbose output (`curl -v`, on standard error, piped with `2>&1`): every line curl writes of its
/// own starts with a marker and a space: "< " a line of a response's header block as received (its status
/// line, its fields, the empty line ending it), "> " one of the request's, "* " information (a connection,
/// a redirect followed), "{ " and "} " data received and sent (TLS records, the body's size). A line
/// without one is the body, which curl writes to standard output.
enum CurlVerboseOutput {
    /// Whether `lines` are curl's verbose output: one of them is a response's status line, marked "< ".
    static func isVerbose(_ lines: [String]) -> Bool {
        lines.contains { $0.hasPrefix("< HTTP/") }
    }

    /// The response header lines of `lines` (curl's verbose output), their marker taken off, and how many
    /// lines were the body (no line of curl's own). A "<" alone is the empty line that ends a block, its
    /// space lost (an editor or a terminal's copy drops trailing spaces). The request's lines, the
    /// information and the data lines are left out.
    static func responseHeaderLines(of lines: [String]) -> (lines: [String], bodyLines: Int) {
        var headerLines: [String] = []
        var bodyLines = 0
        for line in lines {
            if line == "<" {
                headerLines.append("")
            } else if line.hasPrefix("< ") {
                headerLines.append(String(line.dropFirst(2)))
            } else if !isCurlsOwn(line), !line.isEmpty {
                bodyLines += 1
            }
        }
        return (headerLines, bodyLines)
    }

    /// Whether `line` is one curl writes of its own in verbose output: a marker ("<", ">", "*", "{", "}")
    /// alone or followed by a space.
    private static func isCurlsOwn(_ line: String) -> Bool {
        guard let marker = line.first, "<>*{}".contains(marker) else { return false }
        return line.count == 1 || line.dropFirst().first == " "
    }
}
