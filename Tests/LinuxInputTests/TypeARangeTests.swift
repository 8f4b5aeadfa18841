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
        let events = [RawEvent(time: t, type: EV.ABS, code: ABS.MT_POSITION_X, value: .max),
                      RawEvent(time: t, type: EV.ABS, code: ABS.MT_POSITION_Y, value: .min),
                      RawEvent(time: t, type: EV.SYN, code: SYN.MT_REPORT, value: 0),
                      RawEvent(time: t, type: EV.SYN, code: SYN.REPORT, value: 0)]
        let (converted, out) = try convertTypeA(events: events, device: d)
        var decoder = SlotDecoder(device: converted, geometry: DeviceGeometry(x: converted.xAxis!, y: converted.yAxis!))
        var locations: [Point] = []
        for e in out where decoder.feed(e) { locations += decoder.lastFrame.touches.map(\.normalised) }
        #expect(locations == [Point(x: 1, y: 0)])
    }
}
