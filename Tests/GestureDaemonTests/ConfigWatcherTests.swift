import Glibc
import Testing

@testable import GestureDaemon
@testable import LinuxSystem

/// The config file is read once a write of it is complete, never half-way.
@Suite struct ConfigWatcherTests {
    func makeDirectory() throws -> String {
        var template = Array("/tmp/gestured-watch-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        _ = try #require(made)
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    func write(_ fd: Int32, _ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
    }

    @Test func aFileRewrittenInPlaceIsReadOnlyOnceItsWriteEnds() throws {
        let dir = try makeDirectory()
        let path = dir + "/gestured.toml"
        defer {
            unlink(path)
            unlink(dir + "/other")
            unlink(dir + "/next")
            rmdir(dir)
        }
        let first = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        write(first, "[recognizer.t]\n")
        close(first)
        let w = try ConfigWatcher(path: path)

        // Truncated and written in pieces: not while it is being written.
        let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        try #require(fd >= 0)
        #expect(!w.configChanged())
        write(fd, "[recognizer.t]\n")
        #expect(!w.configChanged())
        write(fd, "kind = \"tap\"\n")
        #expect(!w.configChanged())
        close(fd)
        #expect(w.configChanged())
        // Read with nothing written meanwhile: that version counts as read.
        #expect(w.readWasUndisturbed())
        #expect(!w.configChanged())

        // A write that begins while it is being read: what was read does not
        // count; the new write's end is reported in its turn.
        let again = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        write(again, "[recognizer.u]\n")
        close(again)
        #expect(w.configChanged())
        let during = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        #expect(!w.readWasUndisturbed())
        #expect(!w.configChanged())
        write(during, "kind = \"tap\"\n")
        close(during)
        #expect(w.configChanged())
        #expect(w.readWasUndisturbed())

        // Other files in the directory are not the config.
        let other = open(dir + "/other", O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        write(other, "x")
        close(other)
        #expect(!w.configChanged())

        // Written beside it and renamed into place, as editors save.
        let next = open(dir + "/next", O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        write(next, "[recognizer.v]\nkind = \"tap\"\n")
        close(next)
        #expect(!w.configChanged())
        try #require(rename(dir + "/next", path) == 0)
        #expect(w.configChanged())
    }
}
