import FoundationEssentials
import GestureConfig
import GestureCore
import GestureDaemon
import Glibc
import LinuxInput
import LinuxSystem

/// Runs evemu recordings through the same decoder and arena as the daemon.
public enum Replay {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(_ d: String) { description = d }
    }

    /// Loads a recording and its description: from the file itself, from `descPath`,
    /// or from a sibling (`NAME.desc` for `NAME.<what>.events`, `X.prop` for `X.event`).
    /// Holds every event in memory; `stream` does not.
    public static func load(recording path: String, descPath: String?) throws -> (DeviceDescription, [RawEvent]) {
        var events: [RawEvent] = []
        let device = try read(recording: path, descPath: descPath) {
            try refusePen($0, path: path)
        } event: {
            events.append($0)
        }
        return (device, events)
    }

    /// Reads a recording line by line: `device` once, before the first event (or
    /// at the end of a file without events), then `event` for each `E:` line.
    /// Returns the description.
    @discardableResult
    static func read(
        recording path: String, descPath: String?, device: (DeviceDescription) throws -> Void,
        event: (RawEvent) throws -> Void
    ) throws -> DeviceDescription {
        let reader = try LineReader(path: path)
        return try read(
            source: path, next: reader.next,
            describe: { try description(recorded: $0, path: path, descPath: descPath) },
            device: device, event: event)
    }

    /// The same from any source of lines; `describe` may replace the recorded
    /// description (or supply a missing one).
    @discardableResult
    static func read(
        source: String, next: () throws -> Substring?,
        describe: (DeviceDescription?) throws -> DeviceDescription?,
        device: (DeviceDescription) throws -> Void,
        event: (RawEvent) throws -> Void
    ) throws -> DeviceDescription {
        var parser = EvemuParser()
        var described: DeviceDescription?
        func describeOnce() throws -> DeviceDescription {
            if let described { return described }
            guard let d = try describe(parser.device), !d.axes.isEmpty else {
                throw Failure("\(source): no device description (no N:/A: lines); give one with --desc FILE")
            }
            try device(d)
            described = d
            return d
        }
        var sawEvent = false
        do {
            while let line = try next() {
                guard let e = try parser.parse(line: line) else { continue }
                _ = try describeOnce()
                try event(e)
                sawEvent = true
            }
        } catch let error as EvemuRecording.ParseError {
            throw Failure("\(source):\(error.line): \(error.message)")
        } catch let error as LineReader.LineTooLong {
            throw Failure("\(source):\(error.line): longer than \(LineReader.maxLine) bytes; not an evemu recording")
        }
        if !sawEvent {
            // A device description alone (a .desc given where the recording
            // goes) would replay as silence: say so instead.
            if parser.device?.axes.isEmpty == false {
                throw Failure(
                    "\(source): no events (E: lines), only a device description; give a recording (and a description with --desc FILE if it has none)"
                )
            }
            _ = try describeOnce()
            throw Failure("\(source): no events (E: lines): nothing was recorded")
        }
        return try describeOnce()
    }

    /// The description to use: `descPath`'s, else the recorded one, else a sibling's.
    static func description(recorded: DeviceDescription?, path: String, descPath: String?) throws -> DeviceDescription?
    {
        if let descPath { return try parse(descPath).device }
        if recorded == nil || recorded?.axes.isEmpty == true, let sibling = siblingDescription(of: path) {
            return try parse(sibling).device
        }
        return recorded
    }

    /// The device description an evemu file carries (N:, I:, P:, B:, A: lines), if any.
    public static func deviceDescription(of path: String) throws -> DeviceDescription? {
        let reader = try LineReader(path: path)
        var parser = EvemuParser()
        do {
            while let line = try reader.next() {
                if try parser.parse(line: line) != nil { break }
            }
        } catch let error as EvemuRecording.ParseError {
            throw Failure("\(path):\(error.line): \(error.message)")
        }
        return parser.device
    }

    static func parse(_ path: String) throws -> EvemuRecording {
        let reader = try LineReader(path: path)
        var parser = EvemuParser()
        var events: [RawEvent] = []
        do {
            while let line = try reader.next() {
                if let e = try parser.parse(line: line) { events.append(e) }
            }
        } catch let error as EvemuRecording.ParseError {
            throw Failure("\(path):\(error.line): \(error.message)")
        } catch let error as LineReader.LineTooLong {
            throw Failure("\(path):\(error.line): longer than \(LineReader.maxLine) bytes; not an evemu recording")
        }
        return EvemuRecording(device: parser.device, events: events)
    }

    static func siblingDescription(of path: String) -> String? {
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent()
        let base = url.lastPathComponent
        var candidates: [String] = []
        if let dot = base.firstIndex(of: ".") { candidates.append(String(base[..<dot]) + ".desc") }
        candidates.append(url.deletingPathExtension().lastPathComponent + ".prop")
        candidates.append(url.deletingPathExtension().lastPathComponent + ".desc")
        for c in candidates {
            let p = dir.appendingPathComponent(c).path
            if p != path && FileManager.default.fileExists(atPath: p) { return p }
        }
        return nil
    }

    /// A pen recording's events (the tablet node of the touch recording's
    /// device), checked to be a pen's, for `pen:`. Held in memory: a pen node's
    /// recording is fed beside the touch recording, merged by timestamp.
    public static func penEvents(recording path: String) throws -> [RawEvent] {
        try penRecording(path).events
    }

    /// A pen recording's device and events, checked to be a pen's.
    public static func penRecording(_ path: String) throws -> PenRecording {
        let r = try parse(path)
        if let d = r.device, !d.axes.isEmpty || !d.keys.isEmpty,
            !d.keys.contains(where: { PenTool.codes.contains($0) })
        {
            throw Failure(
                "\(path): the device '\(d.name)' has no pen tool keys (BTN_TOOL_PEN, BTN_TOOL_RUBBER…); not a pen recording"
            )
        }
        return PenRecording(device: r.device, events: r.events)
    }

    /// A recording of a pen node given where a touchscreen's is wanted.
    static func refusePen(_ device: DeviceDescription, path: String) throws {
        guard !device.isMultitouch, device.keys.contains(where: { PenTool.codes.contains($0) }) else { return }
        throw Failure(
            "\(path): '\(device.name)' is a pen, not a touchscreen: give its recording with --pen, beside the touchscreen's recording"
        )
    }

    /// Feeds a pen recording's events beside a touch recording's: every pen
    /// event stamped at or before the touch event about to be fed goes first.
    struct PenFeed {
        let events: [RawEvent]
        var next = 0
        mutating func feed(through time: EventTime?, to pipeline: DevicePipeline) {
            while next < events.count, time.map({ events[next].time <= $0 }) ?? true {
                pipeline.feedPen(events[next])
                next += 1
            }
        }
    }

    /// Why replay closes what is still in flight after the last event.
    public static let endOfRecording = Reason.teardown(.endOfRecording).description

    /// The events of one recording, in event time, with the timers of the last
    /// sequence run out (a pending double-tap window closes after the recording).
    /// `warn` receives problems worth telling the user (no size for the device…).
    public static func run(
        recording path: String, descPath: String?, pen: String? = nil, configuration: Configuration,
        serial: UInt32 = 0, log: ArenaLog? = nil,
        warn: (String) -> Void = { _ in }
    ) throws -> [GestureEvent] {
        var out: [GestureEvent] = []
        try stream(
            recording: path, descPath: descPath, pen: pen, configuration: configuration, serial: serial, log: log,
            warn: warn
        ) {
            out.append($0)
        }
        return out
    }

    /// Replays a recording as it is read, handing each gesture event to `emit`
    /// as soon as it is decided: memory stays bounded whatever the length of the
    /// recording. The end of the recording is treated like the removal of the
    /// device: what is still in flight (fingers down, a pan begun) is cancelled,
    /// once, with the reason "end of recording"; then the timers run out.
    /// `log` receives the trace of the recognizers it names and recognizer bugs.
    /// `pen`: a recording of the device's pen node, fed beside it by timestamp
    /// (touch arbitration: `DevicePipeline.feedPen`).
    /// `setAside` hears of touches set aside as they landed (the pen in
    /// proximity, a palm): what the touches were, in a line to show.
    public static func stream(
        recording path: String, descPath: String?, pen: String? = nil, configuration: Configuration,
        serial: UInt32 = 0, log: ArenaLog? = nil, warn: (String) -> Void = { _ in },
        setAside: (String) -> Void = { _ in },
        emit: (GestureEvent) throws -> Void
    ) throws {
        let penRecording = try pen.map { try Replay.penRecording($0) }
        let reader = try LineReader(path: path)
        var touchDevice: DeviceDescription?
        var touchTimes: ClosedRange<EventTime>?
        try stream(
            source: path, next: reader.next,
            describe: {
                let d = try description(recorded: $0, path: path, descPath: descPath)
                touchDevice = d
                return d
            },
            configuration: configuration, serial: serial, log: log, penEvents: penRecording?.events ?? [],
            warn: warn, setAside: setAside, times: { touchTimes = $0 }, emit: emit)
        if let pen, let penRecording {
            for problem in penRecording.mismatches(touch: touchDevice, times: touchTimes, touchPath: path, penPath: pen)
            {
                warn(problem)
            }
        }
    }

    /// A pen recording: its device (when it has a description) and events.
    public struct PenRecording: Sendable {
        public var device: DeviceDescription?
        public var events: [RawEvent]

        /// What makes this pen recording an odd partner for a touch recording,
        /// as warnings: another device (vendor and product differ), or no
        /// time in common, so that its proximity changes nothing.
        public func mismatches(
            touch: DeviceDescription?, times: ClosedRange<EventTime>?, touchPath: String, penPath: String
        ) -> [String] {
            var out: [String] = []
            if let pen = device, let touch {
                func known(_ d: DeviceDescription) -> Bool { d.vendor != 0 || d.product != 0 }
                // Without ids on both sides, the names: a pen and its screen share
                // at least their first word ("Wacom HID 52B5 Pen", "… Finger").
                let other =
                    known(pen) && known(touch)
                    ? pen.vendor != touch.vendor || pen.product != touch.product
                    : pen.name.split(separator: " ").first != touch.name.split(separator: " ").first
                if other {
                    out.append(
                        "warning: \(penPath) is of '\(pen.name)' (\(pen.vendorProduct)), \(touchPath) of '\(touch.name)' (\(touch.vendorProduct)): not the same device, so its pen would not set these touches aside"
                    )
                }
            }
            if let first = events.first?.time, let last = events.last?.time, let times,
                last < times.lowerBound || first > times.upperBound
            {
                out.append(
                    "warning: \(penPath) (\(first)–\(last) s) and \(touchPath) (\(times.lowerBound)–\(times.upperBound) s) have no time in common: the pen's proximity changed nothing"
                )
            }
            return out
        }
    }

    /// A line telling of `count` touches set aside, the last of them `last`.
    public static func setAsideLine(_ last: SetAsideTouch, count: Int) -> String {
        "\(last.time): \(last.touches(count)) \(last.outcome)"
    }

    /// Replays evemu text that carries its own description.
    public static func stream(
        text: String, name: String = "<text>", configuration: Configuration,
        serial: UInt32 = 0, warn: (String) -> Void = { _ in },
        emit: (GestureEvent) throws -> Void
    ) throws {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).makeIterator()
        try stream(
            source: name, next: { lines.next() }, describe: { $0 }, configuration: configuration,
            serial: serial, log: nil, warn: warn, emit: emit)
    }

    static func stream(
        source path: String, next: () throws -> Substring?,
        describe: (DeviceDescription?) throws -> DeviceDescription?,
        configuration: Configuration, serial: UInt32, log: ArenaLog? = nil, penEvents: [RawEvent] = [],
        warn: (String) -> Void, setAside: (String) -> Void = { _ in },
        times: (ClosedRange<EventTime>) -> Void = { _ in }, emit: (GestureEvent) throws -> Void
    ) throws {
        var pipeline: DevicePipeline?
        var pen = PenFeed(events: penEvents)
        var converter: MtdevConverter?
        var firstTime: EventTime?
        var lastTime: EventTime?
        var setAsideSeen = 0
        func tellSetAside(_ pipeline: DevicePipeline) {
            let count = pipeline.decoder.setAsideCount
            guard count != setAsideSeen, let last = pipeline.decoder.lastSetAside else { return }
            setAside(setAsideLine(last, count: count &- setAsideSeen))
            setAsideSeen = count
        }
        defer { if let firstTime, let lastTime { times(firstTime...max(firstTime, lastTime)) } }
        try read(source: path, next: next, describe: describe) { recorded in
            try refusePen(recorded, path: path)
            var device = recorded
            if device.isTypeA {
                do { converter = try MtdevConverter(description: device) } catch {
                    throw Failure("'\(device.name)' is a type A device; libmtdev could not be set up for it: \(error)")
                }
                device = device.convertedToSlots
            }
            guard let geometry = configuration.geometry(for: device) else {
                throw Failure("\(path): the device '\(device.name)' has no X/Y axes; it is not a touchscreen")
            }
            if geometry.sizeSource == .fallback {
                let s = geometry.sizeMM
                warn(
                    "warning: '\(device.name)' reports no resolution and no [[device]] size_mm in \(configuration.source) matches it; assuming \(formatFixed(s.x, decimals: 0)) × \(formatFixed(s.y, decimals: 0)) mm. Distances may be off; set size_mm = [width, height] in a [[device]] entry for it."
                )
            }
            if let problems = device.axisProblems {
                warn("warning: '\(device.name)': \(problems)")
            }
            pipeline = DevicePipeline(
                description: device, geometry: geometry, configuration: configuration,
                serial: serial, log: log)
        } event: { e in
            guard let pipeline else { return }
            if firstTime == nil { firstTime = e.time }
            lastTime = e.time
            pen.feed(through: e.time, to: pipeline)
            if let converter { converter.put(e) { pipeline.feed($0) } } else { pipeline.feed(e) }
            tellSetAside(pipeline)
            try pipeline.drain { try emit($0) }
        }
        guard let pipeline, var last = lastTime else { return }
        // The pen's events after the last touch: its last proximity change says
        // nothing more, but they run the timers as the daemon's clock would.
        if let penLast = penEvents.last?.time, last < penLast {
            pen.feed(through: nil, to: pipeline)
            pipeline.advance(to: penLast)
            try pipeline.drain { try emit($0) }
            last = penLast
        }
        let decoder = pipeline.decoder
        if decoder.clampedCount > 0, let first = decoder.firstClamped {
            warn(
                "warning: \(path): \(decoder.clampedCount) position value(s) outside the device's declared range were clamped to it (the first: \(first.value) at \(first.time) s)"
            )
        }
        // Fingers down in the decoder, or in the last frame the arena saw: a
        // recording cut inside a frame may lift a finger the arena never hears of.
        let down = max(decoder.liveTouchCount, decoder.lastFrame.liveCount)
        if down > 0 {
            warn(
                "warning: \(path) ends with \(down) finger(s) still down; what they began is cancelled (\(endOfRecording))"
            )
            pipeline.cancelAll(at: last, because: .endOfRecording)
            try pipeline.drain { try emit($0) }
        }
        pipeline.advance(to: last.adding(microseconds: 60_000_000))
        try pipeline.drain { try emit($0) }
    }
}

/// Reads a file one line at a time through a fixed buffer, so that a recording
/// of any size costs the same memory. Lines are decoded as UTF-8 (invalid bytes
/// replaced); a line longer than `maxLine` is an error, not an allocation.
final class LineReader {
    static let maxLine = 1 << 16
    struct LineTooLong: Error { var line: Int }

    private let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0
    private var atEOF = false
    private var line: [UInt8] = []
    private var lineNumber = 0
    private let path: String

    init(path: String) throws {
        self.path = path
        // A recording named on the command line may be a pipe (a FIFO another
        // program writes): it is read as `cat` would, waiting for its writer.
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else {
            // errno at once, before anything else can set it, and before `fd`
            // is set, so that no deinit closes (and sets errno for) -1.
            let error = errno
            throw Replay.Failure("\(path): cannot read the file: \(String(cString: strerror(error)))")
        }
        fd = opened
    }

    deinit { close(fd) }

    /// The next line without its newline, or nil at the end of the file.
    func next() throws -> Substring? {
        line.removeAll(keepingCapacity: true)
        while true {
            if start == end {
                if atEOF { return nil }
                let n: Int
                do throws(Errno) { n = try LinuxSystem.FileDescriptor(rawValue: fd).read(into: &buffer) } catch {
                    throw Replay.Failure("\(path): cannot read: \(error)")
                }
                if n == 0 {
                    atEOF = true
                    if line.isEmpty { return nil }
                    lineNumber += 1
                    return Substring(String(decoding: line, as: UTF8.self))
                }
                start = 0
                end = n
            }
            if let nl = buffer[start..<end].firstIndex(of: UInt8(ascii: "\n")) {
                line.append(contentsOf: buffer[start..<nl])
                start = nl + 1
                lineNumber += 1
                guard line.count <= LineReader.maxLine else { throw LineTooLong(line: lineNumber) }
                return Substring(String(decoding: line, as: UTF8.self))
            }
            line.append(contentsOf: buffer[start..<end])
            start = end
            guard line.count <= LineReader.maxLine else { throw LineTooLong(line: lineNumber + 1) }
        }
    }
}

/// The whole of a regular file (or a link to one) as text, invalid UTF-8
/// replaced, at most `limit` bytes. A FIFO, a device or a directory in its
/// place is refused by what it is (opened without blocking, judged by its
/// descriptor), never read: a FIFO would hang, /dev/zero would not end.
public func readTextFile(_ path: String, limit: Int = 16 << 20) throws(ReadFailure) -> String {
    switch ConfigFile.read(path: path, limit: limit) {
    case .success(let bytes): return String(decoding: bytes, as: UTF8.self)
    case .failure(let f): throw ReadFailure(description: f.description)
    }
}

/// Why a file could not be read, naming it.
public struct ReadFailure: Error, CustomStringConvertible, Sendable {
    public var description: String
}
