import CLinux
import Glibc

/// Signals delivered through a signalfd instead of handlers: they arrive as
/// readable events on the loop, in order with everything else.
public final class SignalReceiver {
    public let fd: FileDescriptor

    /// Blocks `signals` for this thread (and threads it starts later) and
    /// opens a signalfd for them. Create it before starting any thread.
    public init(signals: [Int32]) throws(Errno) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for s in signals { sigaddset(&mask, s) }
        let r = pthread_sigmask(SIG_BLOCK, &mask, nil)
        if r != 0 { throw Errno(rawValue: r) }
        let fd = signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        guard fd >= 0 else { throw Errno.current }
        self.fd = FileDescriptor(rawValue: fd)
    }

    deinit { fd.close() }

    /// The signals pending now, in arrival order.
    public func receive() -> [Int32] {
        var received: [Int32] = []
        var info = signalfd_siginfo()
        while true {
            let n = withUnsafeMutableBytes(of: &info) { buf in try? fd.read(into: buf) }
            guard let n, n == MemoryLayout<signalfd_siginfo>.size else { return received }
            received.append(Int32(info.ssi_signo))
        }
    }
}
