import Cookies

/// The list a command uses: the list file given with `--psl`, else the jar's default (`SystemPublicSuffixList`:
/// the newest of the compiled-in list and libpsl's).
func publicSuffixList(file: String?) throws -> any PublicSuffixList {
    guard let file else { return SystemPublicSuffixList.shared }
    do {
        return try PublicSuffixRules(contentsOfFile: file)
    } catch {
        throw InputError(description: "\(error)")
    }
}
