/// The single JSON line a driver prints (../shared/bench/README.md, "Driver contract"), fields in order.
struct DriverReport {
    private var fields: [(key: String, json: String)] = []

    mutating func set(_ key: String, _ value: Int) { fields.append((key, String(value))) }
    mutating func set(_ key: String, _ value: Double) { fields.append((key, value.isFinite ? String(value) : "null")) }
    mutating func set(_ key: String, _ value: String) { fields.append((key, DriverReport.quoted(value))) }
    mutating func setNull(_ key: String) { fields.append((key, "null")) }

    mutating func set(_ key: String, samples: [(name: String, seconds: [Double])]) {
        let members = samples.map { DriverReport.quoted($0.name) + ":[" + $0.seconds.map { String($0) }.joined(separator: ",") + "]" }
        fields.append((key, "{" + members.joined(separator: ",") + "}"))
    }

    var line: String {
        "{" + fields.map { DriverReport.quoted($0.key) + ":" + $0.json }.joined(separator: ",") + "}"
    }

    /// A JSON string literal (RFC 8259 §7).
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case _ where scalar.value < 0x20: result += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
