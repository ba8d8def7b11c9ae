import Foundation
import Testing

/// The code in the documentation compiles and runs: every ```swift block of an article in the DocC
/// catalogs (Sources/*/*.docc) appears, line by line and in order, in the test file the article names
/// in its comment `<!-- Code: PATH -->`, which compiles and runs it (other lines, the checks, may come
/// between; `import` lines sit at the top of the file). An article with code and no such file fails.
struct DocumentationCodeTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static var articles: [String] {
        let sources = packageRoot.appendingPathComponent("Sources").path
        let files = FileManager.default.enumerator(atPath: sources)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.contains(".docc/") && $0.hasSuffix(".md") }.sorted()
    }

    /// The trimmed, non-empty lines of each ```swift block of `markdown`, `import` lines left out.
    static func swiftBlocks(_ markdown: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
            } else if current != nil, trimmed == "```" {
                blocks.append(current!)
                current = nil
            } else if current != nil, !trimmed.isEmpty, !trimmed.hasPrefix("import ") {
                current!.append(trimmed)
            }
        }
        return blocks
    }

    @Test func theCatalogsHaveArticles() {
        #expect(Self.articles.contains("Cookies/Cookies.docc/GettingStarted.md"))
        #expect(Self.articles.contains("CookiesFoundation/CookiesFoundation.docc/HybridAppSignIn.md"))
    }

    @Test(arguments: articles)
    func everyBlockIsInTheTestThatRunsIt(_ article: String) throws {
        let markdown = try String(contentsOf: Self.packageRoot.appendingPathComponent("Sources/" + article), encoding: .utf8)
        let blocks = Self.swiftBlocks(markdown)
        guard !blocks.isEmpty else { return }
        let marker = try #require(markdown.range(of: "<!-- Code: "), "\(article) has code but names no test that runs it")
        let path = String(markdown[marker.upperBound...].prefix { $0 != " " && $0 != "\n" })
        let test = try String(contentsOf: Self.packageRoot.appendingPathComponent(path), encoding: .utf8)
        var lines = test.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }[...]
        for (number, block) in blocks.enumerated() {
            for line in block {
                guard let found = lines.firstIndex(of: line) else {
                    Issue.record("\(article), block \(number + 1): \"\(line)\" is not in \(path) (after the lines before it)")
                    return
                }
                lines = lines[(found + 1)...]
            }
        }
    }
}
