import Foundation

/// The repository's Tests/fixtures folder, found from this file's place.
let fixturesDir: String = {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fixtures").path
}()

let repoRoot: String = {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
}()

func recording(_ name: String) -> String { fixturesDir + "/recordings/" + name }
