import GestureCore
import Glibc
import LinuxInput
import LinuxSystem
import Testing

/// The N-Trig recording is type A (SYN_MT_REPORT, no slots): its eight frames
/// carry 3, 3, 3, 4, 4, 4, 1 and 0 contacts.
@Suite("Type A → type B through libmtdev")
struct TypeATests {
    static let fixture: String = {
        let here = #filePath
        let dir = here[..<here.lastIndex(of: "/")!]  // …/Tests/LinuxInputTests
        let tests = dir[..<dir.lastIndex(of: "/")!]
        return tests + "/fixtures/recordings/ntrig-dell-xt2.event"
    }()

    func load() throws -> (DeviceDescription, [RawEvent]) {
        let text = try readFile(Self.fixture)
        let rec = try EvemuRecording(parsing: text)
        return (try #require(rec.device), rec.events)
    }

    @Test func descriptionGetsSlots() throws {
        let (device, events) = try load()
        #expect(device.isTypeA)
        let (converted, out) = try convertTypeA(events: events, device: device)
        #expect(converted.hasSlots && !converted.isTypeA)
        #expect(converted.slotCount == 10)
        #expect(converted.axes[ABS.MT_TRACKING_ID] != nil)
        #expect(converted.xAxis == device.xAxis)
        // Only type B comes out: no SYN_MT_REPORT, and one SYN_REPORT per input frame.
        #expect(!out.contains { $0.type == EV.SYN && $0.code == SYN.MT_REPORT })
        let reportsIn = events.filter { $0.type == EV.SYN && $0.code == SYN.REPORT }.count
        let reportsOut = out.filter { $0.type == EV.SYN && $0.code == SYN.REPORT }.count
        #expect(reportsIn == 8 && reportsOut == 8)
    }

    @Test func touchLifecyclesThroughTheDecoder() throws {
        let (device, events) = try load()
        let (converted, out) = try convertTypeA(events: events, device: device)
        let geometry = DeviceGeometry(x: converted.xAxis!, y: converted.yAxis!)
        var decoder = SlotDecoder(device: converted, geometry: geometry)
        var liveCounts: [Int] = []
        var began: [TouchID: Int] = [:]  // touch → slot
        var ended: Set<TouchID> = []
        var cancelled = 0
        for e in out where decoder.feed(e) {
            let frame = decoder.lastFrame
            liveCounts.append(frame.liveCount)
            for t in frame.touches {
                switch t.phase {
                case .began:
                    #expect(began[t.id] == nil, "touch \(t.id) began twice")
                    began[t.id] = t.slot
                case .moved, .stationary:
                    #expect(began[t.id] == t.slot, "touch \(t.id) changed slot")
                case .ended:
                    #expect(began[t.id] == t.slot)
                    #expect(ended.insert(t.id).inserted, "touch \(t.id) ended twice")
                case .cancelled:
                    cancelled += 1
                }
            }
        }
        // mtdev matches contacts across frames by distance: four fingers, each
        // begun once and ended once, none cancelled; all up at the end. (Frames
        // where mtdev's fuzz filter left every position unchanged carry no news,
        // so the decoder emits none for them.)
        var distinct: [Int] = []
        for n in liveCounts where distinct.last != n { distinct.append(n) }
        #expect(distinct == [3, 4, 1, 0])
        #expect(began.count == 4)
        #expect(ended == Set(began.keys))
        #expect(cancelled == 0)
        #expect(decoder.liveTouchCount == 0)
        #expect(Set(began.values).isSubset(of: Set(0..<4)))
    }

    @Test func typeBInputIsLeftAlone() throws {
        var d = DeviceDescription(name: "B")
        d.axes[ABS.MT_SLOT] = AxisInfo(minimum: 0, maximum: 9)
        d.axes[ABS.MT_POSITION_X] = AxisInfo(minimum: 0, maximum: 100)
        d.axes[ABS.MT_POSITION_Y] = AxisInfo(minimum: 0, maximum: 100)
        let events = [RawEvent(time: .zero, type: EV.SYN, code: SYN.REPORT, value: 0)]
        let (same, out) = try convertTypeA(events: events, device: d)
        #expect(same == d && out == events)
    }
}

func readFile(_ path: String) throws -> String {
    guard let f = fopen(path, "r") else { throw Errno.current }
    defer { fclose(f) }
    var bytes: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&buf, 1, buf.count, f)
        if n <= 0 { break }
        bytes.append(contentsOf: buf[0..<n])
    }
    return String(decoding: bytes, as: UTF8.self)
}
