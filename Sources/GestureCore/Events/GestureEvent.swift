/// The kinds of recognizer the daemon knows.
public enum GestureKind: String, Sendable, CaseIterable {
    case tap, pan, swipe, pinch, rotate
    case longPress = "long_press"
    case circle, checkmark, tickle

    /// Continuous kinds go began → changed* → ended | cancelled;
    /// discrete ones go straight to recognized | failed.
    public var isContinuous: Bool {
        switch self {
        case .pan, .pinch, .rotate, .longPress: true
        case .tap, .swipe, .circle, .checkmark, .tickle: false
        }
    }
}

/// UIKit's state vocabulary, as events carry it.
public enum GestureState: String, Sendable, CaseIterable {
    case possible, began, changed, ended, recognized, cancelled, failed
}

/// Kind-specific facts a recognizer reports with a transition.
public enum GestureDetail: Sendable, Equatable {
    case none
    case tap(taps: Int)
    case pan(translation: Point, velocity: Point)
    case circle(center: Point, radiusMM: Double, fitError: Double, clockwise: Bool, sweptDegrees: Double)
    case checkmark(vertex: Point)
    case tickle(reversals: Int)
    case swipe(direction: String, translation: Point, speedMMPerS: Double)
    case pinch(scale: Double)
    case rotate(degrees: Double)
}

/// One transition of one recognizer, as scripts receive it.
public struct GestureEvent: Sendable, Equatable {
    public var name: String
    public var kind: GestureKind
    public var state: GestureState
    public var time: EventTime
    public var device: String
    public var fingers: Int
    public var location: Point
    public var locationNormalised: Point
    public var detail: GestureDetail
    /// Why it failed or was cancelled, as a value to match on.
    public var cause: Reason?
    /// The same in words and numbers, as the JSON `reason` carries it.
    public var reason: String? { cause?.description }
    /// The edge or corner of the recognizer's filter, when it has one.
    public var edge: Edge?
    /// A slider's step: +1 (right or down on the screen as seen) or −1.
    public var step: Int?

    public init(name: String, kind: GestureKind, state: GestureState, time: EventTime, device: String,
                fingers: Int, location: Point, locationNormalised: Point, detail: GestureDetail = .none,
                reason: Reason? = nil, edge: Edge? = nil, step: Int? = nil) {
        self.name = name; self.kind = kind; self.state = state; self.time = time; self.device = device
        self.fingers = fingers; self.location = location; self.locationNormalised = locationNormalised
        self.detail = detail; self.cause = reason; self.edge = edge; self.step = step
    }
}

extension GestureEvent {
    /// The event as one line of JSON (no trailing newline), in the envelope of
    /// DESIGN.md: name, kind, state, time, device, fingers, location_mm, location,
    /// then the kind's fields and `reason`.
    public var json: String {
        var w = JSONWriter()
        w.field("name", string: name)
        w.field("kind", string: kind.rawValue)
        w.field("state", string: state.rawValue)
        w.field("time", raw: formatFixed(time.seconds, decimals: 6))
        w.field("device", string: device)
        w.field("fingers", raw: String(fingers))
        w.field("location_mm", point: location, decimals: 2)
        w.field("location", point: locationNormalised, decimals: 4)
        if let edge { w.field("edge", string: edge.rawValue) }
        switch detail {
        case .none: break
        case .tap(let taps):
            w.field("taps", raw: String(taps))
        case .pan(let translation, let velocity):
            w.field("translation_mm", point: translation, decimals: 2)
            w.field("velocity_mm_s", point: velocity, decimals: 1)
        case .circle(let center, let radius, let fitError, let clockwise, let swept):
            w.field("center", point: center, decimals: 2)
            w.field("radius_mm", raw: formatFixed(radius, decimals: 2))
            w.field("fit_error", raw: formatFixed(fitError, decimals: 3))
            w.field("swept_deg", raw: formatFixed(swept, decimals: 0))
            w.field("direction", string: clockwise ? "clockwise" : "counterclockwise")
        case .checkmark(let vertex):
            w.field("vertex", point: vertex, decimals: 2)
        case .tickle(let reversals):
            w.field("reversals", raw: String(reversals))
        case .swipe(let direction, let translation, let speed):
            w.field("direction", string: direction)
            w.field("translation_mm", point: translation, decimals: 2)
            w.field("speed_mm_s", raw: formatFixed(speed, decimals: 1))
        case .pinch(let scale):
            w.field("scale", raw: formatFixed(scale, decimals: 3))
        case .rotate(let deg):
            w.field("rotation_deg", raw: formatFixed(deg, decimals: 1))
        }
        if let step { w.field("step", raw: String(step)) }
        if let cause { w.field("reason", string: cause.description) }
        return w.finish()
    }
}

/// A minimal JSON object writer: enough for flat event lines, no Foundation.
public struct JSONWriter {
    private var out = "{"
    private var first = true
    public init() { out.reserveCapacity(256) }

    private mutating func key(_ k: String) {
        if !first { out += "," }
        first = false
        out += "\""; out += k; out += "\":"
    }
    public mutating func field(_ k: String, raw: String) { key(k); out += raw }
    public mutating func field(_ k: String, string: String) { key(k); JSONWriter.appendQuoted(string, to: &out) }
    public mutating func field(_ k: String, point: Point, decimals: Int) {
        key(k)
        out += "["; out += formatFixed(point.x, decimals: decimals); out += ","
        out += formatFixed(point.y, decimals: decimals); out += "]"
    }
    public mutating func finish() -> String { out += "}"; return out }

    public static func appendQuoted(_ s: String, to out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20:
                let h = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
            default: out.unicodeScalars.append(u)
            }
        }
        out += "\""
    }
}
