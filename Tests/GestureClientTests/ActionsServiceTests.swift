import Foundation
import GestureConfig
import GestureCore
import Glibc
import LinuxSystem
import Testing

@testable import GestureClient

/// The daemon's side of the socket, played by the test: it listens, greets,
/// reads requests and writes event lines.
final class FakeDaemon {
    let path: String
    let listener: Int32
    private(set) var client: Int32 = -1
    private var buffer: [UInt8] = []

    init(path: String) throws {
        self.path = path
        unlink(path)
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let bound = try SocketSys.withAddress(path) { bind(listener, $0, $1) }
        precondition(bound == 0 && listen(listener, 8) == 0, "cannot listen on \(path)")
    }

    deinit {
        if client >= 0 { close(client) }
        close(listener)
        unlink(path)
    }

    /// Takes the next connection waiting (the service connects in its own `step`).
    func accept(within seconds: Double = 30) -> Bool {
        var p = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, Int32(seconds * 1000)) == 1 else { return false }
        if client >= 0 { close(client) }
        client = Glibc.accept(listener, nil, nil)
        buffer = []
        return client >= 0
    }

    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    func hello() {
        send(#"{"type":"hello","protocol":1,"daemon":"gestured","version":"test","devices":[],"recognizers":[]}"#)
    }

    /// The next request line, or nil if none comes within `seconds`.
    func readLine(within seconds: Double = 30) -> String? {
        let end = monotonicNow() + Millis(seconds * 1000)
        while true {
            if let nl = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                return line
            }
            let left = end - monotonicNow()
            guard left.value > 0 else { return nil }
            var p = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(left.value.rounded(.up))) == 1 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { read(client, $0.baseAddress, $0.count) }
            guard n > 0 else { return nil }
            buffer += chunk[0..<n]
        }
    }

    /// Ends the connection as a killed daemon would: no goodbye.
    func dropClient() {
        close(client)
        client = -1
    }
}

/// Set once by one thread, read by another.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }
    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

func writeFile(_ path: String, _ text: String) {
    // Written beside it and renamed into place, as editors save.
    let temporary = path + ".new"
    let f = fopen(temporary, "w")!
    fputs(text, f)
    fclose(f)
    chmod(temporary, 0o644)  // whatever the umask: a file only its owner writes, as actions requires
    rename(temporary, path)
}

extension ChildProcesses {
    /// `gesturectl actions` against a daemon played by the test: the subscription
    /// it asks for, the commands events run, reloads, and reconnecting.
    @Suite(.serialized) struct ActionsServiceTests {
        let scratch = Scratch("actions")
        var dir: String { scratch.path }
        let warnings = Warnings()

        var socketPath: String { "\(dir)/events.sock" }

        func service(_ text: String) throws -> ActionsService {
            let path = "\(dir)/actions.toml"
            writeFile(path, text)
            let bytes = Array(text.utf8)
            let actions = try ActionsLoader.load(bytes: bytes, file: path)
            return ActionsService(
                path: path, actions: actions, bytes: bytes, socketPath: socketPath, maxRunning: nil,
                warn: warnings.add)
        }

        /// Steps the service until `condition` holds (at most 60 s: generous, for a loaded machine).
        func until(_ service: ActionsService, _ condition: () -> Bool) throws -> Bool {
            let end = monotonicNow() + Millis(60_000)
            while monotonicNow() < end {
                if condition() { return true }
                try service.step(timeoutMS: 20)
            }
            return condition()
        }

        func event(_ fields: String) -> String {
            #"{"type":"event","time":1.5,"device":"TS","location_mm":[1,2],"location":[0.1,0.2],"# + fields + "}"
        }

        /// Connects and greets; returns the subscription the service sent.
        func greet(_ s: ActionsService, _ daemon: FakeDaemon) throws -> String? {
            try s.step(timeoutMS: 0)
            guard daemon.accept() else { return nil }
            daemon.hello()
            _ = try until(s) { s.subscription != nil }
            return daemon.readLine()
        }

        @Test func eventsRunTheirActions() throws {
            let out = "\(dir)/out"
            let daemon = try FakeDaemon(path: socketPath)
            let s = try service(
                """
                [[action]]
                kind = "swipe"
                direction = "left"
                exec = "echo \\"$GESTURE_NAME $GESTURE_DIRECTION\\" >> \(out)"

                [[action]]
                kind = "pan"
                exec = "echo \\"step $GESTURE_STEP\\" >> \(out)"
                """)
            #expect(
                try greet(s, daemon)
                    == #"{"cmd":"subscribe","kind":["swipe","pan"],"state":["recognized","began","changed"]}"#)
            daemon.send(event(#""name":"swipe","kind":"swipe","state":"recognized","fingers":1,"direction":"right""#))
            daemon.send(
                event(
                    #""name":"pan","kind":"pan","state":"began","fingers":1,"translation_mm":[0,0],"velocity_mm_s":[0,0]"#
                ))
            daemon.send(
                event(
                    #""name":"pan","kind":"pan","state":"changed","fingers":1,"translation_mm":[0,3],"velocity_mm_s":[0,9]"#
                ))
            daemon.send(
                event(
                    #""name":"vol","kind":"pan","state":"changed","fingers":1,"translation_mm":[0,3],"velocity_mm_s":[0,9],"step":-1"#
                ))
            daemon.send(event(#""name":"swipe","kind":"swipe","state":"recognized","fingers":1,"direction":"left""#))
            #expect(try until(s) { readText(out)?.split(separator: "\n").count == 2 })
            #expect(try until(s) { !s.runner.hasRunning })
            // The two run at once: either may write first.
            #expect(readText(out)?.split(separator: "\n").sorted() == ["step -1", "swipe left"])
        }

        @Test func aSavedFileIsReloadedAndABadOneRefused() throws {
            let out = "\(dir)/out"
            let daemon = try FakeDaemon(path: socketPath)
            let s = try service("[[action]]\nkind = \"tap\"\nexec = \"echo tap >> \(out)\"\n")
            #expect(try greet(s, daemon) == #"{"cmd":"subscribe","kind":["tap"],"state":["recognized"]}"#)

            writeFile(s.path, "max_running = 1\n[[action]]\nkind = \"swipe\"\nexec = \"echo swipe >> \(out)\"\n")
            #expect(try until(s) { s.reloads == 1 })
            #expect(s.runner.maxRunning == 1)
            // The new subscription goes to the daemon at once.
            #expect(daemon.readLine() == #"{"cmd":"subscribe","kind":["swipe"],"state":["recognized"]}"#)
            daemon.send(event(#""name":"tap","kind":"tap","state":"recognized","fingers":1,"taps":1"#))
            daemon.send(event(#""name":"swipe","kind":"swipe","state":"recognized","fingers":1,"direction":"up""#))
            #expect(try until(s) { readText(out) == "swipe\n" })

            warnings.lines = []
            writeFile(s.path, "[[action]]\nkind = \"swipe\"\nexec = \"echo bad >> \(out)\"\nfinger = 2\n")
            #expect(try until(s) { s.refusedReloads == 1 })
            #expect(
                warnings.lines.contains(
                    "\(s.path):4: action.0.finger: unknown key for an [[action]]; known keys: exec, name, kind, state, direction, fingers, edge"
                ))
            #expect(warnings.lines.last == "gesturectl: \(s.path): not reloaded; the 1 action loaded before stay")
            #expect(s.actions.actions.map(\.exec) == ["echo swipe >> \(out)"])
            _ = try until(s) { !s.runner.hasRunning }
            daemon.send(event(#""name":"swipe","kind":"swipe","state":"recognized","fingers":1,"direction":"up""#))
            #expect(try until(s) { readText(out) == "swipe\nswipe\n" })
        }

        @Test func aLostConnectionCancelsWhatWasOpenAndReconnects() throws {
            let out = "\(dir)/out"
            let daemon = try FakeDaemon(path: socketPath)
            let s = try service(
                """
                [[action]]
                state = "cancelled"
                exec = "echo \\"$GESTURE_NAME $GESTURE_REASON\\" >> \(out)"
                [[action]]
                kind = "tap"
                exec = "echo tap >> \(out)"
                """)
            _ = try greet(s, daemon)
            daemon.send(
                event(
                    #""name":"pan","kind":"pan","state":"began","fingers":1,"translation_mm":[0,0],"velocity_mm_s":[0,0]"#
                ))
            daemon.dropClient()
            #expect(try until(s) { readText(out) == "pan connection to gestured lost\n" })
            #expect(warnings.lines.contains("gesturectl: gestured closed the connection; reconnecting"))
            // It comes back by itself, at once, and subscribes again.
            try s.step(timeoutMS: 0)
            #expect(daemon.accept(within: 0))
            daemon.hello()
            #expect(try until(s) { s.subscription != nil })
            #expect(daemon.readLine() != nil)
            daemon.send(event(#""name":"tap","kind":"tap","state":"recognized","fingers":1,"taps":1"#))
            #expect(try until(s) { readText(out)?.hasSuffix("tap\n") == true })
            #expect(warnings.lines.contains("gesturectl: connected to \(daemon.path)"))
        }

        /// Rewritten in place (truncated, then written an action at a time) a
        /// thousand times while the service runs: it applies only whole versions.
        @Test func aThousandRewritesInPlaceNeverApplyAHalfWrittenFile() throws {
            func version(_ tag: String, _ count: Int) -> (text: String, execs: [String]) {
                let execs = (1...count).map { "echo \(tag)\($0)" }
                return (execs.map { "[[action]]\nkind = \"tap\"\nexec = \"\($0)\"\n" }.joined(), execs)
            }
            let a = version("a", 20), b = version("b", 30)
            let s = try service(a.text)
            let path = s.path
            let done = Flag()
            let writer = Thread {
                for i in 0..<1000 {
                    let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
                    // An action per write: every point the writer can be caught at parses.
                    for block in (i % 2 == 0 ? a : b).execs.map({ "[[action]]\nkind = \"tap\"\nexec = \"\($0)\"\n" }) {
                        _ = Array(block.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                    }
                    close(fd)
                }
                done.set()
            }
            writer.start()
            var applied: Set<[String]> = []
            while !done.isSet {
                try s.step(timeoutMS: 1)
                applied.insert(s.actions.actions.map(\.exec))
            }
            #expect(
                applied.isSubset(of: [a.execs, b.execs]),
                "applied \(applied.subtracting([a.execs, b.execs]).map(\.count)) actions")
            // The last version (b) is applied once the writes are over.
            #expect(try until(s) { s.actions.actions.map(\.exec) == b.execs })
        }

        @Test func aReloadToNoActionsKeepsTheOnesLoaded() throws {
            let s = try service("[[action]]\nkind = \"tap\"\nexec = \"true\"\n")
            writeFile(s.path, "")
            #expect(try until(s) { s.refusedReloads == 1 })
            #expect(s.actions.actions.count == 1)
            #expect(
                warnings.lines.last
                    == "gesturectl: \(s.path): no [[action]] tables; not reloaded, the 1 action loaded before stay (a reload never takes them all away; to run none, stop gesturectl actions)"
            )
        }

        @Test func aFIFOOrAFileOthersCanWriteIsRefusedOnReload() throws {
            let s = try service("[[action]]\nkind = \"tap\"\nexec = \"true\"\n")
            let next = dir + "/next"
            try #require(mkfifo(next, 0o600) == 0 && rename(next, s.path) == 0)
            #expect(try until(s) { s.refusedReloads == 1 })
            #expect(
                warnings.lines.contains {
                    $0.hasPrefix("gesturectl: \(s.path): is a FIFO (named pipe), not a regular file")
                })
            unlink(s.path)
            writeFile(s.path, "[[action]]\nkind = \"swipe\"\nexec = \"true\"\n")
            #expect(try until(s) { s.reloads == 1 })
            // Made writable by anyone and saved again: refused, the swipe action
            // stays. (Group write alone may be the user's own group's.)
            try #require(chmod(s.path, 0o666) == 0)
            let fd = open(s.path, O_WRONLY | O_APPEND | O_CLOEXEC)
            _ = Array("[[action]]\nkind = \"tap\"\nexec = \"true\"\n".utf8).withUnsafeBytes {
                write(fd, $0.baseAddress, $0.count)
            }
            close(fd)
            #expect(try until(s) { s.refusedReloads == 2 })
            #expect(warnings.lines.contains { $0.contains("\(s.path) can be written by anyone (mode 0666") })
            #expect(s.actions.actions.map(\.kinds) == [[.swipe]])
        }

        @Test func aDaemonThatIsNotThereIsWaitedFor() throws {
            let s = try service("[[action]]\nexec = \"true\"\n")
            try s.step(timeoutMS: 0)  // no socket yet
            #expect(warnings.lines.first?.hasPrefix("gesturectl: \(socketPath) does not exist") == true)
            let again = try FakeDaemon(path: socketPath)
            // Backoff: 0.1 s, 0.2 s, … — within a second or two it is there.
            #expect(try until(s) { again.accept(within: 0) })
            again.hello()
            #expect(try until(s) { s.subscription != nil })
            #expect(again.readLine() == #"{"cmd":"subscribe","state":["recognized","began","changed"]}"#)
        }
    }
}
