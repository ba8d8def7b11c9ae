// Test helper: an instance of a fleet writing one jar in PostgreSQL (PGHOST, PGPORT, PGUSER, PGDATABASE),
// printing a line to standard output after each flush that returned.
//
//   PostgresWriter receive SCHEMA JAR TAG COUNT
//       COUNT changes, in requests of 10 (the jar asked for at each, flushed at its end): cookie TAG-i set
//       (Max-Age 1 h) on site i % 20, except every fifth change, which deletes the cookie set just before
//       (Max-Age=0). Prints "set NAME" / "deleted NAME" for each change a flush made durable.
//   PostgresWriter same SCHEMA JAR TAG COUNT
//       COUNT changes, each a request of its own (the jar asked for, one line received, flushed): cookie
//       shared-(i % 5) set to TAG-i. Prints "set shared-K TAG-i" after each flush.
//   PostgresWriter batches SCHEMA JAR TAG
//       Forever (until killed): batch n sets 10 cookies TAG-n-k (on a site of the batch's own) whose value
//       is n, flushes them together, prints "acked n".
import Cookies
import CookiesPostgres

#if canImport(Glibc)
import Glibc
#endif

/// Prints `line` at once (standard output is a pipe: no buffering, so that a kill loses no line printed).
func say(_ line: String) {
    var line = line + "\n"
    line.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
}

let arguments = CommandLine.arguments
guard arguments.count >= 5, ["receive", "same", "batches"].contains(arguments[1]) else {
    say("usage: PostgresWriter receive SCHEMA JAR TAG COUNT | same SCHEMA JAR TAG COUNT | batches SCHEMA JAR TAG")
    exit(2)
}
let (mode, schema, jarID, tag) = (arguments[1], arguments[2], arguments[3], arguments[4])
var configuration = PostgresCookieJars.Configuration.environment()
configuration.schema = schema
configuration.writeOptions.flushDelay = nil
let jars = try PostgresCookieJars(configuration)

func url(site: Int) -> CookieURL { CookieURL("https://site\(site).example/")! }

func url(site: String) -> CookieURL { CookieURL("https://\(site).example/")! }

if mode == "receive" {
    let count = Int(arguments[5]) ?? 0
    var unacknowledged: [String] = []
    var jar = try jars.jar(jarID)
    for i in 0..<count {
        if i % 10 == 0 { jar = try jars.jar(jarID) }
        if i % 5 == 4 {
            jar.receive("\(tag)-\(i - 1)=gone; Max-Age=0", from: url(site: (i - 1) % 20))
            unacknowledged.append("deleted \(tag)-\(i - 1)")
        } else {
            jar.receive("\(tag)-\(i)=v\(i); Max-Age=3600", from: url(site: i % 20))
            unacknowledged.append("set \(tag)-\(i)")
        }
        if i % 10 == 9 || i == count - 1 {
            try jars.flush(jarID)
            for line in unacknowledged { say(line) }
            unacknowledged.removeAll()
        }
    }
    try jars.shutDown()
} else if mode == "same" {
    for i in 0..<(Int(arguments[5]) ?? 0) {
        try jars.jar(jarID).receive("shared-\(i % 5)=\(tag)-\(i); Max-Age=3600", from: url(site: 0))
        try jars.flush(jarID)
        say("set shared-\(i % 5) \(tag)-\(i)")
    }
    try jars.shutDown()
} else {
    var batch = 0
    while true {
        let jar = try jars.jar(jarID)
        for k in 0..<10 { jar.receive("\(tag)-\(batch)-\(k)=\(batch); Max-Age=3600", from: url(site: "\(tag)-\(batch)")) }
        try jars.flush(jarID)
        say("acked \(batch)")
        batch += 1
    }
}
