import Glibc
import LinuxSystem

/// Writes to our standard output, all of it. A descriptor left non-blocking by
/// whoever gave it to us is waited on, not given up on. A write that fails
/// (a full disk, a closed descriptor) ends gesturectl with status 1 and says
/// so on stderr: output that was asked for and lost is an error, not success.
func writeStandardOutput(_ text: String) {
    var text = text
    text.withUTF8 { write(UnsafeRawBufferPointer($0), to: 1, what: "standard output") }
}

func writeStandardOutput(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { write($0, to: 1, what: "standard output") }
}

/// Writes to our standard error, all of it; if that fails, gesturectl ends
/// with status 1 (there is nowhere left to say why).
func writeStandardError(_ text: String) {
    var text = text
    text.withUTF8 { write(UnsafeRawBufferPointer($0), to: 2, what: nil) }
}

private func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32, what: String?) {
    var offset = 0
    while offset < bytes.count {
        let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if n > 0 {
            offset += n
            continue
        }
        let e = n < 0 ? errno : EIO
        if e == EINTR { continue }
        if e == EAGAIN {
            var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&p, 1, -1)
            continue
        }
        if let what {
            let message = "gesturectl: cannot write to \(what): \(Errno(rawValue: e))\n"
            _ = message.withCString { Glibc.write(2, $0, strlen($0)) }
        }
        exit(1)
    }
}
