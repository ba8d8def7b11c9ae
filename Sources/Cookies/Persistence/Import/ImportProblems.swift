/// Entry-level problems while reading a file: strict mode throws the first one, lenient mode records
/// each and goes on with the next entry.
struct ImportProblems {
    let isLenient: Bool
    private(set) var skipped: [CookieFileError] = []

    init(lenient: Bool) {
        self.isLenient = lenient
    }

    mutating func skip(_ error: CookieFileError) throws(CookieFileError) {
        guard isLenient else { throw error }
        skipped.append(error)
    }
}
