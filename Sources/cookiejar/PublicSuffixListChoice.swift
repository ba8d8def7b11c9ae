import Cookies

/// The list a command uses: the list file given with `--psl`, else the jar's default (`SystemPublicSuffixList`:
/// the newest of the compiled-in list and libpsl's). A file that is no complete list (a line that is no rule,
/// comment or blank: an error page saved in its place; a section that does not end: a download cut short) is
/// refused, as `PublicSuffixRules(contentsOfFile:)` refuses it.
func publicSuffixList(file: String?) throws -> any PublicSuffixList {
    guard let file else { return SystemPublicSuffixList.shared }
    do {
        return try PublicSuffixRules(contentsOfFile: file)
    } catch {
        throw InputError(description: "\(error)")
    }
}
