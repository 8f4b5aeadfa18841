import FuzzSupport
import GestureCore
import GestureDaemon

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
    let sample = GestureEvent(name: "pan", kind: .pan, state: .began, time: .zero, device: "panel", fingers: 2,
                              location: Point(x: 1, y: 2), locationNormalised: Point(x: 0.5, y: 0.5),
                              detail: .pan(translation: .zero, velocity: .zero))
    func check(_ actions: [ClientSession.Action]) {
        for a in actions {
            require(!closed, "\(a) after close")
            switch a {
            case .send(let line):
                require(!line.utf8.contains(UInt8(ascii: "\n")), "a reply spans lines: \(line)")
                guard case .object? = try? JSONValue.parse(line) else { require(false, "not a JSON object: \(line)"); return }
            case .subscribe(let filter):
                guard case .object? = try? JSONValue.parse(filter.json) else { require(false, "filter JSON: \(filter.json)"); return }
                _ = filter.matches(sample)
            case .sendStatus(let id):
                if let id { require((try? JSONValue.parse(id.json)) != nil, "request id JSON: \(id.json)") }
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
        rest = UnsafeBufferPointer(rebasing: rest[n...])
    }
    check(session.endOfInput())
    return 0
}

@main enum FuzzProtocol {
    static func main() { runFuzzer(fuzzProtocol) }
}
