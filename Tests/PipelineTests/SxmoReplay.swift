import GestureConfig
import GestureCore
import GestureLisgd
import GestureTools
import Testing

/// Sxmo's 46 bindings as `lisgd -w 720 -h 1440 -t 125 -T 60` takes them
/// (`lisgd_differential`'s options), translated for the phone panel, and the 49
/// labelled phone strokes played on it (`Tests/fixtures/phone`): what the tests
/// of the arena's per-frame work replay.
struct SxmoReplay {
    static let arguments =
        ["-w", "720", "-h", "1440", "-t", "125", "-T", "60"] + sxmoBindings.flatMap { ["-g", $0] }

    let translation: LisgdTranslation
    /// The 43 recognizers the bindings become (40 swipes, 3 sliders).
    let configuration: Configuration
    /// The phone panel and the strokes' events.
    let device: DeviceDescription
    let raw: [RawEvent]

    init() throws {
        let options = try LisgdOptions.parse(Self.arguments)
        translation = try LisgdTranslation(options: options, device: try phoneDevice(), arguments: Self.arguments)
        configuration = try translation.configuration()
        (device, raw) = try Replay.load(recording: phoneDir + "/strokes.events", descPath: nil)
    }

    /// The bindings `events` run, each as `time number name`, in order.
    func fires(_ events: [GestureEvent]) -> [String] {
        events.compactMap { e in translation.binding(for: e).map { "\(e.time) \($0.number) \(e.name)" } }
    }
}
