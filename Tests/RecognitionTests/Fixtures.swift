import Foundation
import GestureTools

/// The repository's Tests/fixtures folder, found from this file's place.
let fixturesDir: String = {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fixtures").path
}()

/// The $1 strokes, with their circles mirrored, loaded once for all the tests
/// that read them: a debug build takes seconds to parse the 2,400 files, and
/// several tests run at once would each parse them.
enum DollarOne {
    struct LoadError: Error, CustomStringConvertible {
        var description: String
    }

    private static let loaded: Result<[CorpusItem], LoadError> = {
        do {
            return .success(try Corpus.load([fixturesDir + "/dollar1"]))
        } catch {
            return .failure(LoadError(description: "\(error)"))
        }
    }()

    /// What `Corpus.load` of the subjects' folders (each `dollar1/sNN`, in the
    /// order given; all of them when nil) gives: the same items in the same order.
    static func items(_ subjects: [String]? = nil, mirrorCircles: Bool = true) throws -> [CorpusItem] {
        let all = try loaded.get().filter { mirrorCircles || !$0.mirrored }
        guard let subjects else { return all }
        return subjects.flatMap { s in all.filter { $0.subject == s } }
    }
}
