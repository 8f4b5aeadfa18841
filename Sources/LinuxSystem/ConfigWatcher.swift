import CLinux
import Glibc

/// Watches the directory of the config file with inotify, so that an editor
/// that saves by writing a new file and renaming it over the old one is seen
/// too (a watch on the file itself would follow the old inode). Reports the
/// file's name being written and closed, or moved into place.
public final class ConfigWatcher {
    public let fd: FileDescriptor
    public let directory: String
    public let fileName: String

    public init(path: String) throws(Errno) {
        let slash = path.lastIndex(of: "/")
        directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        fileName = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let fd = try retryingOnInterrupt { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
        self.fd = FileDescriptor(rawValue: fd)
        do {
            _ = try retryingOnInterrupt {
                inotify_add_watch(fd, directory, UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_ONLYDIR))
            }
        } catch {
            self.fd.close()
            throw error
        }
    }

    deinit { fd.close() }

    /// Reads the pending notifications; true if one of them was about the config file.
    public func configChanged() -> Bool {
        var changed = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let read = buffer.withUnsafeMutableBytes { try? fd.read(into: $0) }
            guard let n = read, n > 0 else { return changed }
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len, then len bytes of NUL-padded name.
            while offset + 16 <= n {
                let len = buffer.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)) }
                let nameBytes = buffer[(offset + 16)..<min(n, offset + 16 + len)].prefix { $0 != 0 }
                if String(decoding: nameBytes, as: UTF8.self) == fileName { changed = true }
                offset += 16 + len
            }
        }
    }
}
