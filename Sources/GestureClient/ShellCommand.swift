import Glibc

/// Starting `/bin/sh -c COMMAND` for one event: the event line on its stdin
/// (through a fresh pipe, closed after the line, so the command sees end of
/// file; without a line, our stdin), our environment with the event's variables replacing any of the
/// same name (with none, our environment exactly as it is), our stdout and stderr, SIGPIPE back to
/// its default and no signal blocked.
/// Never waits: the caller reaps the child.
enum ShellCommand {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// glibc's `POSIX_SPAWN_SETSID` (spawn.h, since 2.26), which Swift's Glibc
    /// module does not import: the child calls setsid(2) before it execs.
    static let setSessionFlag: Int32 = 0x80

    /// Starts the command; its pid. With `newSession` the child leads a
    /// session (and process group) of its own, as `setsid` would start it:
    /// no controlling terminal, and signals sent to ours (Ctrl-C, a stop) do
    /// not reach it.
    static func spawn(
        _ command: String, input: String?, environment extra: [(String, String)],
        newSession: Bool
    ) -> Result<pid_t, Failure> {
        var fds: (Int32, Int32) = (-1, -1)
        if input != nil {
            let made = withUnsafeMutableBytes(of: &fds) { pipe($0.baseAddress!.assumingMemoryBound(to: Int32.self)) }
            guard made == 0 else {
                return .failure(Failure(description: "pipe: \(String(cString: strerror(errno)))"))
            }
            // Close-on-exec on both: the dup2 to stdin is what the child keeps.
            _ = fcntl(fds.0, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds.1, F_SETFD, FD_CLOEXEC)
        }
        let (readEnd, writeEnd) = fds
        // File actions only for the event line on stdin; without one the child
        // keeps our descriptors as they are, and none are given.
        var actions = posix_spawn_file_actions_t()
        if input != nil {
            posix_spawn_file_actions_init(&actions)
            posix_spawn_file_actions_adddup2(&actions, readEnd, 0)
        }
        defer { if input != nil { posix_spawn_file_actions_destroy(&actions) } }

        // Signals we ignore (SIGPIPE) would stay ignored in the command: `yes | head` would never end.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // Nor may a signal the starting thread blocks stay blocked in the command
        // (dash unblocks everything when it starts; bash as /bin/sh does not).
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        if newSession { flags |= setSessionFlag }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        var pid: pid_t = 0
        // argv is `/bin/sh -c COMMAND`, the strings lent where they are (no
        // copies); the environment is ours as it is when nothing replaces a
        // variable (`gesturectl lisgd`), else built per command.
        let r = "/bin/sh".withCString { shell in
            "-c".withCString { dashC in
                command.withCString { text in
                    withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<CChar>?.self, capacity: 4) { argv in
                        argv[0] = UnsafeMutablePointer(mutating: shell)
                        argv[1] = UnsafeMutablePointer(mutating: dashC)
                        argv[2] = UnsafeMutablePointer(mutating: text)
                        argv[3] = nil
                        return withPointer(to: &actions, if: input != nil) { fileActions in
                            if extra.isEmpty {
                                return posix_spawn(&pid, shell, fileActions, &attributes, argv.baseAddress!, environ)
                            }
                            return withEnvironment(replacing: extra) { cenv in
                                posix_spawn(&pid, shell, fileActions, &attributes, argv.baseAddress!, cenv)
                            }
                        }
                    }
                }
            }
        }
        if readEnd >= 0 { close(readEnd) }
        guard r == 0 else {
            if writeEnd >= 0 { close(writeEnd) }
            return .failure(Failure(description: "cannot start /bin/sh: \(String(cString: strerror(r)))"))
        }
        guard let input else { return .success(pid) }
        // An event line is far below the pipe's capacity, so this write does
        // not block; non-blocking all the same, so that nothing ever can.
        _ = fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK)
        let bytes = Array((input + "\n").utf8)
        // A child that exits without reading its stdin gives EPIPE (SIGPIPE is
        // ignored by the runners): not our problem.
        _ = bytes.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
        close(writeEnd)
        return .success(pid)
    }
}

/// Calls `body` with a pointer to `value` when `given`, else with nil.
private func withPointer<T, R>(to value: inout T, if given: Bool, _ body: (UnsafePointer<T>?) -> R) -> R {
    given ? withUnsafePointer(to: &value) { body($0) } : body(nil)
}

/// Calls `body` with our environment as a NULL-terminated C array, `extra`
/// replacing any variable of the same name and added after the rest; an entry
/// without `=` is left out. Our own entries are passed as they are, byte for
/// byte, not copied: a command per event must not cost a conversion of every
/// variable into a Swift string and back.
func withEnvironment<R>(replacing extra: [(String, String)], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    let added = extra.map { strdup("\($0.0)=\($0.1)") }
    let nameLengths = extra.map { $0.0.utf8.count }
    defer { for p in added { free(p) } }
    var entries: [UnsafeMutablePointer<CChar>?] = []
    var p = environ
    while let entry = p.pointee {
        p += 1
        guard let eq = strchr(entry, 0x3D) else { continue }
        let length = entry.distance(to: eq)
        // A variable named in `extra` is replaced: compare up to and including the `=`.
        if added.indices.contains(where: { k in
            nameLengths[k] == length && added[k].map { strncmp($0, entry, length + 1) == 0 } ?? false
        }) {
            continue
        }
        entries.append(entry)
    }
    entries += added
    entries.append(nil)
    return body(entries)
}

/// Calls `body` with a NULL-terminated C array of the strings.
func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    pointers.append(nil)
    defer { for p in pointers { free(p) } }
    return body(pointers)
}
