import FuzzSupport
import GestureCore
import GestureDaemon
import GestureProtocol

/// The protocol session: any bytes, split into reads anywhere, give replies
/// that are single lines of JSON, at most one final `close`, nothing after it,
/// and a bounded count of errors.
@_cdecl("gestured_fuzz_protocol")
func fuzzProtocol(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var reader = ByteReader(data, size)
    guard let setup = reader.u8() else { return 0 }
    let limits = setup & 1 == 0 ? ClientSession.Limits() : ClientSession.Limits(maxLineBytes: 64, maxErrors: 3)
    var session = ClientSession(limits: limits)
    var closed = false
    let sample = GestureEvent(
        name: "pan", kind: .pan, state: .began, time: .zero, device: "panel", fingers: 2,
        location: Point(x: 1, y: 2), locationNormalised: Point(x: 0.5, y: 0.5),
        detail: .pan(translation: .zero, velocity: .zero))
    func check(_ actions: [ClientSession.Action]) {
        for a in actions {
            require(!closed, "\(a) after close")
            switch a {
            case .send(let line):
                require(!line.utf8.contains(UInt8(ascii: "\n")), "a reply spans lines: \(line)")
                guard case .object? = try? JSONValue.parse(line) else {
                    require(false, "not a JSON object: \(line)")
                    return
                }
            case .subscribe(let filter):
                guard case .object? = try? JSONValue.parse(filter.json) else {
                    require(false, "filter JSON: \(filter.json)")
                    return
                }
                _ = filter.matches(sample)
            case .sendSubscribed(let filter, let id):
                guard case .object? = try? JSONValue.parse(filter.json) else {
                    require(false, "filter JSON: \(filter.json)")
                    return
                }
                if let id { require((try? JSONValue.parse(id.json)) != nil, "request id JSON: \(id.json)") }
            case .sendStatus(let id):
                if let id { require((try? JSONValue.parse(id.json)) != nil, "request id JSON: \(id.json)") }
            case .control(let request, let id):
                if let id { require((try? JSONValue.parse(id.json)) != nil, "request id JSON: \(id.json)") }
                // Every reply the daemon could give to it is one line of JSON.
                let replies: [ControlReply]
                switch request {
                case .rotate(let r, let device):
                    replies = [
                        .rotated(r, devices: device.map { [$0] } ?? []),
                        .refused(.unknownDevice, "no touchscreen named '\(device ?? "")' is in use"),
                    ]
                case .profile(let name):
                    require(Profiles.nameProblem(name) == nil, "a bad profile name passed: \(name)")
                    replies = [.profile(RuntimeProfile(name: name), recognizers: [name], warning: name)]
                case .pause, .resume:
                    replies = [.profile(RuntimeProfile(paused: true), recognizers: [], warning: nil)]
                }
                for r in replies {
                    let line = ProtocolMessages.reply(r, id: id)
                    require(!line.utf8.contains(UInt8(ascii: "\n")), "a reply spans lines: \(line)")
                    require((try? JSONValue.parse(line)) != nil, "not JSON: \(line)")
                }
            case .unsubscribe:
                break
            case .close:
                closed = true
            }
        }
        require(session.errors <= limits.maxErrors, "\(session.errors) errors, limit \(limits.maxErrors)")
        require(closed == session.isClosed, "closed \(closed), session says \(session.isClosed)")
    }
    // Reads of 1…64 bytes, their sizes taken from the input as it goes.
    var rest = UnsafeBufferPointer(rebasing: reader.bytes[reader.offset...])
    var sizes = setup >> 1
    while !rest.isEmpty {
        let n = min(rest.count, 1 + Int(sizes & 63))
        sizes = sizes &* 37 &+ rest[0]
        check(session.received(UnsafeBufferPointer(rebasing: rest[..<n])))
        // As the server does: what one call left pending is answered before more is read.
        while session.hasPendingInput { check(session.resume()) }
        rest = UnsafeBufferPointer(rebasing: rest[n...])
    }
    check(session.endOfInput())
    return 0
}

@main enum FuzzProtocol {
    static func main() { runFuzzer(fuzzProtocol) }
}
