import GestureCore
import LinuxInput
import Testing

@Suite("Type A ranges from outside")
struct TypeARangeTests {
    /// mtdev's default fuzz is a fraction of the axis range: for a range wider
    /// than 32 bits can hold that must not overflow.
    @Test func theWidestAxisGoesThroughLibmtdev() throws {
        var d = DeviceDescription(name: "type A, widest")
        d.axes[ABS.MT_POSITION_X] = AxisInfo(minimum: .min, maximum: .max)
        d.axes[ABS.MT_POSITION_Y] = AxisInfo(minimum: .min, maximum: .max)
        d.axes[0x34] = AxisInfo(minimum: .min, maximum: .max)  // ABS_MT_ORIENTATION
        #expect(d.isTypeA)
        let t = EventTime(microseconds: 5)
        let events = [
            RawEvent(time: t, type: EV.ABS, code: ABS.MT_POSITION_X, value: .max),
            RawEvent(time: t, type: EV.ABS, code: ABS.MT_POSITION_Y, value: .min),
            RawEvent(time: t, type: EV.SYN, code: SYN.MT_REPORT, value: 0),
            RawEvent(time: t, type: EV.SYN, code: SYN.REPORT, value: 0),
        ]
        let (converted, out) = try convertTypeA(events: events, device: d)
        var decoder = SlotDecoder(device: converted, geometry: DeviceGeometry(x: converted.xAxis!, y: converted.yAxis!))
        var locations: [Point] = []
        for e in out where decoder.feed(e) { locations += decoder.lastFrame.touches.map(\.normalised) }
        #expect(locations == [Point(x: 1, y: 0)])
    }

    /// An absolute axis code beyond ABS_MAX (a recording can hold one) must not
    /// reach libmtdev, which indexes its tables by the code.
    @Test func axisCodesBeyondTheKernelsLastAreDropped() throws {
        var d = DeviceDescription(name: "type A")
        d.axes[ABS.MT_POSITION_X] = AxisInfo(minimum: 0, maximum: 9600)
        d.axes[ABS.MT_POSITION_Y] = AxisInfo(minimum: 0, maximum: 7200)
        let t = EventTime(microseconds: 5)
        var events: [RawEvent] = []
        for code: UInt16 in [0x3000, 0x40, 0xffff, ABS.MT_POSITION_X, ABS.MT_POSITION_Y] {
            events.append(RawEvent(time: t, type: EV.ABS, code: code, value: 4800))
        }
        events += [
            RawEvent(time: t, type: EV.SYN, code: SYN.MT_REPORT, value: 0),
            RawEvent(time: t, type: EV.SYN, code: SYN.REPORT, value: 0),
        ]
        let (_, out) = try convertTypeA(events: events, device: d)
        #expect(!out.contains { $0.type == EV.ABS && $0.code > ABS.MAX })
        #expect(out.contains { $0.code == ABS.MT_POSITION_X && $0.value == 4800 })
    }
}
