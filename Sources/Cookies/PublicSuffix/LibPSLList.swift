#if LibPSL && canImport(CLibPSL)
import CLibPSL
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A public suffix list backed by libpsl (https://rockdaboot.github.io/libpsl/), the list Linux distributions keep
/// up to date. Both the ICANN and the PRIVATE sections are used, with the implicit "*" rule.
///
/// libpsl compares bytes: it is case-sensitive and knows nothing of IP literals, so `registrableDomain(of:)`
/// canonicalises the name it is given first, and the jar's question (`registrableDomainStart(inUTF8:)`) is asked
/// with a canonical name. libpsl treats the name a wildcard rule hangs from ("kawasaki.jp"
/// for "*.kawasaki.jp") as a public suffix; `PublicSuffixRules` does the same.
///
/// `@unchecked Sendable`: a `psl_ctx_t` is never modified after `psl_latest`/`psl_load_file`/`psl_builtin` returns
/// it; `psl_registrable_domain` only reads it, so concurrent lookups from any thread are safe, and the context is
/// freed only in `deinit`, when no other reference can exist. The answers already given are kept under a lock.
public final class LibPSLList: PublicSuffixList, @unchecked Sendable {
    /// The answers already given, by domain: a libpsl lookup takes microseconds (it walks the labels through the
    /// list's DAFSA and checks each for IDNA), and the jars sharing this list ask about the same hosts again and
    /// again (every new jar, a server's jar per session). Emptied when it holds `answerLimit` domains; a
    /// domain longer than a DNS name (253 bytes) is answered but not remembered, so that the memory stays
    /// bounded in bytes too.
    private let answers = CookieLock<[String: String?]>([:])
    private static let answerLimit = 16_384

    /// The libpsl context. NULL only if libpsl had neither a list file nor built-in data; libpsl then answers that
    /// every name is a public suffix, which fails closed.
    private let context: OpaquePointer?

    /// The first bytes of a list in libpsl's DAFSA format (psl-make-dafsa: ".DAFSA@PSL_" and the format's
    /// version), which is checked by libpsl alone.
    private static let dafsaMagic = Array(".DAFSA@PSL_".utf8)

    /// libpsl's newest list (`latest()`) or a list file (`init(contentsOfFile:)`), with its date.
    public let info: PublicSuffixListInfo?

    private init(context: OpaquePointer?, info: PublicSuffixListInfo) {
        self.context = context
        self.info = info
    }

    /// The newest list libpsl can find: `psl_latest(NULL)` loads the newest of the distribution's list file and the
    /// built-in data, and may return NULL, in which case the built-in data (`psl_builtin()`) is used.
    public static func latest() -> LibPSLList {
        LibPSLList(
            context: psl_latest(nil) ?? psl_builtin(), info: PublicSuffixListInfo(source: .libpsl, date: latestDate))
    }

    /// When the list `latest()` loads was published, as libpsl itself decides which is newer: the latest of the
    /// built-in data's file time (`psl_builtin_file_time`) and the modification times of the two files
    /// `psl_latest` looks at, the distribution's (`psl_dist_filename`, a DAFSA on Debian) and the list file the
    /// built-in data was made from (`psl_builtin_filename`). Nil when libpsl knows none. Read without loading
    /// the list.
    public static var latestDate: CookieTime? {
        let builtin = psl_builtin_file_time()
        let builtinDate = builtin > 0 ? CookieTime(secondsSinceEpoch: Int64(builtin)) : nil
        let fileDates = [psl_dist_filename(), psl_builtin_filename()].map {
            $0.flatMap { FileBytes.modificationTime(atPath: String(cString: $0)) }
        }
        return ([builtinDate] + fileDates).compactMap { $0 }.max()
    }

    /// Loads the list at `path` (the publicsuffix.org text format or libpsl's DAFSA format) with `psl_load_file`.
    /// Throws `.empty` for a file without rules, `.unreadable` for anything libpsl cannot load, and, for a text
    /// list, `.notAList` for one that is no complete list, as `PublicSuffixRules(contentsOfFile:)` does (libpsl
    /// would take an error page or a download cut short for a list of the few rules it holds).
    public init(contentsOfFile path: String) throws(PublicSuffixListError) {
        if let magic = try? FileBytes.contents(atPath: path, limit: .max, prefix: Self.dafsaMagic.count),
            magic != Self.dafsaMagic
        {
            _ = try PublicSuffixRules(contentsOfFile: path)
        }
        guard let loaded = psl_load_file(path) else {
            // libpsl refuses a zero-length file like any unreadable one; tell the two apart for the message.
            var status = stat()
            let isEmptyFile = stat(path, &status) == 0 && status.st_size == 0
            throw PublicSuffixListError(code: isEmptyFile ? .empty : .unreadable, path: path)
        }
        // Counts are -1 for a DAFSA file, which cannot be empty.
        if psl_suffix_count(loaded) == 0 && psl_suffix_exception_count(loaded) == 0 {
            psl_free(loaded)
            throw PublicSuffixListError(code: .empty, path: path)
        }
        context = loaded
        let suffixes = Int(psl_suffix_count(loaded)), exceptions = Int(psl_suffix_exception_count(loaded))
        info = PublicSuffixListInfo(
            source: .file, date: FileBytes.modificationTime(atPath: path),
            ruleCount: suffixes >= 0 && exceptions >= 0 ? suffixes + exceptions : nil, path: path)
    }

    deinit {
        // The built-in context is static data inside libpsl and must never be freed.
        if let context, context != psl_builtin() {
            psl_free(context)
        }
    }

    /// The registrable domain of `domain`, a host name as a URL may write it (any case, Unicode or A-labels,
    /// a trailing dot), canonicalised first (`CanonicalHost`; libpsl itself is case-sensitive and knows no IP
    /// address). Nil for a public suffix, an IP address, or a name that is no host.
    public func registrableDomain(of domain: String) -> String? {
        CanonicalHost(domain).flatMap(registrableDomain(of:))
    }

    /// The jar's question (`PublicSuffixList`): `domain` is canonical already, and asked of libpsl as it is.
    public func registrableDomainStart(inUTF8 domain: UnsafeBufferPointer<UInt8>) -> Int? {
        Self.start(ofRegistrableDomain: registrableDomain(ofCanonical: String(decoding: domain, as: UTF8.self)), in: domain)
    }

    /// libpsl's answer for a canonical domain, through the bounded cache of answers.
    private func registrableDomain(ofCanonical domain: String) -> String? {
        if let known = answers.withLock({ $0[domain] }) { return known }
        let answer = domain.withCString { cDomain in
            // The result points into `cDomain`, so it is copied before `withCString` returns.
            psl_registrable_domain(context, cDomain).map { String(cString: $0) }
        }
        guard domain.utf8.count <= 253 else { return answer }
        answers.withLock { answers in
            if answers.count >= LibPSLList.answerLimit { answers.removeAll(keepingCapacity: true) }
            answers[domain] = answer
        }
        return answer
    }
}
#endif
