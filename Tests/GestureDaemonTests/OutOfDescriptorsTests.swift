import GestureCore
import Glibc
import Testing

@testable import GestureClient
@testable import GestureDaemon
@testable import GestureProtocol

/// A clock tests move by hand.
final class FakeClock: @unchecked Sendable {
    var now = EventTime(microseconds: 1_000_000_000)
    func advance(ms: Double) { now = now + Millis(ms) }
}

/// When the process is out of file descriptors, `accept` fails with EMFILE and
/// the listener stays readable. The server must neither spin on it nor log
/// every failure, and clients waiting in the backlog must be served once
/// descriptors are free again.
///
/// Lowering RLIMIT_NOFILE would break every other test running in this
/// process, so the test runs its scenario in a child: this same test binary,
/// filtered to `scenarioInAChild`, which only runs when the variable is set.
@Suite(.serialized) struct OutOfDescriptorsTests {
    static let childVariable = "GESTURED_TEST_EMFILE_REPORT"

    @Test func acceptOutOfDescriptorsRestsInsteadOfSpinning() throws {
        let report = "/tmp/gestured-test-\(getpid())-emfile.report"
        unlink(report)
        defer { unlink(report) }
        let exe = try #require(selfExecutable())
        let args = [exe, "--testing-library", "swift-testing", "--filter", "OutOfDescriptorsTests/scenarioInAChild"]
        let status = spawnAndWait(args, environment: ["\(Self.childVariable)=\(report)"])
        let text = readWholeFile(report) ?? ""
        #expect(status == 0, "the child scenario failed (exit status \(status)); its report: \(text)")
        #expect(text.contains("scenario completed"), "the child scenario did not run: \(text)")
    }

    @Test(.enabled(if: getenv(OutOfDescriptorsTests.childVariable) != nil))
    func scenarioInAChild() throws {
        let reportPath = String(cString: getenv(Self.childVariable))
        var report: [String] = []
        defer { writeWholeFile(reportPath, report.joined(separator: "\n") + "\n") }

        let clock = FakeClock()
        var logs: [String] = []
        let path = temporarySocketPath("emfile")
        let listener = try ListeningSocket.bind(path: path, group: nil)
        let server = SocketServer(
            listener: listener, info: DaemonInfo(), clock: { clock.now }, log: { logs.append($0) })
        let driver = PollDriver()
        server.start(on: driver)
        defer { server.shutdown() }

        // Four clients wait in the backlog; then every descriptor is used up.
        let waiting = try (0..<4).map { _ in try TestClient(path: path) }
        var old = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &old)
        var low = old
        low.rlim_cur = rlim_t(highestOpenDescriptor() + 1)
        #expect(setrlimit(Int32(RLIMIT_NOFILE.rawValue), &low) == 0)
        var fillers: [Int32] = []
        while true {
            let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
            if fd < 0 { break }
            fillers.append(fd)
        }
        #expect(errno == EMFILE)

        // Fifty turns of the loop while no descriptor can be had.
        var wakeups = 0
        for _ in 0..<50 { wakeups += driver.turn(server, timeoutMS: 0, now: clock.now) }
        let acceptLines = logs.filter { $0.contains("accept") }
        report.append("wakeups \(wakeups), accept log lines \(acceptLines.count)")
        #expect(wakeups <= 1, "the loop kept waking for the listener: \(wakeups) wakeups in 50 turns")
        #expect(acceptLines.count == 1, "accept failures logged \(acceptLines.count) times: \(acceptLines.prefix(3))")
        #expect(driver.interest[listener.fd] == nil, "the listener is still watched while accept cannot succeed")
        #expect(server.nextDeadline != nil, "no deadline to watch the listener again")

        // The first waiting client was accepted on the spare descriptor and told why.
        waiting[0].pull()
        let told = waiting[0].takeLines()
        report.append("first client: \(told)")
        let refusal = try JSONValue.parse(#require(told.first))
        #expect(refusal["code"] == .string("too_many_clients"))
        #expect(refusal["final"] == .bool(true))
        #expect(waiting[0].eof)

        // Still out of descriptors when the rest is over: the next waiting
        // client is turned away, then another quiet rest, not logged again.
        clock.advance(ms: 1100)
        wakeups = 0
        for _ in 0..<20 { wakeups += driver.turn(server, timeoutMS: 0, now: clock.now) }
        #expect(wakeups <= 1, "the loop kept waking for the listener: \(wakeups) wakeups in 20 turns")
        #expect(logs.filter { $0.contains("accept") }.count == 1, "a second failure within the window was logged again")
        waiting[1].pull()
        #expect(waiting[1].takeLines().first?.contains("too_many_clients") == true)

        // Descriptors come back: after the rest, the others are served.
        for fd in fillers { close(fd) }
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &old)
        clock.advance(ms: 1100)
        for _ in 0..<10 { _ = driver.turn(server, timeoutMS: 0, now: clock.now) }
        for c in waiting[2...] {
            let hello = try JSONValue.parse(#require(c.line(server, driver, now: clock.now)))
            #expect(hello["type"] == .string("hello"))
        }
        #expect(server.clientCount == 2)
        report.append("scenario completed")
    }
}

func highestOpenDescriptor() -> Int32 {
    guard let dir = opendir("/proc/self/fd") else { return 1023 }
    defer { closedir(dir) }
    var highest: Int32 = 2
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if let fd = Int32(name) { highest = max(highest, fd) }
    }
    return highest
}

func selfExecutable() -> String? {
    var buf = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buf, buf.count - 1)
    guard n > 0 else { return nil }
    return String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Runs `args` with the extra environment and waits for it; its exit status, or -1.
func spawnAndWait(_ args: [String], environment extra: [String]) -> Int32 {
    var env: [String] = []
    var p = environ
    while let entry = p.pointee {
        env.append(String(cString: entry))
        p += 1
    }
    env += extra
    var pid: pid_t = 0
    let r = withCStrings(args) { a in withCStrings(env) { e in posix_spawn(&pid, args[0], nil, nil, a, e) } }
    guard r == 0 else { return -1 }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return status & 0x7f == 0 ? (status >> 8) & 0xff : -1
}

func readWholeFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var out: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = read(fd, &buf, buf.count)
        if n <= 0 { break }
        out += buf[0..<n]
    }
    return String(decoding: out, as: UTF8.self)
}

func writeWholeFile(_ path: String, _ text: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return }
    defer { close(fd) }
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}
