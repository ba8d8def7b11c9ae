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
    ],
    targets: [
        .systemLibrary(
            name: "CLibPSL",
            pkgConfig: "libpsl",
            providers: [.apt(["libpsl-dev"])]
        ),
        .target(
            name: "Cookies",
            dependencies: [
                .target(name: "CLibPSL", condition: .when(platforms: [.linux])),
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
        .testTarget(
            name: "CookiesTests",
            dependencies: ["Cookies"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "CookiesFoundationTests",
            dependencies: ["CookiesFoundation"]
        ),
        .testTarget(
            name: "cookiejarTests",
            dependencies: ["cookiejar"],
            exclude: ["Golden"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
