import GestureCore
import GestureProtocol

/// The delivery policy for whatever consumes events more slowly than they may
/// come (a command run per event, an action): every transition that starts or
/// ends something — `began`, `ended`, `cancelled`, `recognized`, `failed` —
/// is kept and handed out in order per gesture; only `changed` may be dropped.
///
/// - A `changed` replaces a `changed` of the same gesture still waiting as the
///   gesture's latest entry: its values are newer and the older ones would be
///   stale by the time they ran.
/// - A `changed` that finds the backlog full is dropped; a lifecycle
///   transition that finds it full evicts the oldest waiting `changed`, and is
///   kept even if none is left. `isFull` then tells the caller to stop taking
///   input until `next` has freed room (so the bound holds, and what gives way
///   upstream is the daemon's queue, whose drop the client is told of).
/// - `next` hands out a gesture's entries one at a time: a gesture whose
///   previous entry is still being handled (`busy`) waits, and so do its later
///   entries, while other gestures go ahead.
public struct GestureBacklog<Item> {
    public struct Entry {
        /// Which gesture: the recognizer's name and the device, as `key(name:device:)` makes it.
        public let gesture: String
        public let state: GestureState
        public let item: Item
    }

    public enum Outcome: Equatable, Sendable {
        case queued
        /// It took the place of a waiting `changed` of the same gesture.
        case replaced
        /// A `changed` dropped because the backlog was full.
        case dropped
    }

    public let capacity: Int
    public private(set) var entries: [Entry] = []
    /// `changed` entries dropped or replaced so far.
    public private(set) var changedDropped = 0

    public init(capacity: Int) { self.capacity = max(1, capacity) }

    public static func key(name: String, device: String) -> String { name + "\u{0}" + device }

    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }
    /// Full of entries that must not be dropped: take no more input until `next` frees room.
    public var isFull: Bool { entries.count >= capacity }

    @discardableResult
    public mutating func push(_ item: Item, gesture: String, state: GestureState) -> Outcome {
        let entry = Entry(gesture: gesture, state: state, item: item)
        if state == .changed {
            if let i = entries.lastIndex(where: { $0.gesture == gesture }), entries[i].state == .changed {
                entries[i] = entry
                changedDropped += 1
                return .replaced
            }
            guard entries.count < capacity else {
                changedDropped += 1
                return .dropped
            }
            entries.append(entry)
            return .queued
        }
        if entries.count >= capacity, let i = entries.firstIndex(where: { $0.state == .changed }) {
            entries.remove(at: i)
            changedDropped += 1
        }
        entries.append(entry)
        return .queued
    }

    /// The oldest entry whose gesture is not busy and has no older entry waiting.
    public mutating func next(busy: (String) -> Bool) -> Entry? {
        var passed = Set<String>()
        for (i, e) in entries.enumerated() {
            guard passed.insert(e.gesture).inserted else { continue }
            if busy(e.gesture) { continue }
            entries.remove(at: i)
            return e
        }
        return nil
    }
}

/// The continuous gestures a client has seen begin and not yet end, so that a
/// lost connection can still end each one: the daemon cancels what is in
/// flight when it stops, but a client dropped, or a daemon killed, never sends
/// those lines.
public struct OpenGestures {
    /// The last event line of each open gesture, by gesture key.
    private var open: [String: JSONValue] = [:]
    private var order: [String] = []

    public init() {}

    public var count: Int { open.count }

    /// Notes an event (a parsed `event` line).
    public mutating func note(_ event: JSONValue) {
        guard let name = event["name"]?.string, let state = event["state"]?.string else { return }
        let key = GestureBacklog<Void>.key(name: name, device: event["device"]?.string ?? "")
        switch state {
        case "began", "changed":
            if open[key] == nil { order.append(key) }
            open[key] = event
        case "ended", "cancelled", "failed":
            if open.removeValue(forKey: key) != nil { order.removeAll { $0 == key } }
        default:
            break
        }
    }

    /// One `cancelled` event line per open gesture, oldest first, with the
    /// envelope of its last event and `reason`; the set is then empty.
    public mutating func cancelAll(reason: String) -> [String] {
        // `edge` is part of the envelope for recognizers with an edge filter:
        // an action matching on it must see it on this ending too.
        let envelope = ["name", "kind", "time", "device", "fingers", "location_mm", "location", "edge"]
        var lines: [String] = []
        for key in order {
            guard case .object(let fields)? = open[key] else { continue }
            var out: [(String, JSONValue)] = [("type", .string("event"))]
            for k in envelope { if let v = fields.first(where: { $0.0 == k })?.1 { out.append((k, v)) } }
            out.insert(("state", .string("cancelled")), at: min(3, out.count))
            out.append(("reason", .string(reason)))
            lines.append(JSONValue.object(out).json)
        }
        open = [:]
        order = []
        return lines
    }
}
