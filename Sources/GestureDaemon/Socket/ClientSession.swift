import GestureCore

/// The protocol of one connection as a pure state machine: bytes in, actions
/// out. The server does the I/O; tests drive this struct directly.
///
/// Requests are newline-terminated JSON objects with a `cmd`. Every bad line
/// gets an error reply; after `limits.maxErrors` of them the connection gets a
/// final `too_many_errors` line and is closed. A line longer than
/// `limits.maxLineBytes` gets `line_too_long` once and the rest of it, up to
/// its newline, is skipped without being buffered.
public struct ClientSession: Sendable {
    public struct Limits: Sendable {
        public var maxLineBytes = 64 * 1024
        public var maxErrors = 5
        public init(maxLineBytes: Int = 64 * 1024, maxErrors: Int = 5) {
            self.maxLineBytes = maxLineBytes; self.maxErrors = maxErrors
        }
    }

    public enum Action: Sendable, Equatable {
        /// Queue this line (no newline) for the client.
        case send(String)
        /// Deliver events matching the filter from now on (replaces any earlier one).
        case subscribe(SubscriptionFilter)
        case unsubscribe
        /// Queue a `status` reply carrying this request id.
        case sendStatus(id: JSONValue?)
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
    public private(set) var subscription: SubscriptionFilter?
    /// Set when the client's side ended (EOF); a subscriber may half-close and keep receiving.
    public private(set) var inputEnded = false

    public init(limits: Limits = Limits()) { self.limits = limits }

    public var isClosed: Bool { state == .closed }

    /// Bytes read from the client.
    public mutating func received(_ bytes: some Collection<UInt8>) -> [Action] {
        var actions: [Action] = []
        for b in bytes {
            switch state {
            case .closed:
                return actions
            case .skippingLongLine:
                if b == 0x0A { state = .reading }
            case .reading:
                if b == 0x0A {
                    handleLine(&actions)
                    line.removeAll(keepingCapacity: line.count <= 4096)
                } else if line.count >= limits.maxLineBytes {
                    line = []
                    state = .skippingLongLine
                    fail(.lineTooLong, "a request line is limited to \(limits.maxLineBytes) bytes", id: nil, into: &actions)
                } else {
                    line.append(b)
                }
            }
        }
        return actions
    }

    /// The client's side ended (read returned 0). A last line without its newline
    /// still counts. A subscriber keeps its stream; anyone else is closed.
    public mutating func endOfInput() -> [Action] {
        var actions: [Action] = []
        guard state != .closed, !inputEnded else { return actions }
        inputEnded = true
        if state == .reading && !line.isEmpty { handleLine(&actions); line = [] }
        if state != .closed && subscription == nil {
            state = .closed
            actions.append(.close)
        }
        return actions
    }

    /// The server is closing the connection (slow consumer, shutdown): nothing
    /// more is read or answered.
    public mutating func closedByServer() { state = .closed }

    private mutating func fail(_ code: ProtocolErrorCode, _ message: String, id: JSONValue?, into actions: inout [Action]) {
        errors += 1
        actions.append(.send(ProtocolMessages.error(code, message, id: id)))
        if errors >= limits.maxErrors {
            actions.append(.send(ProtocolMessages.error(.tooManyErrors, "\(errors) bad requests; closing the connection")))
            actions.append(.close)
            state = .closed
        }
    }

    private mutating func handleLine(_ actions: inout [Action]) {
        var bytes = line[...]
        if bytes.last == 0x0D { bytes = bytes.dropLast() }  // tolerate CRLF
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
        let request: JSONValue
        do {
            request = try JSONValue.parse(bytes)
        } catch {
            fail(.malformed, "not JSON: \(error)", id: nil, into: &actions)
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
            actions.append(.sendStatus(id: id))
        case "unsubscribe":
            guard checkKeys(request, allowed: [], id: id, &actions) else { return }
            subscription = nil
            actions.append(.unsubscribe)
            actions.append(.send(ProtocolMessages.unsubscribed(id: id)))
        case "subscribe":
            guard checkKeys(request, allowed: ["name", "kind", "state", "device", "failures"], id: id, &actions)
            else { return }
            switch Self.filter(from: request) {
            case .success(let f):
                subscription = f
                actions.append(.subscribe(f))
                actions.append(.send(ProtocolMessages.subscribed(f, id: id)))
            case .failure(let problem):
                fail(.badArgument, problem.message, id: id, into: &actions)
            }
        default:
            fail(.unknownCommand, "unknown command '\(cmd)'; commands are subscribe, unsubscribe, status, ping",
                 id: id, into: &actions)
        }
    }

    private mutating func checkKeys(_ request: JSONValue, allowed: Set<String>, id: JSONValue?,
                                    _ actions: inout [Action]) -> Bool {
        guard case .object(let fields) = request else { return false }
        for (k, _) in fields where k != "cmd" && k != "id" && !allowed.contains(k) {
            let expected = allowed.isEmpty ? "it takes no arguments" : "expected one of " + allowed.sorted().joined(separator: ", ")
            fail(.badArgument, "unknown key '\(k)': \(expected)", id: id, into: &actions)
            return false
        }
        return true
    }

    struct Problem: Error { var message: String }

    /// Reads a subscribe request's filter; each field is a string or a list of strings.
    static func filter(from request: JSONValue) -> Result<SubscriptionFilter, Problem> {
        func strings(_ key: String) -> Result<[String], Problem> {
            switch request[key] {
            case nil, .null?: return .success([])
            case .string(let s)?: return .success([s])
            case .array(let items)?:
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
            f.names = Set(try strings("name").get())
            f.devices = Set(try strings("device").get())
            for k in try strings("kind").get() {
                guard let kind = GestureKind(rawValue: k) else {
                    let known = GestureKind.allCases.map(\.rawValue).joined(separator: ", ")
                    return .failure(Problem(message: "unknown kind '\(k)'; kinds are \(known)"))
                }
                f.kinds.insert(kind)
            }
            for s in try strings("state").get() {
                guard let state = GestureState(rawValue: s), state != .possible else {
                    return .failure(Problem(message: "unknown state '\(s)'; states are began, changed, ended, recognized, cancelled, failed"))
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
        return .success(f)
    }
}
