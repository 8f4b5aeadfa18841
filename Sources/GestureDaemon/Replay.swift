import Foundation
import GestureConfig
import GestureCore

/// Runs evemu recordings through the same decoder and arena as the daemon.
public enum Replay {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(_ d: String) { description = d }
    }

    /// Loads a recording and its description: from the file itself, from `descPath`,
    /// or from a sibling (`NAME.desc` for `NAME.<what>.events`, `X.prop` for `X.event`).
    public static func load(recording path: String, descPath: String?) throws -> (DeviceDescription, [RawEvent]) {
        let rec = try parse(path)
        var device = rec.device
        if let descPath {
            device = try parse(descPath).device
        } else if device == nil || device?.axes.isEmpty == true, let sibling = siblingDescription(of: path) {
            device = try parse(sibling).device
        }
        guard let device, !device.axes.isEmpty else {
            throw Failure("\(path): no device description (no N:/A: lines); give one with --desc FILE")
        }
        return (device, rec.events)
    }

    static func parse(_ path: String) throws -> EvemuRecording {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure("\(path): cannot read the file")
        }
        do {
            return try EvemuRecording(parsing: String(decoding: data, as: UTF8.self))
        } catch {
            throw Failure("\(path):\(error.line): \(error.message)")
        }
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

    /// The events of one recording, in event time, with the timers of the last
    /// sequence run out (a pending double-tap window closes after the recording).
    /// `warn` receives problems worth telling the user (no size for the device…).
    public static func run(recording path: String, descPath: String?, configuration: Configuration,
                           serial: UInt32 = 0, log: ArenaLog? = nil,
                           warn: (String) -> Void = { _ in }) throws -> [GestureEvent] {
        var (device, events) = try load(recording: path, descPath: descPath)
        if device.isTypeA {
            (device, events) = try TypeAConversion.convert(device: device, events: events)
        }
        guard let geometry = configuration.geometry(for: device) else {
            throw Failure("\(path): the device '\(device.name)' has no X/Y axes; it is not a touchscreen")
        }
        if geometry.sizeSource == .fallback {
            let s = geometry.sizeMM
            warn("warning: '\(device.name)' reports no resolution and no [[device]] size_mm in \(configuration.source) matches it; assuming \(formatFixed(s.x, decimals: 0)) × \(formatFixed(s.y, decimals: 0)) mm. Distances may be off; set size_mm = [width, height] in a [[device]] entry for it.")
        }
        let pipeline = DevicePipeline(description: device, geometry: geometry, configuration: configuration,
                                      serial: serial, log: log)
        var out: [GestureEvent] = []
        for e in events {
            pipeline.feed(e)
            pipeline.drain { out.append($0) }
        }
        if let last = events.last {
            if pipeline.decoder.liveTouchCount > 0 {
                warn("warning: \(path) ends with \(pipeline.decoder.liveTouchCount) finger(s) still down")
            }
            pipeline.advance(to: EventTime(microseconds: last.time.microseconds + 60_000_000))
            pipeline.drain { out.append($0) }
        }
        return out
    }
}
