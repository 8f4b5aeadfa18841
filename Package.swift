// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "gestured",
    products: [
        .executable(name: "gestured", targets: ["gestured"]),
        .executable(name: "gesturectl", targets: ["gesturectl"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(name: "CLibevdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CLibudev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        .systemLibrary(name: "CMtdev", pkgConfig: "mtdev", providers: [.apt(["libmtdev-dev"])]),
        .systemLibrary(name: "CLinux"),
        .target(name: "CSocketShim"),
        // toml++ (Debian's libtomlplusplus-dev, header-only) behind a small C API.
        .target(name: "CTomlShim"),
        .target(name: "GestureCore", swiftSettings: strict),
        .target(
            name: "GestureConfig",
            dependencies: ["GestureCore", "CTomlShim"],
            swiftSettings: strict),
        .target(
            name: "LinuxInput",
            dependencies: ["GestureCore", "CLibevdev", "CLibudev", "CMtdev"],
            swiftSettings: strict),
        .target(
            name: "GestureDaemon",
            dependencies: ["GestureCore", "GestureConfig", "LinuxInput", "CLinux", "CSocketShim"],
            swiftSettings: strict),
        .target(
            name: "GestureTools",
            dependencies: ["GestureCore", "GestureConfig", "GestureDaemon"],
            swiftSettings: strict),
        .executableTarget(
            name: "gestured",
            dependencies: ["GestureDaemon"],
            swiftSettings: strict),
        .executableTarget(
            name: "gesturectl",
            dependencies: ["GestureDaemon", "GestureTools", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strict),
        .testTarget(
            name: "LinuxInputTests", dependencies: ["LinuxInput", "GestureDaemon", "GestureCore", "GestureConfig"],
            swiftSettings: strict),
        .testTarget(name: "GestureCoreTests", dependencies: ["GestureCore"], swiftSettings: strict),
        .testTarget(
            name: "PipelineTests", dependencies: ["GestureConfig", "GestureDaemon"], swiftSettings: strict),
        .testTarget(
            name: "RecognitionTests", dependencies: ["GestureConfig", "GestureDaemon", "GestureTools"],
            swiftSettings: strict),
        .testTarget(name: "GestureDaemonTests", dependencies: ["GestureDaemon"], swiftSettings: strict),
    ],
    cxxLanguageStandard: .cxx17
)
