import Testing

@testable import GestureCore

/// Numbers a device declares or sends are not trusted: any 32-bit range, any
/// value, any calibration gives a location within 0…1 and never traps.
@Suite("Device ranges and values from outside")
struct DeviceRangeTests {
    /// A one-slot panel whose axes span the whole 32-bit range.
    func widestDevice(resolution: Int32 = 0) -> DeviceDescription {
        var d = DeviceDescription(name: "widest")
        d.axes[ABS.MT_SLOT] = AxisInfo(minimum: 0, maximum: 1)
        d.axes[ABS.MT_TRACKING_ID] = AxisInfo(minimum: 0, maximum: 65535)
        d.axes[ABS.MT_POSITION_X] = AxisInfo(minimum: .min, maximum: .max, resolution: resolution)
        d.axes[ABS.MT_POSITION_Y] = AxisInfo(minimum: .min, maximum: .max, resolution: resolution)
        return d
    }

    func frames(_ d: inout SlotDecoder, _ events: [(UInt16, UInt16, Int32)]) -> [TouchFrame] {
        var out: [TouchFrame] = []
        for (t, c, v) in events where d.feed(RawEvent(time: EventTime(microseconds: 1000), type: t, code: c, value: v))
        {
            out.append(d.lastFrame)
        }
        return out
    }

    @Test func theWholeThirtyTwoBitRangeIsAnAxis() {
        let d = widestDevice()
        #expect(d.xAxis!.span == 4_294_967_295)
        let g = DeviceGeometry(x: d.xAxis!, y: d.yAxis!)
        #expect(g.normalised(rawX: .min, rawY: .max) == Point(x: 0, y: 1))
        #expect(abs(g.normalised(rawX: 0, rawY: 0).x - 0.5) < 1e-9)
        // The fallback size follows the (equal) spans.
        #expect(g.sizeMM == Point(x: 150, y: 150))
        // With a resolution, the size comes from the 64-bit span.
        let r = DeviceGeometry(
            x: widestDevice(resolution: 1_000_000).xAxis!, y: widestDevice(resolution: 1_000_000).yAxis!)
        #expect(abs(r.sizeMM.x - 4294.967295) < 1e-6)
    }

    @Test func extremeValuesOnTheWidestAxisGiveEdges() {
        let d = widestDevice()
        var decoder = SlotDecoder(device: d, geometry: DeviceGeometry(x: d.xAxis!, y: d.yAxis!))
        let f = frames(
            &decoder,
            [
                (EV.ABS, ABS.MT_TRACKING_ID, 1), (EV.ABS, ABS.MT_POSITION_X, .max),
                (EV.ABS, ABS.MT_POSITION_Y, .min), (EV.SYN, SYN.REPORT, 0),
            ])
        #expect(f.count == 1)
        #expect(f[0].touches[0].normalised == Point(x: 1, y: 0))
        #expect(decoder.clampedCount == 0)
    }

    @Test func valuesOutsideTheDeclaredRangeAreClampedAndCounted() {
        let d = testDevice()  // x 0…2000, y 0…1000, 10 units/mm
        var decoder = SlotDecoder(device: d, geometry: DeviceGeometry(x: d.xAxis!, y: d.yAxis!))
        let f = frames(
            &decoder,
            [
                (EV.ABS, ABS.MT_TRACKING_ID, 1), (EV.ABS, ABS.MT_POSITION_X, .max),
                (EV.ABS, ABS.MT_POSITION_Y, -5000), (EV.SYN, SYN.REPORT, 0),
                (EV.ABS, ABS.MT_POSITION_X, .min), (EV.ABS, ABS.MT_POSITION_Y, 500),
                (EV.SYN, SYN.REPORT, 0),
            ])
        #expect(f.count == 2)
        #expect(f[0].touches[0].normalised == Point(x: 1, y: 0))
        #expect(f[0].touches[0].position == mm(200, 0))
        #expect(f[1].touches[0].normalised == Point(x: 0, y: 0.5))
        #expect(decoder.clampedCount == 3)
        #expect(decoder.firstClamped?.value == .max)
    }

    @Test func singleTouchValuesAreClampedToo() {
        var d = DeviceDescription(name: "single")
        d.axes[ABS.X] = AxisInfo(minimum: 100, maximum: 200)
        d.axes[ABS.Y] = AxisInfo(minimum: .min, maximum: .max)
        var decoder = SlotDecoder(device: d, geometry: DeviceGeometry(x: d.xAxis!, y: d.yAxis!))
        let f = frames(
            &decoder,
            [
                (EV.KEY, BTN.TOUCH, 1), (EV.ABS, ABS.X, .min), (EV.ABS, ABS.Y, .max),
                (EV.SYN, SYN.REPORT, 0),
            ])
        #expect(f.first?.touches.first?.normalised == Point(x: 0, y: 1))
    }

    @Test func aCalibrationThatMapsOffTheAreaStopsAtItsEdges() {
        let d = testDevice()
        // Scales by 1e300 and shifts: without clamping this is ±inf or NaN.
        let g = DeviceGeometry(x: d.xAxis!, y: d.yAxis!, calibration: [1e300, 1e300, 1e300, -1e300, -1e300, 0.5])
        for (x, y) in [(Int32(0), Int32(0)), (2000, 1000), (1000, 500), (.max, .min)] {
            let n = g.normalised(rawX: x, rawY: y)
            #expect((0...1).contains(n.x) && (0...1).contains(n.y), "\(n) for \(x), \(y)")
        }
        #expect(g.normalised(rawX: 1000, rawY: 500) == Point(x: 1, y: 0))
        // A calibration with a non-finite number is no calibration.
        #expect(
            DeviceGeometry(x: d.xAxis!, y: d.yAxis!, calibration: [.nan, 0, 0, 0, 1, 0]).calibration
                == DeviceGeometry.identity)
    }

    @Test func rotationKeepsLocationsInTheUnitSquare() {
        let d = testDevice()
        for rotation in Rotation.allCases {
            let g = DeviceGeometry(x: d.xAxis!, y: d.yAxis!, calibration: [2, 0, -0.5, 0, 2, -0.5], rotation: rotation)
            let n = g.normalised(rawX: -70_000, rawY: 9_999_999)
            #expect((0...1).contains(n.x) && (0...1).contains(n.y), "\(rotation): \(n)")
        }
    }

    @Test func emptyInvertedAndNegativeResolutionAxesAreReportedNotTrapped() {
        var d = DeviceDescription(name: "odd")
        d.axes[ABS.MT_SLOT] = AxisInfo(minimum: 0, maximum: -7)
        d.axes[ABS.MT_POSITION_X] = AxisInfo(minimum: .max, maximum: .min, resolution: -3)
        d.axes[ABS.MT_POSITION_Y] = AxisInfo(minimum: 5, maximum: 5, resolution: 10)
        #expect(d.slotCount == 1)
        #expect(d.xAxis!.span == 0)
        let problems = d.axisProblems ?? ""
        #expect(problems.contains("X axis has no range"))
        #expect(problems.contains("Y axis has no range"))
        #expect(problems.contains("negative resolution (-3)"))
        #expect(testDevice().axisProblems == nil)
        let g = DeviceGeometry(x: d.xAxis!, y: d.yAxis!)
        #expect(g.sizeSource == .fallback)
        #expect(g.sizeMM == Point(x: 0, y: 0))
        var decoder = SlotDecoder(device: d, geometry: g)
        let f = frames(
            &decoder,
            [
                (EV.ABS, ABS.MT_TRACKING_ID, 1), (EV.ABS, ABS.MT_POSITION_X, 7),
                (EV.ABS, ABS.MT_POSITION_Y, .min), (EV.SYN, SYN.REPORT, 0),
            ])
        #expect(f.first?.touches.first?.normalised == Point(x: 0, y: 0))
    }

    @Test func slotNumbersAndTrackingIDsAtTheLimitsAreHarmless() {
        var d = widestDevice()
        d.axes[ABS.MT_SLOT] = AxisInfo(minimum: .min, maximum: .max)
        #expect(d.slotCount == 2_147_483_648)
        var decoder = SlotDecoder(
            device: d, geometry: DeviceGeometry(x: d.xAxis!, y: d.yAxis!),
            initialTrackingIDs: [.max, .min], initialSlot: .max)
        let f = frames(
            &decoder,
            [
                (EV.ABS, ABS.MT_TRACKING_ID, 4), (EV.ABS, ABS.MT_SLOT, .min),
                (EV.ABS, ABS.MT_TRACKING_ID, 5), (EV.ABS, ABS.MT_SLOT, .max),
                (EV.ABS, ABS.MT_POSITION_X, 3), (EV.ABS, ABS.MT_SLOT, 63),
                (EV.ABS, ABS.MT_TRACKING_ID, .max), (EV.SYN, SYN.REPORT, 0),
            ])
        #expect(f.count == 1)
        #expect(f[0].touches.map(\.slot) == [63])
        #expect(f[0].touches[0].trackingID == .max)
    }
}
