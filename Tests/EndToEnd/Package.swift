// swift-tools-version: 6.1
import PackageDescription

// The sign-in flow end to end over real HTTP: a Hummingbird backend on 127.0.0.1 and clients built on
// the jar (URLSession, AsyncHTTPClient). A package of its own so that the core build stays fast.
let package = Package(
    name: "EndToEnd",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "swift-cookiejar", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
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
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
