import GestureCore
import LinuxInput
import Testing

@Suite("LIBINPUT_CALIBRATION_MATRIX parsing, as libinput parses it")
struct CalibrationTests {
    @Test func identityAndArbitraryValues() {
        #expect(CalibrationMatrix.parse("1 0 0 0 1 0") == [1, 0, 0, 0, 1, 0])
        #expect(CalibrationMatrix.parse("1.02 0 -0.01 0 +0.98 .5") == [1.02, 0, -0.01, 0, 0.98, 0.5])
    }

    @Test func extraSpacesAreSeparatorsAndWordsAfterTheSixthAreIgnored() {
        #expect(CalibrationMatrix.parse("  0  1 0   -1 0 1  ") == [0, 1, 0, -1, 0, 1])
        #expect(CalibrationMatrix.parse("1 0 0 0 1 0 0 0 1") == [1, 0, 0, 0, 1, 0])
    }

    @Test(arguments: [
        "",  // empty
        "1 0 0 0 1",  // five numbers
        "1 0 0 0 1 0x1",  // hex
        "1 0 0 0 1 1e-3",  // exponent
        "1 0 0 0 1 nan",  // not a number
        "1 0 0 0 1 inf",
        "1,0,0,0,1,0",  // commas
        "1\t0\t0\t0\t1\t0",  // tabs are not separators for libinput
        "1 0 0 0 1 --",  // signs only
    ])
    func malformedIsRejected(_ text: String) {
        #expect(CalibrationMatrix.parse(text) == nil)
    }

    @Test func nodeWithoutPropertyIsIdentityAndMalformedIsReported() {
        let plain = InputNode(syspath: "/sys/x/event1", sysname: "event1")
        #expect(CalibrationMatrix.of(plain).matrix == DeviceGeometry.identity)
        #expect(CalibrationMatrix.of(plain).invalid == nil)

        let bad = InputNode(
            syspath: "/sys/x/event2", sysname: "event2",
            properties: [CalibrationMatrix.udevProperty: "1 0 0 0 1"])
        #expect(CalibrationMatrix.of(bad).matrix == DeviceGeometry.identity)
        #expect(CalibrationMatrix.of(bad).invalid == "1 0 0 0 1")
    }

    /// libinput's documented 90° clockwise example, "0 1 0 -1 0 1", through the
    /// geometry: the raw top-left corner lands bottom-left, the raw top-right
    /// corner top-left.
    @Test func parsedMatrixAppliesInNormalisedSpace() throws {
        let matrix = try #require(CalibrationMatrix.parse("0 1 0 -1 0 1"))
        let axis = AxisInfo(minimum: 0, maximum: 1000, resolution: 10)
        let g = DeviceGeometry(x: axis, y: axis, calibration: matrix)
        let topLeft = g.normalised(rawX: 0, rawY: 0)
        #expect(topLeft.x == 0 && topLeft.y == 1)
        let topRight = g.normalised(rawX: 1000, rawY: 0)
        #expect(topRight.x == 0 && topRight.y == 0)
        let mm = g.millimetres(normalised: g.normalised(rawX: 250, rawY: 500))
        #expect(abs(mm.x - 50) < 1e-9 && abs(mm.y - 75) < 1e-9)
    }
}
