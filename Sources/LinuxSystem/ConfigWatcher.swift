import CLinux
import Glibc

/// Watches the directory of the config file with inotify, so that an editor
/// that saves by writing a new file and renaming it over the old one is seen
/// too (a watch on the file itself would follow the old inode).
///
/// A file is read only once a write of it is complete: closed after writing
/// (IN_CLOSE_WRITE) or moved into place (IN_MOVED_TO), with no write begun
/// since (IN_MODIFY, which truncating also sends). A reader that rewrites the
/// file in place, truncating it and writing it in pieces, is so never read
/// half-way; and what was read counts only if nothing happened in the
/// directory while it was being read (`readWasUndisturbed`). A change of the
/// file's or the directory's owner or mode (IN_ATTRIB) counts as a new
/// version too: a file refused for who may change it is read again once
/// that is fixed.
public final class ConfigWatcher {
    public let fd: FileDescriptor
    public let directory: String
    public let fileName: String
    /// A write of the file ended and the file was not read since.
    private var completed = false
    /// A write began after the last one ended: the file may be half written.
    private var writing = false

    public init(path: String) throws(Errno) {
        (directory, fileName) = splitPath(path)
        let fd = try retryingOnInterrupt { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
        self.fd = FileDescriptor(rawValue: fd)
        do {
            _ = try retryingOnInterrupt {
                inotify_add_watch(
                    fd, directory, UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MODIFY | IN_ATTRIB | IN_ONLYDIR))
            }
        } catch {
            self.fd.close()
            throw error
        }
    }

    deinit { fd.close() }

    /// Reads the pending notifications; true when the file holds a complete
    /// version not read yet: its last write ended and no other has begun.
    public func configChanged() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let read = buffer.withUnsafeMutableBytes { try? fd.read(into: $0) }
            guard let n = read, n > 0 else { break }
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len, then len bytes of NUL-padded name.
            while offset + 16 <= n {
                let mask = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self) }
                let len = buffer.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)) }
                let nameBytes = buffer[(offset + 16)..<min(n, offset + 16 + len)].prefix { $0 != 0 }
                offset += 16 + len
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    // Notifications were lost: whatever happened, it is over or
                    // will say so; read, and let the check after reading decide.
                    completed = true
                    writing = false
                    continue
                }
                // The directory's own owner or mode (no name): the file's trust.
                if len == 0 && mask & UInt32(IN_ATTRIB) != 0 {
                    completed = true
                    continue
                }
                guard String(decoding: nameBytes, as: UTF8.self) == fileName else { continue }
                if mask & UInt32(IN_MODIFY) != 0 { writing = true }
                if mask & UInt32(IN_ATTRIB) != 0 { completed = true }
                if mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO) != 0 {
                    writing = false
                    completed = true
                }
            }
        }
        return completed && !writing
    }

    /// After reading the file for `configChanged`: true when no notification
    /// came while it was read, so what was read is the complete version, and
    /// it counts as read. False: something was written meanwhile; the
    /// descriptor is readable again and `configChanged` says when to read anew.
    public func readWasUndisturbed() -> Bool {
        var pending: Int32 = 0
        // FIONREAD: the bytes of notifications queued, without taking them.
        if ioctl(fd.rawValue, UInt(FIONREAD), &pending) == 0, pending > 0 { return false }
        completed = false
        return true
    }
}
