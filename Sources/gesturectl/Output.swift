import Glibc
import LinuxSystem

/// Writes to our standard output, all of it. A descriptor left non-blocking by
/// whoever gave it to us is waited on, not given up on. A write that fails
/// (a full disk, a closed descriptor) ends gesturectl with status 1 and says
/// so on stderr: output that was asked for and lost is an error, not success.
func writeStandardOutput(_ text: String) {
    var text = text
    text.withUTF8 { write(UnsafeRawBufferPointer($0), to: .standardOutput) }
}

func writeStandardOutput(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { write($0, to: .standardOutput) }
}

/// Writes to our standard error, all of it; if that fails, gesturectl ends
/// with status 1 (there is nowhere left to say why).
func writeStandardError(_ text: String) {
    var text = text
    text.withUTF8 { write(UnsafeRawBufferPointer($0), to: .standardError) }
}

/// Ends gesturectl with status 1 for output it could not write to stdout,
/// saying why on stderr (`_exit`: safe from an atexit handler too).
func standardOutputFailed(_ error: Errno) -> Never {
    let message = "gesturectl: cannot write to standard output: \(error)\n"
    _ = message.withCString { Glibc.write(2, $0, strlen($0)) }
    _exit(1)
}

private func write(_ bytes: UnsafeRawBufferPointer, to fd: FileDescriptor) {
    var offset = 0
    while offset < bytes.count {
        do throws(Errno) {
            let n = try fd.write(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            if n == 0 { throw Errno(rawValue: EIO) }
            offset += n
        } catch .wouldBlock {
            var p = pollfd(fd: fd.rawValue, events: Int16(POLLOUT), revents: 0)
            _ = poll(&p, 1, -1)
        } catch {
            if fd == .standardOutput { standardOutputFailed(error) }
            _exit(1)
        }
    }
}
