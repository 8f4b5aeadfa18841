import GestureCore

/// How many `changed` events of one gesture a subscriber wants. Only `changed`
/// is ever thinned: `began`, `ended`, `cancelled`, `recognized` and `failed`
/// are delivered as they come, and `ended` carries the gesture's final values.
public enum ChangedDelivery: Sendable, Equatable {
    /// Every one (the default).
    case all
    /// The latest value only: a `changed` still waiting in the daemon's queue
    /// is replaced by the next one of the same gesture.
    case latest
    /// At most this many per second per gesture (by the events' `time`).
    case perSecond(Int)

    /// The value the `subscribed` reply echoes.
    public var json: String {
        switch self {
        case .all: return "\"all\""
        case .latest: return "\"latest\""
        case .perSecond(let n): return String(n)
        }
    }
}

/// What one subscriber wants. An empty list means "any"; lists are ORed within
/// a field and ANDed across fields. `failed` transitions are only delivered to
/// subscribers that ask for them (`failures`, or `failed` among the states).
public struct SubscriptionFilter: Sendable, Equatable {
    public var names: Set<String> = []
    public var kinds: Set<GestureKind> = []
    public var states: Set<GestureState> = []
    public var devices: Set<String> = []
    public var failures = false
    public var changed = ChangedDelivery.all

    public init(
        names: Set<String> = [], kinds: Set<GestureKind> = [], states: Set<GestureState> = [],
        devices: Set<String> = [], failures: Bool = false, changed: ChangedDelivery = .all
    ) {
        self.names = names
        self.kinds = kinds
        self.states = states
        self.devices = devices
        self.failures = failures
        self.changed = changed
    }

    public func matches(_ e: GestureEvent) -> Bool {
        if e.state == .failed && !(failures || states.contains(.failed)) { return false }
        if !names.isEmpty && !names.contains(e.name) { return false }
        if !kinds.isEmpty && !kinds.contains(e.kind) { return false }
        if !states.isEmpty && !states.contains(e.state) && !(e.state == .failed && failures) { return false }
        if !devices.isEmpty && !devices.contains(e.device) { return false }
        return true
    }

    /// The filter as the JSON object the `subscribed` reply and `status` show.
    public var json: String {
        func list(_ s: some Sequence<String>) -> String {
            var out = "["
            for (i, v) in s.sorted().enumerated() {
                if i > 0 { out += "," }
                JSONWriter.appendQuoted(v, to: &out)
            }
            return out + "]"
        }
        var w = JSONWriter()
        w.field("name", raw: list(names))
        w.field("kind", raw: list(kinds.map(\.rawValue)))
        w.field("state", raw: list(states.map(\.rawValue)))
        w.field("device", raw: list(devices))
        w.field("failures", raw: failures ? "true" : "false")
        w.field("changed", raw: changed.json)
        return w.finish()
    }

    /// A short account of the filter for the log: counts, not the values a
    /// client chose (they may be long, or crafted).
    public var summary: String {
        func part(_ n: Int, _ what: String) -> String? { n == 0 ? nil : "\(n) \(what)\(n == 1 ? "" : "s")" }
        let parts = [
            part(names.count, "name"), part(kinds.count, "kind"), part(states.count, "state"),
            part(devices.count, "device"), failures ? "failures" : nil,
            changed == .all ? nil : "changed \(changed.json)",
        ].compactMap { $0 }
        return parts.isEmpty ? "everything" : parts.joined(separator: ", ")
    }
}
