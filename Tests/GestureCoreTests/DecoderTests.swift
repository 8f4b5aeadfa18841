import Testing

@testable import GestureCore

@Suite("Slot decoder: touch lifecycles from type-B events")
struct DecoderTests {
    let device = testDevice()
    var geometry: DeviceGeometry { DeviceGeometry(x: device.xAxis!, y: device.yAxis!) }

    func feed(_ d: inout SlotDecoder, _ events: [(UInt16, UInt16, Int32)], at ms: Int64 = 0) -> [TouchFrame] {
        var frames: [TouchFrame] = []
        for (t, c, v) in events
        where d.feed(RawEvent(time: EventTime(microseconds: ms * 1000), type: t, code: c, value: v)) {
            frames.append(d.lastFrame)
        }
        return frames
    }

    @Test func oneFingerBeginsMovesEnds() {
        var d = SlotDecoder(device: device, geometry: geometry)
        let f1 = feed(
            &d,
            [
                (EV.ABS, ABS.MT_SLOT, 0), (EV.ABS, ABS.MT_TRACKING_ID, 5),
                (EV.ABS, ABS.MT_POSITION_X, 100), (EV.ABS, ABS.MT_POSITION_Y, 200), (EV.SYN, SYN.REPORT, 0),
            ])
        #expect(f1.count == 1)
        #expect(f1[0].touches.map(\.phase) == [.began])
        #expect(f1[0].touches[0].position == mm(10, 20))
        #expect(f1[0].touches[0].normalised == Point(x: 0.05, y: 0.2))
        let f2 = feed(&d, [(EV.ABS, ABS.MT_POSITION_X, 150), (EV.SYN, SYN.REPORT, 0)], at: 10)
        #expect(f2.map { $0.touches.map(\.phase) } == [[.moved]])
        #expect(f2[0].touches[0].position == mm(15, 20))
        #expect(f2[0].touches[0].startPosition == mm(10, 20))
        let f3 = feed(&d, [(EV.ABS, ABS.MT_TRACKING_ID, -1), (EV.SYN, SYN.REPORT, 0)], at: 20)
        #expect(f3.map { $0.touches.map(\.phase) } == [[.ended]])
        #expect(f3[0].isLast)
        #expect(d.liveTouchCount == 0)
    }

    @Test func aTouchLandingWhereItsSlotsLastOneWasKeepsThePositionKnownAtOpen() {
        // The kernel does not resend an unchanged ABS_MT_POSITION_X: the new touch
        // reports only its y, and x is what the slot had when the device was opened.
        let landing: [(UInt16, UInt16, Int32)] = [
            (EV.ABS, ABS.MT_TRACKING_ID, 3), (EV.ABS, ABS.MT_POSITION_Y, 400),
            (EV.SYN, SYN.REPORT, 0),
        ]
        var d = SlotDecoder(device: device, geometry: geometry, initialPositions: [SlotPosition(x: 510, y: 340)])
        #expect(feed(&d, landing).first?.touches.first?.position == mm(51, 40))
        var unknown = SlotDecoder(device: device, geometry: geometry)
        #expect(feed(&unknown, landing).first?.touches.first?.position == mm(0, 40), "without them, the left edge")
        var outside = SlotDecoder(
            device: device, geometry: geometry, initialPositions: [SlotPosition(x: -5, y: 99_999)])
        #expect(
            feed(&outside, [(EV.ABS, ABS.MT_TRACKING_ID, 3), (EV.SYN, SYN.REPORT, 0)]).first?.touches.first?.position
                == mm(0, 100), "clamped to the axes like any position")
    }

    @Test func secondFingerIsStationaryWhileFirstMoves() {
        var d = SlotDecoder(device: device, geometry: geometry)
        _ = feed(
            &d,
            [
                (EV.ABS, ABS.MT_TRACKING_ID, 1), (EV.ABS, ABS.MT_POSITION_X, 100), (EV.ABS, ABS.MT_POSITION_Y, 100),
                (EV.ABS, ABS.MT_SLOT, 1), (EV.ABS, ABS.MT_TRACKING_ID, 2), (EV.ABS, ABS.MT_POSITION_X, 300),
                (EV.ABS, ABS.MT_POSITION_Y, 100), (EV.SYN, SYN.REPORT, 0),
            ])
        let f = feed(&d, [(EV.ABS, ABS.MT_SLOT, 0), (EV.ABS, ABS.MT_POSITION_X, 120), (EV.SYN, SYN.REPORT, 0)], at: 10)
        #expect(f.count == 1)
        #expect(f[0].touches.map(\.phase) == [.moved, .stationary])
        #expect(f[0].liveCount == 2)
        #expect(f[0].centroid == mm(21, 10))
    }

    @Test func newTrackingIDInOneFrameEndsTheOldTouchAndBeginsANewOne() {
        var d = SlotDecoder(device: device, geometry: geometry)
        let first = feed(
            &d,
            [
                (EV.ABS, ABS.MT_TRACKING_ID, 7), (EV.ABS, ABS.MT_POSITION_X, 100),
                (EV.ABS, ABS.MT_POSITION_Y, 100), (EV.SYN, SYN.REPORT, 0),
            ])
        let oldID = first[0].touches[0].id
        let f = feed(
            &d,
            [
                (EV.ABS, ABS.MT_TRACKING_ID, 8), (EV.ABS, ABS.MT_POSITION_X, 500),
                (EV.SYN, SYN.REPORT, 0),
            ], at: 10)
        #expect(f.count == 1)
        #expect(f[0].touches.map(\.phase) == [.ended, .began])
        #expect(f[0].touches[0].id == oldID)
        #expect(f[0].touches[0].position == mm(10, 10), "the old touch ends where it was")
        #expect(f[0].touches[1].id != oldID)
        #expect(f[0].touches[1].position == mm(50, 10))
    }

    @Test func axisUpdatesToADeadSlotBeginNothing() {
        var d = SlotDecoder(device: device, geometry: geometry)
        let f = feed(
            &d,
            [
                (EV.ABS, ABS.MT_SLOT, 3), (EV.ABS, ABS.MT_POSITION_X, 100), (EV.ABS, ABS.MT_POSITION_Y, 100),
                (EV.SYN, SYN.REPORT, 0),
            ])
        #expect(f.isEmpty)
        #expect(d.liveTouchCount == 0)
    }

    @Test func touchesDownAtOpenAreIgnoredUntilLifted() {
        var d = SlotDecoder(device: device, geometry: geometry, initialTrackingIDs: [42])
        let moving = feed(&d, [(EV.ABS, ABS.MT_POSITION_X, 300), (EV.SYN, SYN.REPORT, 0)])
        #expect(moving.isEmpty)
        let lifted = feed(&d, [(EV.ABS, ABS.MT_TRACKING_ID, -1), (EV.SYN, SYN.REPORT, 0)], at: 10)
        #expect(lifted.isEmpty, "a touch we never reported is not ended either")
        let next = feed(&d, [(EV.ABS, ABS.MT_TRACKING_ID, 43), (EV.SYN, SYN.REPORT, 0)], at: 20)
        #expect(next.map { $0.touches.map(\.phase) } == [[.began]])
    }

    @Test func palmCancelsTheTouch() {
        var d = SlotDecoder(device: device, geometry: geometry)
        _ = feed(&d, [(EV.ABS, ABS.MT_TRACKING_ID, 1), (EV.SYN, SYN.REPORT, 0)])
        let f = feed(&d, [(EV.ABS, ABS.MT_TOOL_TYPE, MTTool.palm), (EV.SYN, SYN.REPORT, 0)], at: 10)
        #expect(f.map { $0.touches.map(\.phase) } == [[.cancelled]])
        let after = feed(
            &d,
            [
                (EV.ABS, ABS.MT_POSITION_X, 900), (EV.SYN, SYN.REPORT, 0),
                (EV.ABS, ABS.MT_TRACKING_ID, -1), (EV.SYN, SYN.REPORT, 0),
            ], at: 20)
        #expect(after.isEmpty, "the palm's later movement and lift say nothing")
    }

    @Test func rawSynDroppedCancelsLiveTouches() {
        var d = SlotDecoder(device: device, geometry: geometry)
        _ = feed(&d, [(EV.ABS, ABS.MT_TRACKING_ID, 1), (EV.SYN, SYN.REPORT, 0)])
        let f = feed(&d, [(EV.SYN, SYN.DROPPED, 0), (EV.ABS, ABS.MT_POSITION_X, 900), (EV.SYN, SYN.REPORT, 0)], at: 10)
        #expect(f.map { $0.touches.map(\.phase) } == [[.cancelled]])
        #expect(d.liveTouchCount == 0)
    }

    @Test func touchesThatVanishDuringAResyncAreCancelled() {
        var d = SlotDecoder(device: device, geometry: geometry)
        _ = feed(
            &d,
            [
                (EV.ABS, ABS.MT_TRACKING_ID, 1), (EV.ABS, ABS.MT_SLOT, 1), (EV.ABS, ABS.MT_TRACKING_ID, 2),
                (EV.SYN, SYN.REPORT, 0),
            ])
        d.beginResync()
        // What libevdev synthesizes: slot 0 lifted, slot 1 moved, then a report.
        let f = feed(
            &d,
            [
                (EV.ABS, ABS.MT_SLOT, 0), (EV.ABS, ABS.MT_TRACKING_ID, -1), (EV.ABS, ABS.MT_SLOT, 1),
                (EV.ABS, ABS.MT_POSITION_X, 50), (EV.SYN, SYN.REPORT, 0),
            ], at: 50)
        #expect(f.map { $0.touches.map(\.phase) } == [[.cancelled, .moved]])
        // After the resync, lifting ends normally.
        let g = feed(&d, [(EV.ABS, ABS.MT_TRACKING_ID, -1), (EV.SYN, SYN.REPORT, 0)], at: 60)
        #expect(g.map { $0.touches.map(\.phase) } == [[.ended]])
    }

    @Test func cancelAllTouchesWhenTheDeviceGoesAway() {
        var d = SlotDecoder(device: device, geometry: geometry)
        _ = feed(
            &d,
            [
                (EV.ABS, ABS.MT_TRACKING_ID, 1), (EV.ABS, ABS.MT_SLOT, 1), (EV.ABS, ABS.MT_TRACKING_ID, 2),
                (EV.SYN, SYN.REPORT, 0),
            ])
        let first = d.cancelAllTouches(at: EventTime(microseconds: 5000))
        #expect(first)
        #expect(d.lastFrame.touches.map(\.phase) == [.cancelled, .cancelled])
        let second = d.cancelAllTouches(at: EventTime(microseconds: 6000))
        #expect(!second, "a second teardown changes nothing")
    }

    @Test func touchIDsAreUniqueAcrossDecodersAndReusedTrackingIDs() {
        var a = SlotDecoder(device: device, geometry: geometry, serial: 1)
        var b = SlotDecoder(device: device, geometry: geometry, serial: 2)
        var ids: Set<TouchID> = []
        for round in 0..<3 {
            for d in [0, 1] {
                let frames =
                    d == 0
                    ? feed(&a, [(EV.ABS, ABS.MT_TRACKING_ID, 9), (EV.SYN, SYN.REPORT, 0)], at: Int64(round))
                    : feed(&b, [(EV.ABS, ABS.MT_TRACKING_ID, 9), (EV.SYN, SYN.REPORT, 0)], at: Int64(round))
                ids.insert(frames[0].touches[0].id)
                if d == 0 {
                    _ = feed(&a, [(EV.ABS, ABS.MT_TRACKING_ID, -1), (EV.SYN, SYN.REPORT, 0)])
                } else {
                    _ = feed(&b, [(EV.ABS, ABS.MT_TRACKING_ID, -1), (EV.SYN, SYN.REPORT, 0)])
                }
            }
        }
        #expect(ids.count == 6)
    }

    @Test func singleTouchDeviceUsesBtnTouch() {
        var st = DeviceDescription(name: "single")
        st.axes[ABS.X] = AxisInfo(minimum: 0, maximum: 1000, resolution: 10)
        st.axes[ABS.Y] = AxisInfo(minimum: 0, maximum: 1000, resolution: 10)
        var d = SlotDecoder(device: st, geometry: DeviceGeometry(x: st.xAxis!, y: st.yAxis!))
        let f = feed(
            &d,
            [
                (EV.KEY, BTN.TOUCH, 1), (EV.ABS, ABS.X, 200), (EV.ABS, ABS.Y, 300), (EV.SYN, SYN.REPORT, 0),
                (EV.ABS, ABS.X, 250), (EV.SYN, SYN.REPORT, 0), (EV.KEY, BTN.TOUCH, 0), (EV.SYN, SYN.REPORT, 0),
            ])
        #expect(f.map { $0.touches.map(\.phase) } == [[.began], [.moved], [.ended]])
        #expect(f[2].touches[0].position == mm(25, 30))
    }
}

@Suite("Device geometry: mm, calibration, rotation")
struct GeometryTests {
    let x = AxisInfo(minimum: 0, maximum: 1000, resolution: 10)
    let y = AxisInfo(minimum: 0, maximum: 500, resolution: 10)

    @Test func millimetresFromResolution() {
        let g = DeviceGeometry(x: x, y: y)
        #expect(g.sizeMM == mm(100, 50))
        #expect(g.sizeSource == .resolution)
        #expect(g.millimetres(normalised: g.normalised(rawX: 250, rawY: 100)) == mm(25, 10))
    }

    @Test func calibrationMatrixAppliesInNormalisedSpaceLikeLibinput() {
        // Mirror x: a = -1, c = 1.
        let g = DeviceGeometry(x: x, y: y, calibration: [-1, 0, 1, 0, 1, 0])
        #expect(g.normalised(rawX: 250, rawY: 100) == Point(x: 0.75, y: 0.2))
    }

    @Test func rotationTurnsTheAreaAndSwapsItsSides() {
        let g = DeviceGeometry(x: x, y: y, rotation: .cw90)
        #expect(g.orientedSizeMM == mm(50, 100))
        // Top-left of the panel becomes top-right after a clockwise quarter turn.
        #expect(g.normalised(rawX: 0, rawY: 0) == Point(x: 1, y: 0))
        #expect(DeviceGeometry(x: x, y: y, rotation: .cw180).normalised(rawX: 0, rawY: 0) == Point(x: 1, y: 1))
        #expect(DeviceGeometry(x: x, y: y, rotation: .cw270).normalised(rawX: 0, rawY: 0) == Point(x: 0, y: 1))
    }

    @Test func configuredSizeWhenResolutionIsZeroElseAFallbackThatSaysSo() {
        let bare = AxisInfo(minimum: 0, maximum: 799)
        let bareY = AxisInfo(minimum: 0, maximum: 479)
        #expect(DeviceGeometry(x: bare, y: bareY, sizeMM: mm(154, 86)).sizeSource == .config)
        let fallback = DeviceGeometry(x: bare, y: bareY)
        #expect(fallback.sizeSource == .fallback)
        #expect(fallback.sizeMM.x == DeviceGeometry.fallbackLongSideMM)
    }
}

@Suite("evemu recordings")
struct EvemuTests {
    @Test func parsesDescriptionAndEvents() throws {
        let text = """
            # EVEMU 1.3
            N: Some Panel
            I: 0018 0eef 72a1 0210
            P: 02 00 00 00 00 00 00 00
            B: 01 00 00 00 00 00 00 00 00
            B: 01 00 00 00 00 00 00 00 00
            B: 01 00 00 00 00 00 00 00 00
            B: 01 00 00 00 00 00 00 00 00
            B: 01 00 00 00 00 00 00 00 00
            B: 01 00 04 00 00 00 00 00 00
            A: 00 0 799 0 0 0
            A: 2f 0 9 0 0
            A: 35 0 799 0 0 12
            E: 0.000001 0003 0039 0003\t# EV_ABS / ABS_MT_TRACKING_ID   3
            E: 1.5 0003 0039 -001
            """
        let r = try EvemuRecording(parsing: text)
        let d = try #require(r.device)
        #expect(d.name == "Some Panel")
        #expect(d.vendorProduct == "0eef:72a1")
        #expect(d.properties == [InputProp.direct])
        #expect(d.keys.contains(BTN.TOUCH))
        #expect(d.axes[ABS.MT_SLOT]?.maximum == 9)
        #expect(d.axes[ABS.MT_POSITION_X]?.resolution == 12)
        #expect(d.axes[ABS.X]?.resolution == 0)
        #expect(r.events.count == 2)
        #expect(
            r.events[0] == RawEvent(time: EventTime(microseconds: 1), type: EV.ABS, code: ABS.MT_TRACKING_ID, value: 3))
        #expect(r.events[1].time == EventTime(microseconds: 1_500_000))
        #expect(r.events[1].value == -1)
    }

    @Test func badLinesSayWhereAndWhat() {
        #expect(throws: EvemuRecording.ParseError(line: 2, message: "A: needs code min max fuzz flat [resolution]")) {
            try EvemuRecording(parsing: "N: x\nA: 00 0 799\n")
        }
    }
}

extension EvemuRecording.ParseError: Equatable {
    public static func == (a: Self, b: Self) -> Bool { a.line == b.line && a.message == b.message }
}
