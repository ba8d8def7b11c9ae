// swift-tools-version: 6.1
import PackageDescription

// The sign-in flow end to end over real HTTP: a Hummingbird backend on 127.0.0.1 and clients built on
// the jar (URLSession, AsyncHTTPClient). A package of its own so that the core build stays fast.
let package = Package(
    name: "EndToEnd",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "swift-cookiejar", path: "../..", traits: [.defaults, "CookiesAsyncHTTPClient", "CookiesOpenAPI"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "TestBackend",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "TestBackend",
                .product(name: "Cookies", package: "swift-cookiejar"),
                .product(name: "CookiesFoundation", package: "swift-cookiejar"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "CookiesAsyncHTTPClient", package: "swift-cookiejar"),
                .product(name: "CookiesOpenAPI", package: "swift-cookiejar"),
                "AccountsAPI",
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
            ]
        ),
        // The client of Sources/AccountsAPI/openapi.yaml, generated once by swift-openapi-generator and
        // committed (see the README for the command that regenerates it).
        .target(
            name: "AccountsAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["openapi.yaml", "openapi-generator-config.yaml"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
