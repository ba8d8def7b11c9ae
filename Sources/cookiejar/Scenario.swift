import Cookies
import Foundation

/// One scenario file in the conformance format (`FORMAT.md` of the shared conformance data): a suite of
/// cases, each a list of steps run on a fresh jar; or the PSL vector format.
struct ScenarioSuite: Decodable {
    var cases: [ScenarioCase]

    init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var cases: [ScenarioCase] = []
            while !array.isAtEnd { cases.append(try array.decode(ScenarioCase.self)) }
            self.cases = cases
        } else {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            cases = try container.decode([ScenarioCase].self, forKey: .cases)
        }
    }

    enum CodingKeys: String, CodingKey { case cases }

    /// Reads and decodes `path`; errors name the file and the position.
    static func load(_ path: String) throws -> ScenarioSuite {
        let data = Data(try InputBytes.file(path))
        // An empty file (a failed download, a shell's `>`) is said to be one, as an empty cookie file is.
        guard !data.isEmpty else { throw InputError(description: "\(path): empty file: no cases") }
        do {
            return try JSONDecoder().decode(ScenarioSuite.self, from: data)
        } catch let error as DecodingError {
            throw InputError(description: "\(path): \(describe(error))")
        } catch {
            throw InputError(description: "\(path): \(error)")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            var text = ""
            for key in codingPath {
                if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
            }
            return text.isEmpty ? "top level" : text
        }
        switch error {
        case .dataCorrupted(let context) where context.underlyingError == nil:
            return "\(context.debugDescription) at \(path(context.codingPath))"
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as NSError?)?.userInfo["NSDebugDescription"] as? String
            return "not valid JSON at \(path(context.codingPath)): \(underlying ?? context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "missing \"\(key.stringValue)\" at \(path(context.codingPath))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(context.debugDescription) at \(path(context.codingPath))"
        @unknown default:
            return "\(error)"
        }
    }
}

/// A case: steps on a fresh jar (`steps`), or one PSL vector (`input`/`expected`).
struct ScenarioCase: Decodable {
    var id: String
    var skip: String?
    var steps: [ScenarioStep]?
    /// PSL vectors: the host (or nil) and its expected registrable domain (nil: none).
    var pslInput: String??
    var pslExpected: String??

    enum CodingKeys: String, CodingKey { case id, skip, steps, input, expected }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        skip = try container.decodeIfPresent(String.self, forKey: .skip)
        steps = try container.decodeIfPresent([ScenarioStep].self, forKey: .steps)
        if container.contains(.input) {
            pslInput = .some(try container.decodeIfPresent(String.self, forKey: .input))
            pslExpected = .some(try container.decodeIfPresent(String.self, forKey: .expected))
        }
        if steps == nil && pslInput == nil {
            throw DecodingError.keyNotFound(
                CodingKeys.steps, .init(codingPath: container.codingPath, debugDescription: "a case needs steps"))
        }
    }
}

/// One step: a receive, a request with its expected header, or a jar-content check.
struct ScenarioStep: Decodable {
    enum Action {
        case receive(url: String, setCookie: [String], api: String?, context: ScenarioContext?)
        case request(url: String, api: String?, context: ScenarioContext?, expect: String?)
        case jarContent([String])
    }

    var action: Action
    /// The instant of the step: Unix seconds (may be fractional), within the instants `--at` takes.
    var at: CookieTime?

    enum CodingKeys: String, CodingKey, CaseIterable { case receive, request, expect, jarContent = "jar_content", at }
    enum MessageKeys: String, CodingKey, CaseIterable { case url, setCookie = "set_cookie", api, context }

    init(from decoder: any Decoder) throws {
        // A misspelt member ("expected" for "expect") would leave a step unchecked: refused. "replay" marks
        // a receive that only rebuilds a jar's state (FORMAT.md): read by no runner, but no misspelling.
        try decoder.refuseMembers(otherThan: CodingKeys.self, besides: ["replay"])
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // An instant outside those `--at` takes would be clamped to one the step did not say.
        if let seconds = try container.decodeIfPresent(Double.self, forKey: .at) {
            guard let time = InstantArgument.time(seconds) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .at, in: container,
                    debugDescription: "\"at\" is \(seconds), not an instant from \(InstantArgument.earliest) to \(InstantArgument.latest) Unix seconds")
            }
            at = time
        }
        for key in [CodingKeys.receive, .request] where container.contains(key) {
            try container.superDecoder(forKey: key).refuseMembers(otherThan: MessageKeys.self)
        }
        if container.contains(.receive) {
            let receive = try container.nestedContainer(keyedBy: MessageKeys.self, forKey: .receive)
            action = .receive(
                url: try receive.decode(String.self, forKey: .url),
                setCookie: try receive.decode([String].self, forKey: .setCookie),
                api: try Self.api(in: receive),
                context: try receive.decodeIfPresent(ScenarioContext.self, forKey: .context))
        } else if container.contains(.request) {
            let request = try container.nestedContainer(keyedBy: MessageKeys.self, forKey: .request)
            action = .request(
                url: try request.decode(String.self, forKey: .url),
                api: try Self.api(in: request),
                context: try request.decodeIfPresent(ScenarioContext.self, forKey: .context),
                expect: try container.decodeIfPresent(String.self, forKey: .expect))
        } else if container.contains(.jarContent) {
            action = .jarContent(try container.decode([String].self, forKey: .jarContent))
        } else {
            throw DecodingError.keyNotFound(
                CodingKeys.receive,
                .init(codingPath: container.codingPath, debugDescription: "a step needs receive, request or jar_content"))
        }
        // Only a request has a result to compare (FORMAT.md): "expect" on another step would check nothing.
        if container.contains(.expect) {
            let kind: String? = switch action {
            case .receive: "receive"
            case .jarContent: "jar_content"
            case .request: nil
            }
            if let kind {
                throw DecodingError.dataCorrupted(.init(
                    codingPath: container.codingPath, debugDescription: "\"expect\" is a request step's member, not a \(kind) step's"))
            }
        }
    }

    /// The `api` member of a receive or request (FORMAT.md: "document.cookie" or "non-http", the same
    /// thing), nil when absent. Another value is refused: misspelt, it would make the step an HTTP one.
    private static func api(in message: KeyedDecodingContainer<MessageKeys>) throws -> String? {
        let api = try message.decodeIfPresent(String.self, forKey: .api)
        guard api == nil || api == "document.cookie" || api == "non-http" else {
            throw DecodingError.dataCorruptedError(
                forKey: .api, in: message, debugDescription: "\"\(api!)\" is no api: \"document.cookie\" or \"non-http\"")
        }
        return api
    }
}

/// The optional request context of a receive or request step.
struct ScenarioContext: Decodable {
    /// Absent: the request URL's origin; `.some(nil)`: an opaque origin.
    var siteForCookies: String??
    var topLevelNavigation: Bool?
    var method: String?
    var partition: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case siteForCookies = "site_for_cookies", topLevelNavigation = "top_level_navigation", method, partition
    }

    init(from decoder: any Decoder) throws {
        try decoder.refuseMembers(otherThan: CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.siteForCookies) {
            siteForCookies = .some(try container.decodeIfPresent(String.self, forKey: .siteForCookies))
        }
        topLevelNavigation = try container.decodeIfPresent(Bool.self, forKey: .topLevelNavigation)
        method = try container.decodeIfPresent(String.self, forKey: .method)
        if let method, !HTTPMethod.isValid(method) {
            // A step with no method a request could carry would be evaluated as some other request.
            throw DecodingError.dataCorruptedError(
                forKey: .method, in: container, debugDescription: "\"\(method)\" is no method (an RFC 9110 token)")
        }
        partition = try container.decodeIfPresent(String.self, forKey: .partition)
    }
}

/// Any member name of a JSON object.
private struct MemberName: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension Decoder {
    /// Throws when the object being decoded has a member that is none of `Keys` nor `others`, naming it.
    fileprivate func refuseMembers<Keys: CodingKey & CaseIterable>(otherThan keys: Keys.Type, besides others: Set<String> = []) throws {
        let known = others.union(keys.allCases.map(\.stringValue))
        let members = try container(keyedBy: MemberName.self).allKeys.map(\.stringValue)
        if let unknown = members.filter({ !known.contains($0) }).sorted().first {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "unknown member \"\(unknown)\""))
        }
    }
}
