import GestureCore

/// The version of the socket protocol in `docs/PROTOCOL.md`. Bumped on any
/// change a client could notice other than new fields or new message types.
public let socketProtocolVersion = 1

/// The daemon's version, as `hello` and `gestured --version` report it.
public let daemonVersion = "0.1.0"

/// What the daemon tells clients about itself; kept current by the daemon
/// (devices come and go, a reload changes the recognizers).
public struct DaemonInfo: Sendable, Equatable {
    public struct Device: Sendable, Equatable {
        public var name: String
        public var node: String
        public var sizeMM: Point
        /// Where `sizeMM` came from; `fallback` means a guess (no resolution, no config).
        public var sizeSource: DeviceGeometry.SizeSource
        /// The rotation the next touch sequence is read with (config, or set at runtime).
        public var rotation: Rotation
        /// The logind seat the touchscreen belongs to (udev's ID_SEAT): whose
        /// active session may change the daemon (`ControlRights`). Not sent.
        public var seat: String
        public static let defaultSeat = "seat0"
        public init(
            name: String, node: String, sizeMM: Point, sizeSource: DeviceGeometry.SizeSource = .resolution,
            rotation: Rotation = .none, seat: String = Device.defaultSeat
        ) {
            self.name = name
            self.node = node
            self.sizeMM = sizeMM
            self.sizeSource = sizeSource
            self.rotation = rotation
            self.seat = seat
        }
    }
    public struct Recognizer: Sendable, Equatable {
        public var name: String
        public var kind: GestureKind
        /// The runtime profiles it takes part in.
        public var profiles: [String]
        public init(name: String, kind: GestureKind, profiles: [String] = [Profiles.defaultName]) {
            self.name = name
            self.kind = kind
            self.profiles = profiles
        }
    }
    public var devices: [Device] = []
    public var recognizers: [Recognizer] = []
    /// Where the running config came from.
    public var configSource = "<built-in>"
    /// Why the config file was refused at start, until a reload loads it (the
    /// daemon then recognizes nothing).
    public var configRefused: String?
    /// The active profile and whether the daemon is paused.
    public var profile = RuntimeProfile()

    public init(
        devices: [Device] = [], recognizers: [Recognizer] = [], configSource: String = "<built-in>",
        profile: RuntimeProfile = RuntimeProfile()
    ) {
        self.devices = devices
        self.recognizers = recognizers
        self.configSource = configSource
        self.profile = profile
    }

    public init(configuration: Configuration, devices: [Device] = [], profile: RuntimeProfile = RuntimeProfile()) {
        self.devices = devices
        recognizers = configuration.recognizers.map {
            Recognizer(name: $0.name, kind: $0.kind, profiles: $0.filter.profiles)
        }
        configSource = configuration.source
        self.profile = profile
    }
}

/// The error codes of `{"type":"error"}` lines.
public enum ProtocolErrorCode: String, Sendable {
    /// The line is not a JSON object.
    case malformed
    /// `cmd` names no command this protocol version has.
    case unknownCommand = "unknown_command"
    /// A known command with a bad argument.
    case badArgument = "bad_argument"
    /// A line longer than the limit; the rest of it up to the newline is skipped.
    case lineTooLong = "line_too_long"
    /// Final: too many errors on this connection.
    case tooManyErrors = "too_many_errors"
    /// Final: the subscriber did not read its events fast enough.
    case slowConsumer = "slow_consumer"
    /// Final: the daemon is stopping.
    case shuttingDown = "shutting_down"
    /// Final, instead of `hello`: the daemon takes no more clients now (its
    /// client limit, the per-user limit, or it ran out of file descriptors).
    case tooManyClients = "too_many_clients"
    /// No request came within the bound after connecting (the connection is closed).
    case idle
    /// A `rotate` request named a touchscreen that is not in use.
    case unknownDevice = "unknown_device"
    /// A request the daemon cannot carry out now (it is stopping).
    case unavailable
    /// A request that changes the daemon from a client without the right to
    /// (see `ControlRights`); the connection stays.
    case notPermitted = "not_permitted"

    /// Whether the connection is closed after the line.
    public var isFinal: Bool {
        switch self {
        case .tooManyErrors, .slowConsumer, .shuttingDown, .tooManyClients, .idle: return true
        case .malformed, .unknownCommand, .badArgument, .lineTooLong, .unknownDevice, .unavailable, .notPermitted:
            return false
        }
    }
}

/// Builders for every line the daemon sends (without the trailing newline).
public enum ProtocolMessages {
    public static func hello(_ info: DaemonInfo) -> String {
        var w = JSONWriter()
        w.field("type", string: "hello")
        w.field("protocol", raw: String(socketProtocolVersion))
        w.field("daemon", string: "gestured")
        w.field("version", string: daemonVersion)
        w.field("devices", raw: devices(info.devices))
        w.field("recognizers", raw: recognizers(info.recognizers))
        profileFields(info.profile, into: &w)
        return w.finish()
    }

    static func profileFields(_ p: RuntimeProfile, into w: inout JSONWriter) {
        w.field("profile", string: p.name)
        w.field("paused", raw: p.paused ? "true" : "false")
    }

    static func strings(_ list: [String]) -> String {
        var out = "["
        for (i, s) in list.enumerated() {
            if i > 0 { out += "," }
            JSONWriter.appendQuoted(s, to: &out)
        }
        return out + "]"
    }

    static func devices(_ ds: [DaemonInfo.Device]) -> String {
        var out = "["
        for (i, d) in ds.enumerated() {
            if i > 0 { out += "," }
            var w = JSONWriter()
            w.field("name", string: d.name)
            w.field("node", string: d.node)
            w.field("size_mm", point: d.sizeMM, decimals: 1)
            w.field("size_source", string: d.sizeSource.rawValue)
            w.field("rotation", raw: String(d.rotation.rawValue))
            out += w.finish()
        }
        return out + "]"
    }

    static func recognizers(_ rs: [DaemonInfo.Recognizer]) -> String {
        var out = "["
        for (i, r) in rs.enumerated() {
            if i > 0 { out += "," }
            var w = JSONWriter()
            w.field("name", string: r.name)
            w.field("kind", string: r.kind.rawValue)
            w.field("profiles", raw: strings(r.profiles))
            out += w.finish()
        }
        return out + "]"
    }

    public static func error(_ code: ProtocolErrorCode, _ message: String, id: JSONValue? = nil) -> String {
        var w = JSONWriter()
        w.field("type", string: "error")
        w.field("code", string: code.rawValue)
        w.field("message", string: message)
        if code.isFinal { w.field("final", raw: "true") }
        if let id { w.field("id", raw: id.json) }
        return w.finish()
    }

    /// `unknownNames`: names in the filter that no configured recognizer has
    /// now (a typo, or one a later reload will bring).
    public static func subscribed(_ f: SubscriptionFilter, unknownNames: [String] = [], id: JSONValue?) -> String {
        var w = JSONWriter()
        w.field("type", string: "subscribed")
        w.field("filter", raw: f.json)
        var list = "["
        for (i, n) in unknownNames.sorted().enumerated() {
            if i > 0 { list += "," }
            JSONWriter.appendQuoted(n, to: &list)
        }
        w.field("unknown_names", raw: list + "]")
        if let id { w.field("id", raw: id.json) }
        return w.finish()
    }

    public static func unsubscribed(id: JSONValue?) -> String {
        var w = JSONWriter()
        w.field("type", string: "unsubscribed")
        if let id { w.field("id", raw: id.json) }
        return w.finish()
    }

    /// The reply to a control request (`rotate`, `profile`, `pause`, `resume`).
    public static func reply(_ r: ControlReply, id: JSONValue?) -> String {
        var w = JSONWriter()
        switch r {
        case .rotated(let rotation, let devices):
            w.field("type", string: "rotated")
            w.field("rotation", raw: String(rotation.rawValue))
            w.field("devices", raw: strings(devices))
        case .profile(let p, let recognizers, let warning):
            w.field("type", string: "profile")
            profileFields(p, into: &w)
            w.field("recognizers", raw: strings(recognizers))
            if let warning { w.field("warning", string: warning) }
        case .refused(let code, let message):
            return error(code, message, id: id)
        }
        if let id { w.field("id", raw: id.json) }
        return w.finish()
    }

    public static func pong(id: JSONValue?) -> String {
        var w = JSONWriter()
        w.field("type", string: "pong")
        if let id { w.field("id", raw: id.json) }
        return w.finish()
    }

    /// One subscriber as `status` lists it.
    public struct SubscriberStatus: Sendable {
        public var id: Int
        public var pid: Int32, uid: UInt32, gid: UInt32
        public var filter: SubscriptionFilter?
        public var queuedLines: Int, queuedBytes: Int
        /// Bytes written to the socket the client has not read yet (SIOCOUTQ), -1 if unknown.
        public var unsentBytes: Int
        public var sent: Int
        /// `changed` events thinned out by the subscription's `changed` option.
        public var changedSkipped: Int
        public init(
            id: Int, pid: Int32, uid: UInt32, gid: UInt32, filter: SubscriptionFilter?,
            queuedLines: Int, queuedBytes: Int, unsentBytes: Int = -1, sent: Int, changedSkipped: Int = 0
        ) {
            self.id = id
            self.pid = pid
            self.uid = uid
            self.gid = gid
            self.filter = filter
            self.queuedLines = queuedLines
            self.queuedBytes = queuedBytes
            self.unsentBytes = unsentBytes
            self.sent = sent
            self.changedSkipped = changedSkipped
        }
    }

    public static func status(
        _ info: DaemonInfo, clients: [SubscriberStatus], uptimeSeconds: Double,
        eventsPublished: Int, dropped: Int, id: JSONValue?
    ) -> String {
        var w = JSONWriter()
        w.field("type", string: "status")
        w.field("protocol", raw: String(socketProtocolVersion))
        w.field("version", string: daemonVersion)
        w.field("uptime_s", raw: formatFixed(uptimeSeconds, decimals: 1))
        w.field("config", string: info.configSource)
        if let refused = info.configRefused { w.field("config_refused", string: refused) }
        w.field("devices", raw: devices(info.devices))
        w.field("recognizers", raw: recognizers(info.recognizers))
        profileFields(info.profile, into: &w)
        var list = "["
        for (i, c) in clients.enumerated() {
            if i > 0 { list += "," }
            var cw = JSONWriter()
            cw.field("id", raw: String(c.id))
            cw.field("pid", raw: String(c.pid))
            cw.field("uid", raw: String(c.uid))
            cw.field("gid", raw: String(c.gid))
            cw.field("subscribed", raw: c.filter == nil ? "false" : "true")
            if let f = c.filter { cw.field("filter", raw: f.json) }
            cw.field("queued_lines", raw: String(c.queuedLines))
            cw.field("queued_bytes", raw: String(c.queuedBytes))
            if c.unsentBytes >= 0 { cw.field("unsent_bytes", raw: String(c.unsentBytes)) }
            cw.field("sent", raw: String(c.sent))
            cw.field("changed_skipped", raw: String(c.changedSkipped))
            list += cw.finish()
        }
        w.field("clients", raw: list + "]")
        w.field("events_published", raw: String(eventsPublished))
        w.field("subscribers_dropped", raw: String(dropped))
        if let id { w.field("id", raw: id.json) }
        return w.finish()
    }

    /// An event as subscribers receive it: `"type":"event"`, the envelope of
    /// DESIGN.md, then `frame_time` (the kernel timestamp of the frame that
    /// decided it; a timer-decided event carries the last frame before it) and
    /// `emitted` (when the daemon published it). All three times are seconds
    /// on CLOCK_MONOTONIC, so `emitted - frame_time` is the daemon's latency.
    public static func event(_ e: GestureEvent, frameTime: EventTime, emitted: EventTime) -> String {
        var w = JSONWriter()
        writeEvent(e, frameTime: frameTime, emitted: emitted, to: &w)
        return w.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// The `event` line into `w` (reset first, closed after): `type`, the
    /// event's own fields, `frame_time`, `emitted`. The socket encodes each
    /// event once this way, into a writer it keeps.
    public static func writeEvent(_ e: GestureEvent, frameTime: EventTime, emitted: EventTime, to w: inout JSONWriter) {
        w.reset()
        w.field("type", string: "event")
        e.writeFields(to: &w)
        w.field("frame_time", time: frameTime)
        w.field("emitted", time: emitted)
        w.close()
    }
}
