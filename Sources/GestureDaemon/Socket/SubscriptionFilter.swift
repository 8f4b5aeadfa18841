import GestureCore

/// What one subscriber wants. An empty list means "any"; lists are ORed within
/// a field and ANDed across fields. `failed` transitions are only delivered to
/// subscribers that ask for them (`failures`, or `failed` among the states).
public struct SubscriptionFilter: Sendable, Equatable {
    public var names: Set<String> = []
    public var kinds: Set<GestureKind> = []
    public var states: Set<GestureState> = []
    public var devices: Set<String> = []
    public var failures = false

    public init(names: Set<String> = [], kinds: Set<GestureKind> = [], states: Set<GestureState> = [],
                devices: Set<String> = [], failures: Bool = false) {
        self.names = names; self.kinds = kinds; self.states = states; self.devices = devices
        self.failures = failures
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
        return w.finish()
    }
}
