import Cookies

/// The list a command uses: the list file given with `--psl`, else the jar's default (`SystemPublicSuffixList`:
/// the newest of the compiled-in list and libpsl's). A file with a line that is no rule, comment or blank is
/// refused: it may be no list at all (an error page saved in its place).
func publicSuffixList(file: String?) throws -> any PublicSuffixList {
    guard let file else { return SystemPublicSuffixList.shared }
    let rules: PublicSuffixRules
    do {
        rules = try PublicSuffixRules(contentsOfFile: file)
    } catch {
        throw InputError(description: "\(error)")
    }
    if let line = rules.firstLineNotARule {
        throw InputError(
            description: "\(file):\(line.number): \"\(line.token)\" is no public suffix rule (a domain name, or one after \"*.\" or \"!\"): is the file a public suffix list?")
    }
    return rules
}
