import Testing

@testable import GestureCore

/// `includes(_:)`, which matches device names where the string-processing
/// module is not imported (release builds of gesture-run's modules), finds
/// what that module's `contains(_:)` finds.
@Suite("text search without the string-processing module")
struct TextSearchTests {
    @Test func findsWhatContainsFinds() {
        let names = ["Goodix Capacitive TouchScreen", "elan-touchscreen", "é", "e\u{301}", "", "ab", "aab", "Touch"]
        let parts = [
            "", "Touch", "touch", "Screen", "Goodix Capacitive TouchScreen", "TouchScreen!", "é", "e\u{301}", "ab", "b",
            "x",
        ]
        for n in names {
            for p in parts {
                #expect(n.includes(p) == n.contains(p), "'\(n)' includes '\(p)'")
            }
        }
        #expect("Goodix Capacitive TouchScreen".includes("Capacitive"))
        #expect(!"Goodix".includes("Goodix Capacitive"))
        #expect("e\u{301}".includes("é"), "compared as characters: composed and decomposed are one")
    }
}
