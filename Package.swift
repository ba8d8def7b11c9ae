// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "swift-cookiejar",
    products: [
        .library(name: "Cookies", targets: ["Cookies"]),
        .library(name: "CookiesFoundation", targets: ["CookiesFoundation"]),
        // Jars of a fleet of servers in one PostgreSQL database. Built only with the Postgres trait, so that a
        // package depending on Cookies alone never compiles SwiftNIO or PostgresNIO.
        .library(name: "CookiesPostgres", targets: ["CookiesPostgres"]),
        .executable(name: "cookiejar", targets: ["cookiejar"]),
    ],
    traits: [
        .trait(
            name: "LibPSL",
            description: """
                Link libpsl (Linux, libpsl-dev) and let the jar use its public suffix list when it is newer than \
                the compiled-in one.
                """
        ),
        .trait(
            name: "Postgres",
            description: """
                Build CookiesPostgres (jars in a PostgreSQL database, on postgres-nio). Off by default: without it \
                the product is empty and no NIO module is compiled.
                """
        ),
        .default(enabledTraits: ["LibPSL"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibPSL",
            pkgConfig: "libpsl",
            providers: [.apt(["libpsl-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(
            name: "Cookies",
            dependencies: [
                .target(name: "CLibPSL", condition: .when(platforms: [.linux], traits: ["LibPSL"])),
                "CSQLite",
            ],
            exclude: ["PublicSuffix/public_suffix_list.dat", "PublicSuffix/public_suffix_list.revision"]
        ),
        // Writes the compiled-in public suffix list (Sources/Cookies/PublicSuffix) from the repository's copy of
        // the list; `check` tells whether the committed file is what the list gives.
        .executableTarget(
            name: "PublicSuffixListGenerator",
            dependencies: ["Cookies"]
        ),
        .target(
            name: "CookiesFoundation",
            dependencies: [
                "Cookies",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .target(
            name: "CookiesPostgres",
            dependencies: [
                "Cookies",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Postgres"])),
            ]
        ),
        .executableTarget(
            name: "cookiejar",
            dependencies: [
                "Cookies",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Test helper: a process that writes a jar in a loop, until the kill test kills it (SIGKILL) or,
        // beside other writers on the same file, for a given number of flushes.
        .executableTarget(
            name: "CrashWriter",
            dependencies: ["Cookies"],
            path: "Tests/CrashWriter"
        ),
        // Fuzzing (corpus/fuzz.sh): the targets and their invariants, the program that runs them (libFuzzer
        // with -DFUZZING, corpus replay without), and the corpus replay tests.
        .target(name: "CookiesFuzzTargets", dependencies: ["Cookies"]),
        .executableTarget(name: "CookiesFuzz", dependencies: ["CookiesFuzzTargets"]),
        .testTarget(name: "CookiesFuzzTests", dependencies: ["CookiesFuzzTargets"]),
        // Test helpers shared by the test targets (temporary directories).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "CookiesTests",
            dependencies: ["Cookies", "CrashWriter", "PublicSuffixListGenerator", "TestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "CookiesFoundationTests",
            dependencies: ["CookiesFoundation"]
        ),
        .testTarget(
            name: "cookiejarTests",
            dependencies: ["cookiejar", "TestSupport"],
            exclude: ["Golden"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
