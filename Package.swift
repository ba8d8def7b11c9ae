// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "swift-cookiejar",
    products: [
        .library(name: "Cookies", targets: ["Cookies"]),
        .library(name: "CookiesFoundation", targets: ["CookiesFoundation"]),
        .executable(name: "cookiejar", targets: ["cookiejar"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // `swift package generate-documentation` (the DocC catalogs in Sources/*/*.docc); a command
        // plugin, which no target depends on, so building the package or a package using it builds none
        // of it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
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
                .target(name: "CLibPSL", condition: .when(platforms: [.linux])),
                "CSQLite",
            ]
        ),
        .target(
            name: "CookiesFoundation",
            dependencies: [
                "Cookies",
                .product(name: "HTTPTypes", package: "swift-http-types"),
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
            dependencies: ["Cookies", "CrashWriter", "TestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "CookiesFoundationTests",
            dependencies: ["CookiesFoundation", "TestSupport"]
        ),
        .testTarget(
            name: "cookiejarTests",
            dependencies: ["cookiejar", "TestSupport"],
            exclude: ["Golden"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
