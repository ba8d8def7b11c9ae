// swift-tools-version: 6.1
import PackageDescription

// CookiesPostgres against a real PostgreSQL server (PGHOST, PGPORT, PGUSER, PGDATABASE): the store's
// semantics, two processes on one jar, kills mid-flush, limits across instances, and the fleet benchmark.
// A package of its own so that the root package's tests never compile SwiftNIO.
let package = Package(
    name: "PostgresTests",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "swift-cookiejar", path: "../..", traits: [.defaults, "CookiesPostgres"]),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        .executableTarget(
            name: "PostgresWriter",
            dependencies: [
                .product(name: "Cookies", package: "swift-cookiejar"),
                .product(name: "CookiesPostgres", package: "swift-cookiejar"),
            ]
        ),
        .executableTarget(
            name: "PostgresBenchmark",
            dependencies: [
                .product(name: "Cookies", package: "swift-cookiejar"),
                .product(name: "CookiesPostgres", package: "swift-cookiejar"),
            ]
        ),
        .testTarget(
            name: "CookiesPostgresTests",
            dependencies: [
                "PostgresWriter",
                .product(name: "Cookies", package: "swift-cookiejar"),
                .product(name: "CookiesPostgres", package: "swift-cookiejar"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
