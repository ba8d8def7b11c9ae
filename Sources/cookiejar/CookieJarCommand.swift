import ArgumentParser

@main
struct CookieJarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cookiejar",
        abstract: "Inspect, explain and replay HTTP cookies (RFC 6265bis).",
        subcommands: [Replay.self]
    )
}
