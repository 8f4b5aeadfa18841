import GestureCore
import GestureProtocol
import Glibc
import LinuxSystem

/// A client's connection to gestured's socket (blocking connect, then lines
/// read with a timeout), for `gesturectl`.
public final class DaemonConnection {
    public let fd: Int32
    /// Bytes read and not yet returned as lines start at `start`.
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where each read(2) lands: allocated once, never cleared (a subscriber
    /// is woken for every turn of the daemon that has something for it).
    private let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 16)

    /// Why connecting failed, in words a user can act on.
    public struct Failure: Error, CustomStringConvertible {
        public var errno: Int32
        public var description: String
        /// Worth retrying (no daemon yet, or it is restarting).
        public var isTransient: Bool { errno == ENOENT || errno == ECONNREFUSED || errno == EAGAIN }
    }

    public init(path: String) throws(Failure) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            let error = errno
            throw Failure(errno: error, description: "socket: \(String(cString: strerror(error)))")
        }
        let r: Int32
        // On a throw from here on, deinit closes `fd`.
        do { r = try SocketSys.withAddress(path) { connect(fd, $0, $1) } } catch {
            throw Failure(errno: error.errno, description: error.description)
        }
        if r != 0 {
            let e = errno
            let why: String
            switch e {
            case EACCES:
                why =
                    "\(path): permission denied. The socket is for members of the group '\(DaemonSocket.defaultGroup)': sudo usermod -aG \(DaemonSocket.defaultGroup) $USER, then log in again"
            case ENOENT:
                why =
                    "\(path) does not exist: gestured is not listening (systemctl status gestured.socket gestured.service says why; systemctl enable --now gestured.socket starts it)"
            case ECONNREFUSED:
                why = "\(path): nobody is listening (gestured stopped?)"
            default:
                why = "\(path): \(String(cString: strerror(e)))"
            }
            throw Failure(errno: e, description: why)
        }
    }

    deinit {
        close(fd)
        chunk.deallocate()
    }

    /// Sends one request line.
    public func send(_ line: String) -> Bool {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { b in
                try? retryingOnInterrupt {
                    Glibc.send(fd, b.baseAddress! + offset, b.count - offset, Int32(MSG_NOSIGNAL))
                }
            }
            guard let sent else { return false }
            offset += sent
        }
        return true
    }

    /// Why a request got no reply.
    public struct RequestFailure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Reads the daemon's `hello`, sends one request (a JSON object without its
    /// newline) and returns `hello` and the reply: the next line, as a client
    /// that has not subscribed gets no events.
    public func request(_ line: String, timeoutMS: Int32 = 5000) throws(RequestFailure) -> (
        hello: JSONValue, reply: JSONValue
    ) {
        func next() throws(RequestFailure) -> JSONValue {
            switch readLine(timeoutMS: timeoutMS) {
            case .line(let l):
                guard let v = try? JSONValue.parse(l), case .object = v else {
                    throw RequestFailure(description: "gestured sent a line that is not a JSON object")
                }
                return v
            case .timedOut: throw RequestFailure(description: "no answer from gestured within \(timeoutMS / 1000) s")
            case .closed: throw RequestFailure(description: "gestured closed the connection")
            }
        }
        let hello = try next()
        if hello["type"] == .string("error") {
            throw RequestFailure(
                description: "gestured refused the connection: \(hello["message"]?.string ?? "no reason given")")
        }
        guard send(line) else {
            throw RequestFailure(description: "cannot send the request: \(String(cString: strerror(errno)))")
        }
        return (hello, try next())
    }

    public enum ReadResult: Equatable {
        case line(String)
        case timedOut
        case closed
    }

    /// A whole line has been read and not yet returned: `readLine` returns
    /// it without waiting (poll(2) on `fd` would not say so).
    public var hasBufferedLine: Bool { buffer[start...].contains(0x0A) }

    /// The next line, waiting at most `timeoutMS` (-1: forever).
    public func readLine(timeoutMS: Int32) -> ReadResult {
        while true {
            if let nl = buffer[start...].firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[start..<nl], as: UTF8.self)
                start = nl + 1
                if start == buffer.count {
                    buffer.removeAll(keepingCapacity: true)
                    start = 0
                }
                return .line(line)
            }
            if start > 0 {
                buffer.removeSubrange(..<start)
                start = 0
            }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let r = poll(&p, 1, timeoutMS)
            if r < 0 {
                if errno == EINTR { return .timedOut }
                return .closed
            }
            if r == 0 { return .timedOut }
            switch Result(catching: { () throws(Errno) in try FileDescriptor(rawValue: fd).read(into: chunk) }) {
            case .success(let n) where n > 0: buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
            case .failure(.wouldBlock): continue
            default: return .closed
            }
        }
    }
}
