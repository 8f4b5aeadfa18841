import GestureCore
import GestureProtocol
import Glibc
import Testing

@testable import GestureClient

/// The policy for consumers slower than the events: lifecycle transitions are
/// never dropped and stay in order per gesture; only `changed` gives way.
@Suite struct GestureBacklogTests {
    @Test func aWaitingChangedIsReplacedByTheNextOfTheSameGesture() {
        var b = GestureBacklog<Int>(capacity: 10)
        b.push(0, gesture: "pan", state: .began)
        b.push(1, gesture: "pan", state: .changed)
        #expect(b.push(2, gesture: "pan", state: .changed) == .replaced)
        b.push(3, gesture: "pinch", state: .changed)
        b.push(4, gesture: "pan", state: .ended)
        #expect(b.entries.map(\.item) == [0, 2, 3, 4])
        #expect(b.changedDropped == 1)
    }

    @Test func lifecycleEventsAreNeverDroppedAndEvictChangedWhenFull() {
        var b = GestureBacklog<String>(capacity: 3)
        b.push("a began", gesture: "a", state: .began)
        b.push("a changed", gesture: "a", state: .changed)
        b.push("b began", gesture: "b", state: .began)
        #expect(b.isFull)
        #expect(b.push("b changed", gesture: "b", state: .changed) == .dropped)
        b.push("a cancelled", gesture: "a", state: .cancelled)  // evicts "a changed"
        b.push("b ended", gesture: "b", state: .ended)  // no changed left: kept over the bound
        b.push("tap", gesture: "t", state: .recognized)
        #expect(b.entries.map(\.item) == ["a began", "b began", "a cancelled", "b ended", "tap"])
        #expect(b.isFull)
    }

    @Test func aGestureWaitsForItsPreviousEntryOthersGoAhead() {
        var b = GestureBacklog<String>(capacity: 10)
        b.push("a began", gesture: "a", state: .began)
        b.push("a ended", gesture: "a", state: .ended)
        b.push("b tap", gesture: "b", state: .recognized)
        #expect(b.next(busy: { _ in false })?.item == "a began")
        // "a" is being handled: its ended waits, b goes first.
        #expect(b.next(busy: { $0 == "a" })?.item == "b tap")
        #expect(b.next(busy: { $0 == "a" }) == nil)
        #expect(b.next(busy: { _ in false })?.item == "a ended")
    }

    @Test func openGesturesAreCancelledWhenTheConnectionIsLost() throws {
        var open = OpenGestures()
        let began = try JSONValue.parse(
            #"{"type":"event","name":"pan","kind":"pan","state":"began","time":1.5,"device":"ts","fingers":2,"location_mm":[1,2],"location":[0.1,0.2],"translation_mm":[0,0]}"#
        )
        let tap = try JSONValue.parse(
            #"{"type":"event","name":"tap","kind":"tap","state":"recognized","time":1.6,"device":"ts","fingers":1,"location_mm":[1,2],"location":[0.1,0.2],"taps":1}"#
        )
        let pinch = try JSONValue.parse(
            #"{"type":"event","name":"pinch","kind":"pinch","state":"began","time":1.7,"device":"ts","fingers":2,"location_mm":[1,2],"location":[0.1,0.2],"scale":1}"#
        )
        let pinchEnded = try JSONValue.parse(
            #"{"type":"event","name":"pinch","kind":"pinch","state":"ended","time":1.8,"device":"ts","fingers":2,"location_mm":[1,2],"location":[0.1,0.2],"scale":2}"#
        )
        for e in [began, tap, pinch, pinchEnded] { open.note(e) }
        let lines = open.cancelAll(reason: "connection to gestured lost")
        #expect(
            lines == [
                #"{"type":"event","name":"pan","kind":"pan","state":"cancelled","time":1.5,"device":"ts","fingers":2,"location_mm":[1,2],"location":[0.1,0.2],"reason":"connection to gestured lost"}"#
            ])
        #expect(open.count == 0)
    }

    @Test func anEdgeGesturesEndingKeepsItsEdge() throws {
        var open = OpenGestures()
        open.note(
            try JSONValue.parse(
                #"{"type":"event","name":"volume","kind":"pan","state":"began","time":1.5,"device":"ts","fingers":1,"location_mm":[1,2],"location":[0.1,0.2],"edge":"right","translation_mm":[0,0],"step":1}"#
            ))
        #expect(
            open.cancelAll(reason: "connection to gestured lost") == [
                #"{"type":"event","name":"volume","kind":"pan","state":"cancelled","time":1.5,"device":"ts","fingers":1,"location_mm":[1,2],"location":[0.1,0.2],"edge":"right","reason":"connection to gestured lost"}"#
            ])
    }
}

extension ChildProcesses {
    /// `gesturectl subscribe --exec` with real children: every lifecycle event
    /// runs, in order per gesture, however slow the commands.
    @Suite(.serialized) struct CommandRunnerTests {
        @Test func withOneSlotEveryEndingStillRunsInOrder() throws {
            let out = "/tmp/gestured-test-\(getpid())-exec.out"
            unlink(out)
            defer { unlink(out) }
            var warnings: [String] = []
            let runner = CommandRunner(
                command: "echo \"$GESTURE_NAME $GESTURE_STATE\" >> \(out)", maxChildren: 1,
                backlog: 16, warn: { warnings.append($0) })
            func submit(_ name: String, _ state: GestureState) {
                let line = "{\"type\":\"event\",\"name\":\"\(name)\",\"state\":\"\(state.rawValue)\"}"
                runner.submit(
                    eventLine: line, environment: [("GESTURE_NAME", name), ("GESTURE_STATE", state.rawValue)],
                    gesture: name, state: state)
                if runner.isFull { runner.waitForRoom() }
            }
            submit("pan", .began)
            submit("pinch", .began)
            for _ in 0..<200 {
                submit("pan", .changed)
                submit("pinch", .changed)
            }
            submit("pan", .cancelled)
            for _ in 0..<30 { submit("tap", .recognized) }
            submit("pinch", .ended)
            runner.drain()
            let lines = contents(of: out).split(separator: "\n").map(String.init)
            func states(_ name: String) -> [String] {
                lines.filter { $0.hasPrefix(name + " ") }.map { String($0.dropFirst(name.count + 1)) }
            }
            #expect(states("pan").first == "began")
            #expect(states("pan").last == "cancelled")
            #expect(states("pinch").first == "began")
            #expect(states("pinch").last == "ended")
            #expect(states("tap").count == 30)
            #expect(runner.changedDropped > 0)
            #expect(states("pan").count + states("pinch").count + runner.changedDropped == 404)
            #expect(!warnings.isEmpty && warnings.allSatisfy { !$0.contains("dropped this event") })
        }
    }
}

private func contents(of path: String) -> String {
    guard let f = fopen(path, "r") else { return "" }
    defer { fclose(f) }
    var out: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = fread(&buf, 1, buf.count, f)
        if n <= 0 { break }
        out += buf[0..<n]
    }
    return String(decoding: out, as: UTF8.self)
}
