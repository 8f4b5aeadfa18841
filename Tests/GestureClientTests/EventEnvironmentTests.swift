import GestureProtocol
import Testing

@testable import GestureClient

@Suite struct EventEnvironmentTests {
    @Test func envelopeAndKindFieldsBecomeVariables() throws {
        let line =
            #"{"type":"event","name":"pan","kind":"pan","state":"changed","time":2.500000,"device":"TS","fingers":2,"location_mm":[10.50,20.25],"location":[0.1000,0.2000],"translation_mm":[3.00,-4.00],"velocity_mm_s":[1.0,2.0],"reason":"x y","frame_time":2.49,"emitted":2.51}"#
        let vars = Dictionary(uniqueKeysWithValues: EventEnvironment.variables(for: try JSONValue.parse(line)))
        #expect(vars["GESTURE_NAME"] == "pan")
        #expect(vars["GESTURE_KIND"] == "pan")
        #expect(vars["GESTURE_STATE"] == "changed")
        #expect(vars["GESTURE_TIME"] == "2.5")
        #expect(vars["GESTURE_DEVICE"] == "TS")
        #expect(vars["GESTURE_FINGERS"] == "2")
        #expect(vars["GESTURE_X_MM"] == "10.5")
        #expect(vars["GESTURE_Y_MM"] == "20.25")
        #expect(vars["GESTURE_X"] == "0.1")
        #expect(vars["GESTURE_Y"] == "0.2")
        #expect(vars["GESTURE_TRANSLATION_X_MM"] == "3")
        #expect(vars["GESTURE_TRANSLATION_Y_MM"] == "-4")
        #expect(vars["GESTURE_VELOCITY_Y_MM_S"] == "2")
        #expect(vars["GESTURE_REASON"] == "x y")
        #expect(vars["GESTURE_TYPE"] == nil)
    }
}

@Suite struct EventEnvironmentKeyTests {
    /// A daemon (or anything on the socket) decides no variable name outside
    /// GESTURE_ followed by `[A-Z0-9_]`: keys with `=`, NUL, upper case, spaces,
    /// dashes or non-ASCII letters are skipped, the others stay.
    @Test func keysOutsideLowercaseLettersDigitsAndUnderscoreAreSkipped() throws {
        let line =
            #"{"type":"event","name":"t","taps":1,"edge_2":"left","a=b":"x","PATH":"/evil","x\u0000y":"1","ld-preload":"z","k y":"1","é":"e","":"empty","ſ":"long s","Ｘ":"wide"}"#
        let names = EventEnvironment.variables(for: try JSONValue.parse(line)).map(\.0).sorted()
        #expect(names == ["GESTURE_EDGE_2", "GESTURE_NAME", "GESTURE_TAPS"])
        for name in names {
            #expect(name.utf8.allSatisfy { ($0 >= 65 && $0 <= 90) || ($0 >= 48 && $0 <= 57) || $0 == 95 })
        }
    }
}
