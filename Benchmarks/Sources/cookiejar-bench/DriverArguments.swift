/// The command line of a driver of ../shared/bench (its README, "Driver contract"):
/// `--data DIR --reps N --tmp DIR --lookup-budget SECONDS [--phase all|rss-input|rss-jar]`.
struct DriverArguments {
    enum Phase: String {
        case all
        case rssInput = "rss-input"
        case rssJar = "rss-jar"
    }

    var data = "data"
    var reps = 5
    var tmp = "/tmp"
    var lookupBudget = 2.0
    var phase = Phase.all
    /// A `public_suffix_list.dat` to use instead of the default list (`SystemPublicSuffixList`).
    var publicSuffixListPath: String?

    /// Parses `arguments` (without the program name); nil, after printing why, on a bad command line.
    init?(_ arguments: [String]) {
        var index = 0
        while index < arguments.count {
            let name = arguments[index]
            guard index + 1 < arguments.count else {
                printError("missing value after \(name)")
                return nil
            }
            let value = arguments[index + 1]
            switch name {
            case "--data": data = value
            case "--tmp": tmp = value
            case "--psl": publicSuffixListPath = value
            case "--reps":
                guard let reps = Int(value), reps > 0 else { printError("--reps wants a positive number"); return nil }
                self.reps = reps
            case "--lookup-budget":
                guard let budget = Double(value), budget > 0 else { printError("--lookup-budget wants seconds"); return nil }
                lookupBudget = budget
            case "--phase":
                guard let phase = Phase(rawValue: value) else { printError("--phase is all, rss-input or rss-jar"); return nil }
                self.phase = phase
            default:
                printError("unknown option \(name)")
                return nil
            }
            index += 2
        }
    }
}
