import GestureConfig
import GestureCore
import GestureDaemon
import GestureProtocol
import Glibc
import LinuxInput
import LinuxSystem

/// The daemon's own work per loop turn, without the kernel's side of it:
/// `DaemonCore` is handed each frame as `DaemonLoop` hands it a read (one
/// frame per read, the common case on a real device), fires its timer when a
/// frame passes the deadline it armed, and publishes through a real
/// `SocketServer` to `subscribers` clients on a Unix socket in this process,
/// which read everything after every turn. What is timed and counted is one
/// turn: the core, the encoding, the gathering write to each subscriber.
final class DaemonTurnBench {
    /// Watches nothing: the clients are driven by hand.
    private final class Interest: SocketServerLoop {
        var fds: [Int32: (readable: Bool, writable: Bool)] = [:]
        func watch(_ fd: Int32, readable: Bool, writable: Bool) { fds[fd] = (readable, writable) }
        func unwatch(_ fd: Int32) { fds[fd] = nil }
    }

    private var core: DaemonCore
    private let server: SocketServer?
    private let interest = Interest()
    private let path: String
    private var clients: [Int32] = []
    private var actions: [DaemonCore.Action] = []
    private var inputs: [DeviceInput] = []
    private var timer: EventTime?
    private var scratch = [UInt8](repeating: 0, count: 65536)
    private let syspath = "/sys/devices/virtual/input/input0/event0"
    /// Bytes all subscribers received.
    private var bytesReceived = 0
    /// Bytes each subscriber received (they all take everything).
    var bytesPerSubscriber: Int { clients.isEmpty ? 0 : bytesReceived / clients.count }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(device: DeviceDescription, configuration: Configuration, subscribers: Int) throws {
        core = DaemonCore(configuration: configuration, options: .init())
        path = "/tmp/gesturectl-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        if subscribers > 0 {
            let listener: ListeningSocket
            do { listener = try ListeningSocket.bind(path: path, group: nil) } catch {
                throw Failure(description: "bench socket \(path): \(error)")
            }
            let s = SocketServer(listener: listener, info: DaemonInfo(configuration: configuration), log: { _ in })
            s.start(on: interest)
            server = s
        } else {
            server = nil
        }
        let node = InputNode(
            syspath: syspath, sysname: "event0", devnode: "/dev/input/event0",
            properties: ["ID_INPUT": "1", "ID_INPUT_TOUCHSCREEN": "1"], name: device.name)
        handle(.start(at: .zero))
        handle(.devicesListed([node]))
        handle(.opened(DeviceSnapshot(node: node, description: device)))
        guard core.openDevices == [syspath] else {
            throw Failure(description: "the daemon did not take \(device.name)")
        }
        for _ in 0..<subscribers { try connect() }
        actions.reserveCapacity(64)
        inputs.reserveCapacity(256)
    }

    deinit {
        server?.shutdown()
        for fd in clients { close(fd) }
    }

    /// A subscriber taking everything, connected and subscribed before this returns.
    private func connect() throws {
        guard server != nil else { return }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(Errno.current)") }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = b }
        }
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard r == 0 else {
            close(fd)
            throw Failure(description: "connect \(path): \(Errno.current)")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        clients.append(fd)
        let request = Array("{\"cmd\":\"subscribe\"}\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        // Until `hello` and `subscribed` are in: two lines.
        var lines = 0
        for _ in 0..<1000 where lines < 2 {
            pollServer()
            lines += drain(fd).newlines
        }
        guard lines >= 2 else { throw Failure(description: "a bench subscriber got no `subscribed` reply") }
    }

    /// One round of the server's readiness, by poll(2).
    private func pollServer() {
        guard let server else { return }
        var fds = interest.fds.map { fd, i in
            pollfd(fd: fd, events: Int16((i.readable ? POLLIN : 0) | (i.writable ? POLLOUT : 0)), revents: 0)
        }
        guard poll(&fds, nfds_t(fds.count), 10) > 0 else { return }
        for p in fds where p.revents != 0 {
            server.handle(
                fd: p.fd, readable: p.revents & Int16(POLLIN) != 0, writable: p.revents & Int16(POLLOUT) != 0,
                hangup: p.revents & Int16(POLLHUP | POLLERR) != 0)
        }
    }

    private func drain(_ fd: Int32) -> (bytes: Int, newlines: Int) {
        var total = 0, newlines = 0
        while true {
            let n = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard n > 0 else { return (total, newlines) }
            total += n
            for i in 0..<n where scratch[i] == 0x0A { newlines += 1 }
        }
    }

    /// The subscribers read what they were sent (not part of the daemon's turn).
    func readSubscribers() {
        for fd in clients { bytesReceived += drain(fd).bytes }
        // A client that could not take everything is written to once it drained.
        if let server, interest.fds.values.contains(where: { $0.writable }) {
            for (fd, i) in interest.fds where i.writable {
                server.handle(fd: fd, readable: false, writable: true, hangup: false)
            }
        }
    }

    /// Queues one kernel event for the next read.
    @inline(__always)
    func queue(_ e: RawEvent) { inputs.append(.event(e)) }

    /// One loop turn: the timer if the frame is past its deadline, then the
    /// read of what was queued, then the writes to the subscribers.
    func turn(at frameTime: EventTime) {
        if let t = timer, t <= frameTime {
            timer = nil
            handle(.timerFired(at: t))
        }
        handle(.read(syspath: syspath, inputs, end: .drained))
        inputs.removeAll(keepingCapacity: true)
        server?.flushPublished()
    }

    /// Runs the timers out at `time` (the end of a replay).
    func advance(to time: EventTime) {
        while let t = timer, t <= time {
            timer = nil
            handle(.timerFired(at: t))
            server?.flushPublished()
        }
    }

    private func handle(_ input: DaemonCore.Input) {
        let start = actions.count
        core.handle(input, into: &actions)
        var i = start
        while i < actions.count {
            switch actions[i] {
            case .publish(let e, let frameTime): server?.publish(e, frameTime: frameTime, flush: false)
            case .armTimer(let t): timer = t
            case .drainInput:
                // Nothing is queued between frames: the input is drained.
                handle(.inputDrained)
            case .continueRead:
                handle(.readContinued)
            case .open, .watch, .close, .print, .notify, .log, .rescan, .loadConfig, .updateInfo, .expireClients,
                .pauseUdev, .resumeUdev, .shutDownSocket, .stop, .reply, .makeTwin, .writeTwin:
                break
            }
            i += 1
        }
        actions.removeSubrange(start...)
    }
}
