import GestureConfig
import GestureCore
import GestureTools
import Testing

/// What `gesturectl lisgd --print-config=actions` prints is a file
/// `gesturectl actions` takes, and it runs each binding for its own recognizer.
@Suite struct LisgdActionsTests {
    @Test func sxmosPrintedActionsLoadAndNameThePrintedRecognizers() throws {
        let o = try LisgdOptions.parse(sxmoArguments)
        let t = try LisgdTranslation(options: o, device: try phoneDevice(), arguments: sxmoArguments)
        let actions = try ActionsLoader.load(text: t.actionsTOML, file: "actions.toml")
        let recognizers = try t.configuration().recognizers.map(\.name)
        #expect(actions.actions.count == 43)
        #expect(actions.warnings.isEmpty)
        // One action per recognizer, in the same order, matched by name alone: a
        // slider's action runs for its steps (no state), a swipe's when recognized.
        #expect(actions.actions.map(\.names) == recognizers.map { [$0] })
        #expect(actions.actions.allSatisfy { $0.kinds.isEmpty && $0.states.isEmpty && $0.edges.isEmpty })
    }
}
