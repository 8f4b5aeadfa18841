/// The kinds of recognizer the daemon knows.
public enum GestureKind: String, Sendable, CaseIterable {
    case tap, pan, swipe, pinch, rotate
    case longPress = "long_press"
    case circle, checkmark, tickle
    /// A one-finger shape taught by example.
    case shape

    /// Continuous kinds go began → changed* → ended | cancelled;
    /// discrete ones go straight to recognized | failed.
    public var isContinuous: Bool {
        switch self {
        case .pan, .pinch, .rotate, .longPress: true
        case .tap, .swipe, .circle, .checkmark, .tickle, .shape: false
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
    /// The example matched (its index, from 0, in the order written), how far
    /// the stroke was from it, and whether it was drawn the other way.
    case shape(example: Int, distance: Double, reversed: Bool)
    case swipe(direction: SwipeRecognizer.Direction, translation: Point, speedMMPerS: Double)
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

    public init(
        name: String, kind: GestureKind, state: GestureState, time: EventTime, device: String,
        fingers: Int, location: Point, locationNormalised: Point, detail: GestureDetail = .none,
        reason: Reason? = nil, edge: Edge? = nil, step: Int? = nil
    ) {
        self.name = name
        self.kind = kind
        self.state = state
        self.time = time
        self.device = device
        self.fingers = fingers
        self.location = location
        self.locationNormalised = locationNormalised
        self.detail = detail
        self.cause = reason
        self.edge = edge
        self.step = step
    }
}

extension GestureEvent {
    /// The event as one line of JSON (no trailing newline), in the envelope of
    /// DESIGN.md: name, kind, state, time, device, fingers, location_mm, location,
    /// then the kind's fields and `reason`.
    public var json: String {
        var w = JSONWriter()
        writeFields(to: &w)
        return w.finish()
    }

    /// Writes the event's fields, in the order `json` has them, into the object
    /// `w` is writing: the socket puts them between its own fields, into a
    /// writer it reuses from event to event. A new field is one more line here.
    public func writeFields(to w: inout JSONWriter) {
        w.field("name", string: name)
        w.field("kind", string: kind.rawValue)
        w.field("state", string: state.rawValue)
        w.field("time", time: time)
        w.field("device", string: device)
        w.field("fingers", int: fingers)
        w.field("location_mm", point: location, decimals: 2)
        w.field("location", point: locationNormalised, decimals: 4)
        if let edge { w.field("edge", string: edge.rawValue) }
        switch detail {
        case .none: break
        case .tap(let taps):
            w.field("taps", int: taps)
        case .pan(let translation, let velocity):
            w.field("translation_mm", point: translation, decimals: 2)
            w.field("velocity_mm_s", point: velocity, decimals: 1)
        case .circle(let center, let radius, let fitError, let clockwise, let swept):
            w.field("center", point: center, decimals: 2)
            w.field("radius_mm", fixed: radius, decimals: 2)
            w.field("fit_error", fixed: fitError, decimals: 3)
            w.field("swept_deg", fixed: swept, decimals: 0)
            w.field("direction", string: clockwise ? "clockwise" : "counterclockwise")
        case .checkmark(let vertex):
            w.field("vertex", point: vertex, decimals: 2)
        case .tickle(let reversals):
            w.field("reversals", int: reversals)
        case .shape(let example, let distance, let reversed):
            w.field("example", int: example)
            w.field("distance", fixed: distance, decimals: 3)
            w.field("reversed", bool: reversed)
        case .swipe(let direction, let translation, let speed):
            w.field("direction", string: direction.rawValue)
            w.field("translation_mm", point: translation, decimals: 2)
            w.field("speed_mm_s", fixed: speed, decimals: 1)
        case .pinch(let scale):
            w.field("scale", fixed: scale, decimals: 3)
        case .rotate(let deg):
            w.field("rotation_deg", fixed: deg, decimals: 1)
        }
        if let step { w.field("step", int: step) }
        if let cause { w.field("reason", string: cause.description) }
    }
}
