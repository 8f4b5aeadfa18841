import FuzzSupport
import GestureConfig
import GestureCore
import GestureDaemon
import GestureTools

/// The evemu parser, and replay of what it parses: any text gives events or a
/// parse error naming a line, never a trap; a parsed recording replays through
/// the decoder and arena to its end.
let configuration = ConfigLoader.builtIn()

@_cdecl("gestured_fuzz_evemu")
func fuzzEvemu(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var reader = ByteReader(data, size)
    let text = reader.rest()
    do {
        let recording = try EvemuRecording(parsing: text)
        if let d = recording.device {
            for axis in d.axes.values {
                _ = axis.span
                _ = axis.fraction(axis.maximum)
            }
            _ = d.slotCount
            _ = d.axisProblems
        }
    } catch {
        require(error.line >= 1, "a parse error names line \(error.line)")
        require(!error.message.isEmpty, "a parse error says what is wrong")
    }
    var open: Set<String> = []
    do {
        try Replay.stream(text: text, configuration: configuration) { e in
            require(
                (0...1).contains(e.locationNormalised.x) && (0...1).contains(e.locationNormalised.y),
                "location \(e.locationNormalised) outside 0…1 in \(e.json)")
            if e.kind.isContinuous {
                switch e.state {
                case .began: require(open.insert(e.name).inserted, "\(e.name) began twice")
                case .changed: require(open.contains(e.name), "\(e.name) changed while not begun")
                case .ended, .cancelled: require(open.remove(e.name) != nil, "\(e.name) \(e.state) while not begun")
                default: break
                }
            }
        }
        require(open.isEmpty, "the recording ended with \(open.sorted()) begun and never closed")
    } catch {
        // A parse error or a description that is no touchscreen: reported, not trapped.
    }
    return 0
}

@main enum FuzzEvemu {
    static func main() { runFuzzer(fuzzEvemu) }
}
