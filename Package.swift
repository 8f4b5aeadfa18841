// swift-tools-version:6.0
import PackageDescription

// Release builds leave out Swift's dynamic exclusivity checks (a runtime call
// around every access to a class property or global): 12 % of the daemon's CPU
// time on a played recording (BENCHMARKS.md). Debug builds, which run the tests
// and the sanitizers, keep them, so an overlapping access still fails a test.
let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)),
]

// The modules gesture-run is made of use neither Swift concurrency nor regexes:
// importing them only because the compiler does by default links
// libswift_Concurrency, libdispatch, libswift_StringProcessing and
// libswift_RegexParser into it, 1.5 MB of resident memory at every start
// (BENCHMARKS.md). Release builds, the ones installed, leave those imports out.
let lean: [SwiftSetting] =
    strict + [
        .unsafeFlags(
            [
                "-Xfrontend", "-disable-implicit-concurrency-module-import",
                "-Xfrontend", "-disable-implicit-string-processing-module-import",
            ], .when(configuration: .release))
    ]

// gesturectl's command line. A build that must not fetch (Debian's, see
// debian/rules) names a local copy of the package, a directory named
// swift-argument-parser, in GESTURED_ARGUMENT_PARSER_PATH.
let argumentParser: Package.Dependency =
    if let path = Context.environment["GESTURED_ARGUMENT_PARSER_PATH"], !path.isEmpty {
        .package(path: path)
    } else {
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    }

let package = Package(
    name: "gestured",
    products: [
        .executable(name: "gestured", targets: ["gestured"]),
        .executable(name: "gesturectl", targets: ["gesturectl"]),
        .executable(name: "gesture-run", targets: ["gesture-run"]),
    ],
    dependencies: [argumentParser],
    targets: [
        .systemLibrary(name: "CLibevdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CLibudev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        .systemLibrary(name: "CMtdev", pkgConfig: "mtdev", providers: [.apt(["libmtdev-dev"])]),
        .systemLibrary(name: "CLinux"),
        // sd-login (Debian's libsystemd-dev): the active session's user on a seat, for gestured only.
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .target(name: "CSocketShim"),
        // A malloc counter for `gesturectl bench` (it replaces malloc: gesturectl only).
        .target(name: "CAllocCounter"),
        // toml++ (Debian's libtomlplusplus-dev, header-only) behind a small C API.
        .target(name: "CTomlShim"),
        .target(name: "GestureCore", swiftSettings: lean),
        // Errno, file descriptors, the EINTR retry, the monotonic clock, the socket calls, the
        // epoll loop, timer and signals, the log: the one system layer, daemon and clients alike.
        .target(name: "LinuxSystem", dependencies: ["GestureCore", "CLinux", "CSocketShim"], swiftSettings: lean),
        // The socket protocol's vocabulary, spoken by the daemon and its clients.
        .target(name: "GestureProtocol", dependencies: ["GestureCore"], swiftSettings: lean),
        .target(
            name: "GestureConfig",
            dependencies: ["GestureCore", "LinuxSystem", "CTomlShim"],
            swiftSettings: lean),
        .target(
            name: "LinuxInput",
            dependencies: ["GestureCore", "LinuxSystem", "CLibevdev", "CLibudev", "CMtdev"],
            swiftSettings: lean),
        .target(
            name: "GestureDaemon",
            dependencies: [
                "GestureCore", "GestureConfig", "GestureProtocol", "LinuxInput", "LinuxSystem", "CLinux",
                "CSocketShim",
            ],
            swiftSettings: strict),
        // The client side of the socket (gesturectl and gesture-run): nothing of the daemon.
        .target(
            name: "GestureClient", dependencies: ["GestureCore", "GestureConfig", "GestureProtocol", "LinuxSystem"],
            swiftSettings: lean),
        // lisgd's command line, its translation and its device loop: no Foundation, so
        // the lean gesture-run can link it as well as gesturectl.
        .target(
            name: "GestureLisgd",
            dependencies: ["GestureCore", "GestureConfig", "GestureClient", "LinuxInput", "LinuxSystem", "CLinux"],
            swiftSettings: lean),
        // Offline tools (replay, bench, devices, evaluation, explain): gesturectl only.
        .target(
            name: "GestureTools",
            dependencies: [
                "GestureCore", "GestureConfig", "GestureDaemon", "GestureClient", "GestureProtocol", "LinuxInput",
                "LinuxSystem",
            ],
            swiftSettings: strict),
        .executableTarget(
            name: "gestured",
            dependencies: [
                "GestureCore", "GestureConfig", "GestureDaemon", "GestureProtocol", "LinuxSystem", "CSystemd",
            ],
            swiftSettings: strict),
        .executableTarget(
            name: "gesturectl",
            dependencies: [
                "GestureDaemon", "GestureClient", "GestureLisgd", "GestureProtocol", "GestureTools", "LinuxInput",
                "LinuxSystem", "CLinux", "CAllocCounter",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),
        // The long-running `gesturectl lisgd` and `gesturectl actions`, which gesturectl
        // execs: no Foundation and no argument-parser, so a small binary that stays
        // small in memory all day (docs/DESIGN.md, "gesture-run"). Links nothing of the daemon.
        .executableTarget(
            name: "gesture-run",
            dependencies: ["GestureClient", "GestureConfig", "GestureLisgd", "LinuxInput", "LinuxSystem", "CLinux"],
            swiftSettings: lean),
        // libFuzzer targets, one per entry point. scripts/fuzz.sh builds each with
        // -sanitize=fuzzer,address -DFUZZING; the plain build makes stand-ins that
        // only say so (libFuzzer is not linked).
        .systemLibrary(name: "CFuzzer", path: "Sources/Fuzz/CFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzer"], path: "Sources/Fuzz/Support", swiftSettings: strict),
        .executableTarget(
            name: "FuzzEvemu",
            dependencies: ["FuzzSupport", "GestureCore", "GestureConfig", "GestureDaemon", "GestureTools"],
            path: "Sources/Fuzz/Evemu", swiftSettings: strict),
        .executableTarget(
            name: "FuzzDecoder",
            dependencies: [
                "FuzzSupport", "GestureCore", "GestureConfig", "GestureDaemon", "GestureProtocol", "LinuxInput",
            ],
            path: "Sources/Fuzz/Decoder", swiftSettings: strict),
        .executableTarget(
            name: "FuzzConfig", dependencies: ["FuzzSupport", "GestureCore", "GestureConfig"],
            path: "Sources/Fuzz/Config", swiftSettings: strict),
        .executableTarget(
            name: "FuzzProtocol", dependencies: ["FuzzSupport", "GestureCore", "GestureDaemon", "GestureProtocol"],
            path: "Sources/Fuzz/Protocol", swiftSettings: strict),
        .testTarget(
            name: "LinuxInputTests",
            dependencies: [
                "LinuxInput", "LinuxSystem", "GestureDaemon", "GestureCore", "GestureConfig", "GestureProtocol",
            ],
            swiftSettings: strict),
        .testTarget(name: "GestureCoreTests", dependencies: ["GestureCore"], swiftSettings: strict),
        .testTarget(
            name: "PipelineTests",
            dependencies: [
                "GestureClient", "GestureConfig", "GestureDaemon", "GestureLisgd", "GestureProtocol", "GestureTools",
                "LinuxSystem",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "RecognitionTests", dependencies: ["GestureConfig", "GestureDaemon", "GestureTools"],
            swiftSettings: strict),
        .testTarget(
            name: "GestureDaemonTests",
            dependencies: [
                "GestureDaemon", "GestureClient", "GestureConfig", "GestureProtocol", "LinuxInput", "LinuxSystem",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "GestureClientTests",
            // The daemon only to check that it accepts what the client sends.
            dependencies: [
                "GestureClient", "GestureConfig", "GestureCore", "GestureDaemon", "GestureProtocol", "LinuxSystem",
            ],
            swiftSettings: strict),
    ],
    cxxLanguageStandard: .cxx17
)
