// swift-tools-version:6.1
import PackageDescription

/// Settings every Swift target shares: C modules cannot leak into public API, and imports stay explicit.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

/// Where `scripts/codec-stack.sh` installs the libvips we build; the binaries find it there through their
/// run path, never the system's older libvips by accident.
let codecPrefix = Context.environment["VARIANTD_PREFIX"] ?? "/opt/variantd"

let package = Package(
    name: "variantd",
    products: [
        .executable(name: "variantd", targets: ["variantd"]),
        .library(name: "Variants", targets: ["Variants"]),
        .library(name: "ThumbHash", targets: ["ThumbHash"]),
        .library(name: "SSIMULACRA2", targets: ["SSIMULACRA2"]),
    ],
    targets: [
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        .systemLibrary(name: "CHeif", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        // Test-only: lcms itself is the independent reference the colour tests compare renditions with.
        .systemLibrary(name: "CLcms2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // libmicrohttpd with our patches (scripts/microhttpd.sh), static: its own error answers in our JSON.
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "microhttpd-variantd"),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CSeccomp", pkgConfig: "libseccomp", providers: [.apt(["libseccomp-dev"])]),
        // libavformat, libavcodec, libavutil and libswscale: the poster frames of videos.
        .systemLibrary(
            name: "CFFmpeg", pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev"])]),
        .systemLibrary(
            name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(
            name: "CVipsShims", dependencies: ["CVips"],
            linkerSettings: [.unsafeFlags(["-Xlinker", "-rpath", "-Xlinker", "\(codecPrefix)/lib"])]
        ),
        .target(name: "CHeifShims", dependencies: ["CHeif"]),
        // libwebpmux holds the animation encoder.
        .target(name: "CWebPShims", dependencies: ["CWebP"], linkerSettings: [.linkedLibrary("webpmux")]),
        // Decoding through libjpeg-turbo; encoding through jpegli (scripts/jpegli.sh), a static C++ library over
        // the static Highway that codec-stack.sh installs.
        .target(
            name: "CJPEGShims", dependencies: ["CJPEG"],
            cSettings: [.unsafeFlags(["-I\(codecPrefix)/include/jpegli"])],
            linkerSettings: [
                .unsafeFlags(["-L\(codecPrefix)/lib"]), .linkedLibrary("jpegli-static"),
                .linkedLibrary("hwy"), .linkedLibrary("stdc++"), .linkedLibrary("m"),
            ]
        ),
        // pkg-config names libavformat alone; the shim calls the other three itself.
        .target(
            name: "CFFmpegShims", dependencies: ["CFFmpeg"],
            linkerSettings: [.linkedLibrary("avcodec"), .linkedLibrary("swscale"), .linkedLibrary("avutil")]),
        .target(name: "CMicroHTTPDShims", dependencies: ["CMicroHTTPD"]),
        .target(name: "CSQLiteShims", dependencies: ["CSQLite"]),
        .target(name: "CCurlShims", dependencies: ["CCurl"]),
        .target(name: "CSpawn"),
        .target(name: "CSyscallTrap"),
        .target(name: "CLandlock"),
        .target(name: "ThumbHash", swiftSettings: swiftSettings),
        .target(name: "SSIMULACRA2", swiftSettings: swiftSettings),
        .target(name: "Charts", swiftSettings: swiftSettings),
        .target(
            name: "Variants",
            dependencies: [
                "CVipsShims", "CHeifShims", "CWebPShims", "CJPEGShims", "CFFmpegShims", "CCrypto",
                "ThumbHash",
                "SSIMULACRA2",
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "VariantdCore",
            dependencies: [
                "Variants", "ThumbHash", "Charts", "CMicroHTTPDShims", "CSQLiteShims", "CPostgres", "CCrypto",
                "CSeccomp", "CLandlock", "CSpawn", "CSyscallTrap", "CCurlShims",
            ],
            swiftSettings: swiftSettings
        ),
        // The benchmarks: measured beside the product, never part of it; the executable wires their commands in.
        .target(
            name: "VariantdBench", dependencies: ["VariantdCore", "Variants", "ThumbHash", "Charts"],
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "variantd", dependencies: ["VariantdCore", "VariantdBench"], swiftSettings: swiftSettings),
        // What the test targets share: where the built binary and the samples are, the binary as a process,
        // headless Chromium, and a seeded random generator.
        .target(name: "VariantdTestSupport", path: "Tests/VariantdTestSupport", swiftSettings: swiftSettings),
        // Test-only: ptrace, to see from outside what each thread of a sealed decoder child may do.
        .target(name: "CThreadProbe", path: "Tests/CThreadProbe"),
        .testTarget(
            name: "ThumbHashTests", dependencies: ["ThumbHash", "VariantdTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(name: "ChartsTests", dependencies: ["Charts"], swiftSettings: swiftSettings),
        // Variants only decodes and encodes the fixtures the scores are checked on.
        .testTarget(
            name: "SSIMULACRA2Tests", dependencies: ["SSIMULACRA2", "Variants", "VariantdTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "VariantsTests", dependencies: ["Variants", "CLcms2", "VariantdTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "VariantdCoreTests",
            dependencies: ["VariantdCore", "Variants", "variantd", "VariantdTestSupport", "CThreadProbe"],
            exclude: ["CLI/HelpText", "Support/FileFaults.c"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "VariantdBenchTests",
            dependencies: ["VariantdBench", "VariantdCore", "Variants", "VariantdTestSupport"],
            swiftSettings: swiftSettings
        ),
    ]
)
