@testable import GestureClient
import Testing
import GestureProtocol

@Suite struct EventEnvironmentTests {
    @Test func envelopeAndKindFieldsBecomeVariables() throws {
        let line = #"{"type":"event","name":"pan","kind":"pan","state":"changed","time":2.500000,"device":"TS","fingers":2,"location_mm":[10.50,20.25],"location":[0.1000,0.2000],"translation_mm":[3.00,-4.00],"velocity_mm_s":[1.0,2.0],"reason":"x y","frame_time":2.49,"emitted":2.51}"#
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
