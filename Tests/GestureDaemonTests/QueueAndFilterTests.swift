import GestureCore
import Testing

@testable import GestureDaemon
@testable import GestureProtocol

@Suite struct OutboundQueueTests {
    @Test func refusesALineThatBreaksTheLineLimit() {
        var q = OutboundQueue(limits: .init(maxLines: 2, maxBytes: 1000))
        let a = q.enqueue(SharedLine("a")), b = q.enqueue(SharedLine("b")), c = q.enqueue(SharedLine("c"))
        #expect(a && b && !c)
        #expect(q.count == 2)
        #expect(q.queuedBytes == 4)
    }

    @Test func refusesALineThatBreaksTheByteLimit() {
        var q = OutboundQueue(limits: .init(maxLines: 100, maxBytes: 10))
        let first = q.enqueue(SharedLine("12345678"))  // 9 bytes with the newline
        let second = q.enqueue(SharedLine("1"))  // 2 more would be 11
        #expect(first && !second)
        #expect(q.queuedBytes == 9)
    }

    @Test func partialWritesResumeWhereTheyStopped() {
        var q = OutboundQueue()
        _ = q.enqueue(SharedLine("hello"))
        _ = q.enqueue(SharedLine("w"))
        var out: [UInt8] = []
        for chunk in [2, 3, 1, 2] {
            q.withPendingBytes {
                out += Array($0.prefix(chunk))
                return ()
            }
            q.consume(min(chunk, q.withPendingBytes { $0.count } ?? 0))
        }
        #expect(String(decoding: out, as: UTF8.self) == "hello\nw\n")
        #expect(q.isEmpty)
        #expect(q.queuedBytes == 0)
    }

    @Test func theFinalLineReplacesUnstartedLinesButFinishesTheCurrentOne() {
        var q = OutboundQueue(limits: .init(maxLines: 3, maxBytes: 1000))
        _ = q.enqueue(SharedLine("first"))
        _ = q.enqueue(SharedLine("second"))
        q.consume(2)  // "fi" written
        q.replaceWithFinal(SharedLine("bye"))
        var out: [UInt8] = []
        while let n = q.withPendingBytes({ b -> Int in
            out += Array(b)
            return b.count
        }) { q.consume(n) }
        #expect(String(decoding: out, as: UTF8.self) == "rst\nbye\n")
    }

    @Test func theFinalLineGoesFirstWhenNothingIsHalfWritten() {
        var q = OutboundQueue(limits: .init(maxLines: 1, maxBytes: 10))
        _ = q.enqueue(SharedLine("a"))
        q.replaceWithFinal(SharedLine("a long final line beyond the limits"))
        #expect(q.count == 1)
        #expect(q.queuedBytes == 36)
    }

    @Test func aLongRunStaysCompact() {
        var q = OutboundQueue(limits: .init(maxLines: 10, maxBytes: 10_000))
        for i in 0..<10_000 {
            let queued = q.enqueue(SharedLine("\(i)"))
            #expect(queued)
            if i % 3 != 0 { while let n = q.withPendingBytes({ $0.count }) { q.consume(n) } }
        }
        while let n = q.withPendingBytes({ $0.count }) { q.consume(n) }
        #expect(q.isEmpty)
    }
}

@Suite struct SubscriptionFilterTests {
    func event(
        _ name: String = "circle", _ kind: GestureKind = .circle, state: GestureState = .recognized,
        device: String = "ts"
    ) -> GestureEvent {
        GestureEvent(
            name: name, kind: kind, state: state, time: .seconds(1), device: device, fingers: 1,
            location: Point(x: 1, y: 2), locationNormalised: Point(x: 0.1, y: 0.2))
    }

    @Test func emptyFilterTakesEverythingButFailures() {
        let f = SubscriptionFilter()
        #expect(f.matches(event()))
        #expect(f.matches(event(state: .began)))
        #expect(!f.matches(event(state: .failed)))
    }

    @Test func failuresFlagAddsFailedToTheStates() {
        #expect(SubscriptionFilter(failures: true).matches(event(state: .failed)))
        #expect(SubscriptionFilter(states: [.recognized], failures: true).matches(event(state: .failed)))
        #expect(!SubscriptionFilter(states: [.recognized], failures: true).matches(event(state: .began)))
        #expect(SubscriptionFilter(states: [.failed]).matches(event(state: .failed)))
    }

    @Test func fieldsAreAndedValuesOred() {
        let f = SubscriptionFilter(names: ["circle", "tap"], kinds: [.circle], devices: ["ts"])
        #expect(f.matches(event("circle", .circle)))
        #expect(!f.matches(event("tap", .tap)))
        #expect(!f.matches(event("other", .circle)))
        #expect(!f.matches(event("circle", .circle, device: "pad")))
    }

    @Test func eventLineIsTheEnvelopeWithTypeAndTimes() throws {
        let line = ProtocolMessages.event(event(), frameTime: .seconds(0.99), emitted: .seconds(1.0005))
        #expect(
            line.hasPrefix(
                "{\"type\":\"event\",\"name\":\"circle\",\"kind\":\"circle\",\"state\":\"recognized\",\"time\":1.000000,"
            ))
        let v = try JSONValue.parse(line)
        #expect(v["frame_time"] == .number(0.99))
        #expect(v["emitted"] == .number(1.0005))
        #expect(v["location_mm"] == .array([.number(1), .number(2)]))
    }
}
