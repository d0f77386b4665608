// swift-tools-version:6.1
import PackageDescription

/// Settings every Swift target shares: C modules cannot leak into public API, and imports stay explicit.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "variantd",
    products: [
        .executable(name: "variantd", targets: ["variantd"]),
        .library(name: "Variants", targets: ["Variants"]),
        .library(name: "ThumbHash", targets: ["ThumbHash"]),
    ],
    targets: [
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        .systemLibrary(name: "CHeif", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(
            name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .target(name: "CVipsShims", dependencies: ["CVips"]),
        .target(name: "CHeifShims", dependencies: ["CHeif"]),
        .target(name: "CWebPShims", dependencies: ["CWebP"]),
        .target(name: "CMicroHTTPDShims", dependencies: ["CMicroHTTPD"]),
        .target(name: "CSQLiteShims", dependencies: ["CSQLite"]),
        .target(name: "ThumbHash", swiftSettings: swiftSettings),
        .target(
            name: "Variants",
            dependencies: ["CVipsShims", "CHeifShims", "CWebPShims", "CCrypto", "ThumbHash"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "VariantdCore",
            dependencies: [
                "Variants", "ThumbHash", "CMicroHTTPDShims", "CSQLiteShims", "CPostgres", "CCrypto",
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(name: "variantd", dependencies: ["VariantdCore"], swiftSettings: swiftSettings),
        .testTarget(name: "ThumbHashTests", dependencies: ["ThumbHash"], swiftSettings: swiftSettings),
        .testTarget(name: "VariantsTests", dependencies: ["Variants"], swiftSettings: swiftSettings),
        .testTarget(
            name: "VariantdCoreTests",
            dependencies: ["VariantdCore", "Variants"],
            exclude: ["CLI/HelpText"],
            swiftSettings: swiftSettings
        ),
    ]
)
