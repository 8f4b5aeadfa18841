import Foundation
import GestureCore

public struct LeaveOneSubjectOut: Sendable, Codable {
    public static func run(items: [CorpusItem], configuration: Configuration, pxPerMM: Double) -> LeaveOneSubjectOut {
        LeaveOneSubjectOut()
    }
    public func text() -> String { "" }
    public func json() throws -> String { "{}" }
}
