import GestureCore
import GestureProtocol

/// The protocol of one connection as a pure state machine: bytes in, actions
/// out. The server does the I/O; tests drive this struct directly.
///
/// Requests are newline-terminated JSON objects with a `cmd`. Every bad line
/// gets an error reply; after `limits.maxErrors` of them the connection gets a
/// final `too_many_errors` line and is closed. A line longer than
/// `limits.maxLineBytes` gets `line_too_long` once and the rest of it, up to
/// its newline, is skipped without being buffered.
///
/// The work one call may cause is bounded: after `limits.requestsPerCall`
/// requests (a `status` counts as `limits.statusCost` of them) the rest of the
/// bytes wait in the session, `hasPendingInput` is true, and `resume()`
/// answers the next batch. Replies stay in request order.
public struct ClientSession: Sendable {
    public struct Limits: Sendable {
        public var maxLineBytes = 64 * 1024
        public var maxErrors = 5
        /// Requests answered per `received`/`resume` call.
        public var requestsPerCall = 16
        /// What one `status` counts for against `requestsPerCall` (it lists every client).
        public var statusCost = 8
        /// Values in each of a filter's lists (`name`, `kind`, `state`, `device`).
        public var maxFilterValues = 32
        /// Bytes of a filter as the `subscribed` reply and `status` show it.
        public var maxFilterBytes = 1024
        public init(maxLineBytes: Int = 64 * 1024, maxErrors: Int = 5) {
            self.maxLineBytes = maxLineBytes
            self.maxErrors = maxErrors
        }
    }

    public enum Action: Sendable, Equatable {
        /// Queue this line (no newline) for the client.
        case send(String)
        /// Deliver events matching the filter from now on (replaces any earlier one).
        case subscribe(SubscriptionFilter)
        case unsubscribe
        /// Queue a `subscribed` reply for this filter carrying this request id
        /// (the server adds the names no recognizer has).
        case sendSubscribed(SubscriptionFilter, id: JSONValue?)
        /// Queue a `status` reply carrying this request id.
        case sendStatus(id: JSONValue?)
        /// Have the daemon carry out this request and queue its reply with this id.
        case control(ControlRequest, id: JSONValue?)
        /// Stop reading; close once the queued lines are written.
        case close
    }

    enum State: Sendable, Equatable {
        /// Collecting a request line.
        case reading
        /// Inside an over-long line: dropping bytes until its newline.
        case skippingLongLine
        /// Closed (a final error, or the client's input ended while it was not subscribed).
        case closed
    }

    public let limits: Limits
    private(set) var state: State = .reading
    private var line: [UInt8] = []
    public private(set) var errors = 0
    /// Lines received that were not blank (requests, or what was meant for one).
    public private(set) var linesReceived = 0
    public private(set) var subscription: SubscriptionFilter?
    /// Set when the client's side ended (EOF); a subscriber may half-close and keep receiving.
    public private(set) var inputEnded = false
    /// Bytes received but not yet looked at, because the last call's budget ran out.
    private var pending: [UInt8] = []
    /// Work done in the current call, in requests.
    private var spent = 0

    public init(limits: Limits = Limits()) { self.limits = limits }

    public var isClosed: Bool { state == .closed }

    /// Whether bytes wait for `resume()`: the server reads no more from the
    /// client until they are answered.
    public var hasPendingInput: Bool { !pending.isEmpty && state != .closed }

    /// Bytes read from the client.
    public mutating func received(_ bytes: some Collection<UInt8>) -> [Action] {
        guard pending.isEmpty else {
            // Only while the server keeps reading despite pending input; keep the order.
            pending += bytes
            return resume()
        }
        spent = 0
        var actions: [Action] = []
        consume(bytes, into: &actions)
        return actions
    }

    /// Answers the next batch of requests that did not fit the last call's budget.
    public mutating func resume() -> [Action] {
        spent = 0
        var actions: [Action] = []
        let bytes = pending
        pending = []
        consume(bytes, into: &actions)
        return actions
    }

    private mutating func consume(_ bytes: some Collection<UInt8>, into actions: inout [Action]) {
        var i = bytes.startIndex
        while i != bytes.endIndex {
            if spent >= limits.requestsPerCall && state == .reading {
                if state != .closed { pending = Array(bytes[i...]) }
                return
            }
            let b = bytes[i]
            i = bytes.index(after: i)
            switch state {
            case .closed:
                return
            case .skippingLongLine:
                if b == 0x0A { state = .reading }
            case .reading:
                if b == 0x0A {
                    handleLine(&actions)
                    line.removeAll(keepingCapacity: line.count <= 4096)
                } else if line.count >= limits.maxLineBytes {
                    line = []
                    state = .skippingLongLine
                    fail(
                        .lineTooLong, "a request line is limited to \(limits.maxLineBytes) bytes", id: nil,
                        into: &actions)
                } else {
                    line.append(b)
                }
            }
        }
    }

    /// The client's side ended (read returned 0). A last line without its newline
    /// still counts. A subscriber keeps its stream; anyone else is closed.
    public mutating func endOfInput() -> [Action] {
        var actions: [Action] = []
        guard state != .closed, !inputEnded else { return actions }
        if !pending.isEmpty {
            // Answer what waited first, whatever the budget: the client is done sending.
            spent = Int.min / 2
            let bytes = pending
            pending = []
            consume(bytes, into: &actions)
            guard state != .closed else { return actions }
        }
        inputEnded = true
        if state == .reading && !line.isEmpty {
            handleLine(&actions)
            line = []
        }
        if state != .closed && subscription == nil {
            state = .closed
            actions.append(.close)
        }
        return actions
    }

    /// The server is closing the connection (slow consumer, shutdown): nothing
    /// more is read or answered.
    public mutating func closedByServer() { state = .closed }

    private mutating func fail(
        _ code: ProtocolErrorCode, _ message: String, id: JSONValue?, into actions: inout [Action]
    ) {
        errors += 1
        actions.append(.send(ProtocolMessages.error(code, message, id: id)))
        if errors >= limits.maxErrors {
            actions.append(
                .send(ProtocolMessages.error(.tooManyErrors, "\(errors) bad requests; closing the connection")))
            actions.append(.close)
            state = .closed
        }
    }

    private mutating func handleLine(_ actions: inout [Action]) {
        var bytes = line[...]
        if bytes.last == 0x0D { bytes = bytes.dropLast() }  // tolerate CRLF
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
        spent += 1
        linesReceived += 1
        let request: JSONValue
        do {
            request = try JSONValue.parse(bytes)
        } catch {
            if let key = error.duplicateKey {
                // Readers differ on which of the two counts; taking either would
                // let a proxy and the daemon see different requests.
                fail(
                    .badArgument, "the key '\(Self.echoed(key))' is given more than once; give each key once", id: nil,
                    into: &actions)
            } else {
                fail(.malformed, "not JSON: \(error)", id: nil, into: &actions)
            }
            return
        }
        guard case .object = request else {
            fail(.malformed, "a request is a JSON object with a \"cmd\"", id: nil, into: &actions)
            return
        }
        let id = request["id"]
        guard let cmd = request["cmd"]?.string else {
            fail(.malformed, "missing \"cmd\" (a string)", id: id, into: &actions)
            return
        }
        switch cmd {
        case "ping":
            guard checkKeys(request, allowed: [], id: id, &actions) else { return }
            actions.append(.send(ProtocolMessages.pong(id: id)))
        case "status":
            guard checkKeys(request, allowed: [], id: id, &actions) else { return }
            spent += limits.statusCost - 1
            actions.append(.sendStatus(id: id))
        case "unsubscribe":
            guard checkKeys(request, allowed: [], id: id, &actions) else { return }
            subscription = nil
            actions.append(.unsubscribe)
            actions.append(.send(ProtocolMessages.unsubscribed(id: id)))
        case "subscribe":
            guard
                checkKeys(
                    request, allowed: ["name", "kind", "state", "device", "failures", "changed"], id: id, &actions)
            else { return }
            switch Self.filter(from: request, limits: limits) {
            case .success(let f):
                subscription = f
                actions.append(.subscribe(f))
                actions.append(.sendSubscribed(f, id: id))
            case .failure(let problem):
                fail(.badArgument, problem.message, id: id, into: &actions)
            }
        case "rotate":
            guard checkKeys(request, allowed: ["rotation", "device"], id: id, &actions) else { return }
            switch Self.rotation(from: request) {
            case .success(let r): actions.append(.control(r, id: id))
            case .failure(let problem): fail(.badArgument, problem.message, id: id, into: &actions)
            }
        case "profile":
            guard checkKeys(request, allowed: ["name"], id: id, &actions) else { return }
            guard let name = request["name"]?.string else {
                fail(.badArgument, "'name' is required: the profile to make active, a string", id: id, into: &actions)
                return
            }
            if let problem = Profiles.nameProblem(name) {
                fail(.badArgument, "'name': \(problem)", id: id, into: &actions)
                return
            }
            actions.append(.control(.profile(name), id: id))
        case "pause", "resume":
            guard checkKeys(request, allowed: [], id: id, &actions) else { return }
            actions.append(.control(cmd == "pause" ? .pause : .resume, id: id))
        default:
            fail(
                .unknownCommand,
                "unknown command '\(Self.echoed(cmd))'; commands are subscribe, unsubscribe, status, ping, rotate, profile, pause, resume",
                id: id, into: &actions)
        }
    }

    private mutating func checkKeys(
        _ request: JSONValue, allowed: Set<String>, id: JSONValue?,
        _ actions: inout [Action]
    ) -> Bool {
        guard case .object(let fields) = request else { return false }
        for (k, _) in fields where k != "cmd" && k != "id" && !allowed.contains(k) {
            let expected =
                allowed.isEmpty
                ? "it takes no arguments" : "expected one of " + allowed.sorted().joined(separator: ", ")
            fail(.badArgument, "unknown key '\(Self.echoed(k))': \(expected)", id: id, into: &actions)
            return false
        }
        return true
    }

    struct Problem: Error { var message: String }

    /// A client's string quoted back in a reply: escaped as the log escapes it
    /// (no control, line-breaking or reordering character reaches the reader's
    /// terminal) and short.
    static func echoed(_ text: some StringProtocol) -> String { sanitizedForLog(text, maxCharacters: 64) }

    /// Reads a rotate request: `rotation` in degrees clockwise, and an optional `device` name.
    static func rotation(from request: JSONValue) -> Result<ControlRequest, Problem> {
        let expected = "0, 90, 180 or 270 (degrees clockwise, as a [[device]] rotation in the config)"
        switch request["rotation"] {
        case nil, .null?: return .failure(Problem(message: "'rotation' is required: \(expected)"))
        default: break
        }
        // A number from outside: compared before it is converted, so no value traps.
        guard case .number(let n)? = request["rotation"], n == n.rounded(), abs(n) <= 360,
            let rotation = Rotation(rawValue: Int(n))
        else {
            return .failure(Problem(message: "'rotation' is \(expected), got \(echoed(request["rotation"]!.json))"))
        }
        switch request["device"] {
        case nil, .null?:
            return .success(.rotate(rotation, device: nil))
        case .string(let name)? where !name.isEmpty:
            return .success(.rotate(rotation, device: name))
        default:
            return .failure(
                Problem(
                    message:
                        "'device' is a touchscreen's name as status and hello show it; leave it out for every touchscreen"
                ))
        }
    }

    /// Reads a subscribe request's filter; each field is a string or a list of strings.
    static func filter(from request: JSONValue, limits: Limits = Limits()) -> Result<SubscriptionFilter, Problem> {
        func strings(_ key: String) -> Result<[String], Problem> {
            switch request[key] {
            case nil, .null?: return .success([])
            case .string(let s)?: return .success([s])
            case .array(let items)?:
                guard items.count <= limits.maxFilterValues else {
                    return .failure(
                        Problem(message: "'\(key)' has \(items.count) values; at most \(limits.maxFilterValues)"))
                }
                var out: [String] = []
                for item in items {
                    guard let s = item.string else { return .failure(Problem(message: "'\(key)' takes strings")) }
                    out.append(s)
                }
                return .success(out)
            default: return .failure(Problem(message: "'\(key)' is a string or a list of strings"))
            }
        }
        var f = SubscriptionFilter()
        do {
            let names = try strings("name").get()
            // What no config can define names nothing; said at once, rather
            // than listed among the unknown names, so a look-alike is not missed.
            for n in names where !n.isEmpty {
                if let problem = RecognizerNames.problem(n) {
                    return .failure(Problem(message: "'name' '\(echoed(n))': \(problem)"))
                }
            }
            f.names = Set(names)
            f.devices = Set(try strings("device").get())
            for k in try strings("kind").get() {
                guard let kind = GestureKind(rawValue: k) else {
                    let known = GestureKind.allCases.map(\.rawValue).joined(separator: ", ")
                    return .failure(Problem(message: "unknown kind '\(echoed(k))'; kinds are \(known)"))
                }
                f.kinds.insert(kind)
            }
            for s in try strings("state").get() {
                guard let state = GestureState(rawValue: s), state != .possible else {
                    return .failure(
                        Problem(
                            message:
                                "unknown state '\(echoed(s))'; states are began, changed, ended, recognized, cancelled, failed"
                        ))
                }
                f.states.insert(state)
            }
        } catch {
            return .failure(error)
        }
        switch request["failures"] {
        case nil, .null?: break
        case .bool(let b)?: f.failures = b
        default: return .failure(Problem(message: "'failures' is true or false"))
        }
        switch request["changed"] {
        case nil, .null?, .string("all")?: break
        case .string("latest")?: f.changed = .latest
        case .number(let n)? where n >= 1 && n <= 1000 && n == n.rounded(): f.changed = .perSecond(Int(n))
        default:
            return .failure(
                Problem(
                    message: "'changed' is \"all\", \"latest\" or a whole number of events per second from 1 to 1000"))
        }
        let size = f.json.utf8.count
        guard size <= limits.maxFilterBytes else {
            return .failure(Problem(message: "the filter is \(size) bytes; at most \(limits.maxFilterBytes)"))
        }
        return .success(f)
    }
}
