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
]

@Test(arguments: parsingVectors)
func publicSuffixRulesParsing(text: String, domain: String, expected: String?) {
    #expect(PublicSuffixRules(parsing: text).registrableDomain(of: domain) == expected)
}
