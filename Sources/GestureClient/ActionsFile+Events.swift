import GestureConfig
import GestureCore
import GestureProtocol

extension ActionsFile.Action {
    /// Whether this action runs for an event (a parsed `event` line). Every
    /// match given must accept it; an event without the field a match asks
    /// about (`direction`, `edge`) is not accepted by that match. Without
    /// `state`, only `recognized` events and slider steps (events with a
    /// `step` field) are taken: never every `changed` of a pan.
    public func matches(_ event: JSONValue) -> Bool {
        guard let name = event["name"]?.string, let kind = event["kind"]?.string,
            let state = event["state"]?.string
        else { return false }
        if !names.isEmpty && !names.contains(name) { return false }
        if !kinds.isEmpty && !kinds.contains(where: { $0.rawValue == kind }) { return false }
        if states.isEmpty {
            if state != GestureState.recognized.rawValue && event["step"] == nil { return false }
        } else if !states.contains(where: { $0.rawValue == state }) {
            return false
        }
        if !directions.isEmpty {
            guard let d = event["direction"]?.string, directions.contains(d) else { return false }
        }
        if !fingers.isEmpty {
            guard let f = event["fingers"]?.number, fingers.contains(where: { Double($0) == f }) else { return false }
        }
        if !edges.isEmpty {
            guard let e = event["edge"]?.string, edges.contains(e) else { return false }
        }
        return true
    }

    /// The states this action can run for: its own, else `recognized` and,
    /// when it may match a pan, `began` and `changed` (a slider's steps).
    var subscribedStates: [GestureState] {
        if !states.isEmpty { return states }
        return kinds.isEmpty || kinds.contains(.pan) ? [.recognized, .began, .changed] : [.recognized]
    }
}

extension ActionsFile {
    /// The actions that run for an event, in file order.
    public func actions(for event: JSONValue) -> [Action] {
        actions.filter { $0.matches(event) }
    }

    /// The most values a subscription filter list may hold (PROTOCOL.md).
    static let filterListLimit = 32

    /// The `subscribe` request that asks the daemon for no less than the
    /// actions can match, and as little more as the protocol's filters allow:
    /// per key, the union of the actions' values, or no filter on that key
    /// when any action leaves it open (filters are ANDed across keys, so the
    /// union per key holds every action's events). `changed` stays `all`: a
    /// thinned stream could lose a slider's step. Nil when there are no actions.
    public var subscribeRequest: String? {
        guard !actions.isEmpty else { return nil }
        func union<T: Equatable>(_ lists: [[T]]) -> [T]? {
            guard lists.allSatisfy({ !$0.isEmpty }) else { return nil }
            var out: [T] = []
            for list in lists { for x in list where !out.contains(x) { out.append(x) } }
            return out.count <= Self.filterListLimit ? out : nil
        }
        func list(_ xs: [String]) -> String {
            var out = "["
            for (i, x) in xs.enumerated() {
                if i > 0 { out += "," }
                JSONWriter.appendQuoted(x, to: &out)
            }
            return out + "]"
        }
        let states = union(actions.map(\.subscribedStates))!.map(\.rawValue)
        var w = JSONWriter()
        w.field("cmd", string: "subscribe")
        // Names are free text: a long list could pass the protocol's 1024-byte
        // filter limit, and is the one to leave out (the client filters anyway).
        if let names = union(actions.map(\.names)), list(names).utf8.count <= 512 {
            w.field("name", raw: list(names))
        }
        if let kinds = union(actions.map(\.kinds)) { w.field("kind", raw: list(kinds.map(\.rawValue))) }
        w.field("state", raw: list(states))
        return w.finish()
    }
}
