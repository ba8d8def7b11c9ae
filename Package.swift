// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "swift-cookiejar",
    // `Synchronization.Mutex` and `Atomic` (the jar's lock elsewhere than on Linux, the web view sync) are
    // there from these releases on; `URLSession.data(for:)`, `HTTPCookie.sameSitePolicy` and `Duration`
    // from earlier ones.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Cookies", targets: ["Cookies"]),
        .library(name: "CookiesFoundation", targets: ["CookiesFoundation"]),
        // Empty unless its trait is enabled (see `traits`).
        .library(name: "CookiesAsyncHTTPClient", targets: ["CookiesAsyncHTTPClient"]),
        .library(name: "CookiesOpenAPI", targets: ["CookiesOpenAPI"]),
        // Jars of a fleet of servers in one PostgreSQL database.
        .library(name: "CookiesPostgres", targets: ["CookiesPostgres"]),
        .executable(name: "cookiejar", targets: ["cookiejar"]),
    ],
    // LibPSL (on by default) links libpsl on Linux. The products for server-side clients are behind traits, off by
    // default, so that neither a package that uses only `Cookies` or `CookiesFoundation` nor this package's own
    // `swift test` compiles SwiftNIO, AsyncHTTPClient, swift-openapi-runtime or PostgresNIO. Enable them on the
    // dependency: `.package(url: …, from: …, traits: [.defaults, "CookiesAsyncHTTPClient", "CookiesPostgres"])`.
    traits: [
        .trait(
            name: "LibPSL",
            description: """
                Link libpsl (Linux, libpsl-dev) and let the jar use its public suffix list when it is newer than \
                the compiled-in one.
                """
        ),
        .trait(
            name: "CookiesAsyncHTTPClient",
            description: "Builds the CookiesAsyncHTTPClient product (AsyncHTTPClient requests through a jar)."),
        .trait(
            name: "CookiesOpenAPI",
            description: "Builds the CookiesOpenAPI product (a swift-openapi-runtime client middleware)."),
        .trait(
            name: "CookiesPostgres",
            description: "Builds the CookiesPostgres product (jars in a PostgreSQL database, on postgres-nio)."),
        .default(enabledTraits: ["LibPSL"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        // `swift package generate-documentation` (the DocC catalogs in Sources/*/*.docc); a command
        // plugin, which no target depends on, so building the package or a package using it builds none
        // of it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
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
            exclude: ["README.md", "PublicSuffix/public_suffix_list.dat", "PublicSuffix/public_suffix_list.revision"]
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
            name: "CookiesAsyncHTTPClient",
            dependencies: [
                "Cookies",
                "CookiesFoundation",
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client",
                    condition: .when(traits: ["CookiesAsyncHTTPClient"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["CookiesAsyncHTTPClient"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["CookiesAsyncHTTPClient"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["CookiesAsyncHTTPClient"])),
            ]
        ),
        .target(
            name: "CookiesOpenAPI",
            dependencies: [
                "Cookies",
                "CookiesFoundation",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(
                    name: "OpenAPIRuntime", package: "swift-openapi-runtime",
                    condition: .when(traits: ["CookiesOpenAPI"])),
            ]
        ),
        .target(
            name: "CookiesPostgres",
            dependencies: [
                "Cookies",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["CookiesPostgres"])),
            ]
        ),
        .executableTarget(
            name: "cookiejar",
            dependencies: [
                "Cookies",
                // `RedirectChain.follow(status:locations:)`: `explain` follows the redirects of the responses it reads.
                "CookiesFoundation",
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
        // Test helper (Linux): a system call made to fail on one thread, as a container's sandbox does.
        .systemLibrary(name: "CSystemCallFilter", path: "Tests/CSystemCallFilter"),
        .testTarget(
            name: "CookiesTests",
            dependencies: [
                "Cookies", "CrashWriter", "PublicSuffixListGenerator", "TestSupport",
                .target(name: "CSystemCallFilter", condition: .when(platforms: [.linux])),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "CookiesFoundationTests",
            dependencies: ["CookiesFoundation", "TestSupport"]
        ),
        // Without the trait: what of CookiesOpenAPI needs no swift-openapi-runtime (`TransportURL`).
        .testTarget(
            name: "CookiesOpenAPITests",
            dependencies: ["CookiesOpenAPI"]
        ),
        .testTarget(
            name: "cookiejarTests",
            dependencies: ["cookiejar", "Cookies", "TestSupport"],
            exclude: ["Golden"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
