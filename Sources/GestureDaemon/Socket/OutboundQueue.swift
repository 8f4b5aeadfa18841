/// One serialised line (with its newline), shared by every subscriber it goes to:
/// an event is encoded once, whatever the number of subscribers.
public final class SharedLine: Sendable {
    public let bytes: [UInt8]
    public init(_ text: String) { bytes = Array((text + "\n").utf8) }
}

/// A subscriber's bounded queue of lines waiting for its socket to accept them.
///
/// The policy: a line that would take the queue past `maxLines` or `maxBytes` is
/// refused, and the caller disconnects the subscriber (after `replaceWithFinal`):
/// a client that falls behind loses its connection, never the daemon's memory and
/// never other subscribers' events. A line already partly written is always
/// finished first, so the stream stays line-framed to the end.
public struct OutboundQueue: Sendable {
    public struct Limits: Sendable, Equatable {
        public var maxLines: Int
        public var maxBytes: Int
        public init(maxLines: Int = 1024, maxBytes: Int = 256 * 1024) { self.maxLines = maxLines; self.maxBytes = maxBytes }
    }

    public let limits: Limits
    private var lines: [SharedLine] = []
    private var head = 0
    /// Bytes of `lines[head]` already written.
    private var headOffset = 0
    public private(set) var queuedBytes = 0

    public init(limits: Limits = Limits()) { self.limits = limits }

    public var isEmpty: Bool { head == lines.count }
    public var count: Int { lines.count - head }

    /// Appends a line unless that would break a limit; returns whether it was queued.
    public mutating func enqueue(_ line: SharedLine) -> Bool {
        guard count + 1 <= limits.maxLines, queuedBytes + line.bytes.count <= limits.maxBytes else { return false }
        lines.append(line)
        queuedBytes += line.bytes.count
        return true
    }

    /// Drops every line not yet begun and queues `line` (a final error) after the
    /// one being written, whatever the limits.
    public mutating func replaceWithFinal(_ line: SharedLine) {
        if head < lines.count && headOffset > 0 {
            let current = lines[head]
            lines = [current]
            queuedBytes = current.bytes.count - headOffset
        } else {
            lines = []
            headOffset = 0
            queuedBytes = 0
        }
        head = 0
        lines.append(line)
        queuedBytes += line.bytes.count
    }

    /// The unwritten bytes of the first line, for one write.
    public func withPendingBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
        guard head < lines.count else { return nil }
        return try lines[head].bytes.withUnsafeBytes { all in
            try body(UnsafeRawBufferPointer(rebasing: all[headOffset...]))
        }
    }

    /// `n` bytes of the first line were written.
    public mutating func consume(_ n: Int) {
        guard head < lines.count else { return }
        headOffset += n
        queuedBytes -= n
        if headOffset >= lines[head].bytes.count {
            head += 1
            headOffset = 0
            if head == lines.count {
                lines.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64 && head * 2 >= lines.count {
                lines.removeFirst(head)
                head = 0
            }
        }
    }
}
