import Testing
@testable import Cookies

/// Parsing details of the list format, publicsuffix.org/list wiki "Format": one rule per line, only the first
/// whitespace-delimited token counts, "//" starts a comment line, blank lines are ignored, "*" is always implied.
private let parsingVectors: [(text: String, domain: String, expected: String?)] = [
    // No rules at all: only the implicit "*" rule.
    ("", "example.co.uk", "co.uk"),
    ("", "com", nil),
    // CRLF line ends.
    ("co.uk\r\ncom\r\n", "www.example.co.uk", "example.co.uk"),
    // A comment line is not a rule, even when its text looks like one.
    ("// co.uk\n", "example.co.uk", "co.uk"),
    // Blank and whitespace-only lines.
    ("\n \t\n\nco.uk", "example.co.uk", "example.co.uk"),
    // Trailing text after the rule.
    ("co.uk example.co.uk\n", "www.example.co.uk", "example.co.uk"),
    // An explicit "*" rule changes nothing.
    ("*\n", "example.com", "example.com"),
    // A rule in upper case is compared in lower case.
    ("CO.UK\n", "example.co.uk", "example.co.uk"),
    // A Unicode rule matches its A-label form.
    ("公司.cn\n", "xn--85x722f.xn--55qx5d.cn", "xn--85x722f.xn--55qx5d.cn"),
    ("公司.cn\n", "xn--55qx5d.cn", nil),
    // A wildcard and an exception rule in Unicode.
    ("*.рф\n!пример.рф\n", "www.xn--e1afmkfd.xn--p1ai", "xn--e1afmkfd.xn--p1ai"),
    ("*.рф\n!пример.рф\n", "www.other.xn--p1ai", "www.other.xn--p1ai"),
    // Markers with nothing after them are not rules.
    ("!\n*.\n", "example.com", "example.com"),
    // A byte order mark in front of the text is no part of its first line, which is still a rule.
    ("\u{FEFF}co.uk\n", "www.example.co.uk", "example.co.uk"),
]

@Test(arguments: parsingVectors)
func publicSuffixRulesParsing(text: String, domain: String, expected: String?) {
    #expect(PublicSuffixRules(parsing: text).registrableDomain(of: domain) == expected)
}

/// The first line that is neither a rule, a comment nor blank, which a parser that skips such lines would
/// pass over: what tells a list file from an error page saved in its place (its number from 1, its first
/// token). A rule names a domain (publicsuffix.org/list wiki "Format": labels of letters, digits and
/// hyphens, "_" as the published list has it in PRIVATE rules; Unicode ones as A-labels), after "*." or
/// "!"; the explicit "*" rule, comments and blank lines are no rule but belong.
struct LineNotARuleRow: Sendable, CustomTestStringConvertible {
    var text: String
    /// The line's number and first token; 0 and "" for none.
    var number = 0
    var token = ""
    var why: String
    var testDescription: String { why }
}

private let linesNotARule: [LineNotARuleRow] = [
    LineNotARuleRow(text: "com\n// c\n\n*.kawasaki.jp\n!city.kawasaki.jp\n*\n公司.cn\n_dmarc.example\n", why: "rules, comments, blank lines and \"*\""),
    LineNotARuleRow(text: "com\r\nco.uk\r\n", why: "CRLF line ends"),
    LineNotARuleRow(text: "\u{FEFF}// ===BEGIN ICANN DOMAINS===\ncom\n// ===END ICANN DOMAINS===\n",
                    why: "a byte order mark in front of the first line (an editor's UTF-8 with BOM): no part of the line"),
    LineNotARuleRow(text: "com\n<!DOCTYPE html>\n<html><body>404</body></html>\n", number: 2, token: "<!DOCTYPE", why: "an HTML page: \"<\" is in no domain name"),
    LineNotARuleRow(text: "a..b\n", number: 1, token: "a..b", why: "an empty label"),
    LineNotARuleRow(text: ".com\n", number: 1, token: ".com", why: "a leading dot"),
    LineNotARuleRow(text: "com.\n", number: 1, token: "com.", why: "a trailing dot"),
    LineNotARuleRow(text: "com\n!\n", number: 2, token: "!", why: "an exception marker with nothing after it"),
    LineNotARuleRow(text: "*.\n", number: 1, token: "*.", why: "a wildcard marker with nothing after it"),
    LineNotARuleRow(text: "foo=bar\n", number: 1, token: "foo=bar", why: "\"=\" is in no domain name"),
]

@Test(arguments: linesNotARule)
func firstLineNotARule(_ row: LineNotARuleRow) {
    let found = PublicSuffixRules(parsing: row.text).firstLineNotARule
    #expect(found?.number ?? 0 == row.number && found?.token ?? "" == row.token)
}
