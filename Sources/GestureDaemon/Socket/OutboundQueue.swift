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
    /// Per line, the key under which a later line may replace it before it is begun.
    private var keys: [String?] = []
    /// Where the unbegun line of each key is, as an index into `lines`.
    private var keyed: [String: Int] = [:]
    private var head = 0
    /// Bytes of `lines[head]` already written.
    private var headOffset = 0
    public private(set) var queuedBytes = 0
    /// Lines written in full since the queue was made.
    public private(set) var linesWritten = 0

    public init(limits: Limits = Limits()) { self.limits = limits }

    public var isEmpty: Bool { head == lines.count }
    public var count: Int { lines.count - head }

    /// Whether a line of `bytes` would be queued. An empty queue takes any one
    /// line, so a reply larger than the bound (a `hello` or `status` for a big
    /// config) is still delivered; the bound is on falling behind.
    public func canTake(bytes: Int) -> Bool {
        isEmpty || (count + 1 <= limits.maxLines && queuedBytes + bytes <= limits.maxBytes)
    }

    /// Appends a line unless that would break a limit; returns whether it was queued.
    /// With `replacing`, a line queued earlier under the same key and not yet
    /// begun is replaced in its place (the latest value wins, nothing grows).
    public mutating func enqueue(_ line: SharedLine, replacing key: String? = nil) -> Bool {
        if let key, let i = keyed[key], i > head || (i == head && headOffset == 0) {
            queuedBytes += line.bytes.count - lines[i].bytes.count
            lines[i] = line
            return true
        }
        guard canTake(bytes: line.bytes.count) else { return false }
        if let key { keyed[key] = lines.count }
        lines.append(line)
        keys.append(key)
        queuedBytes += line.bytes.count
        return true
    }

    /// Whether a line is waiting under `key`.
    public func hasWaiting(_ key: String) -> Bool { keyed[key].map { $0 > head || ($0 == head && headOffset == 0) } ?? false }

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
        keyed = [:]
        keys = Array(repeating: nil, count: lines.count)
        lines.append(line)
        keys.append(nil)
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
            if let key = keys[head], keyed[key] == head { keyed[key] = nil }
            head += 1
            headOffset = 0
            linesWritten += 1
            if head == lines.count {
                lines.removeAll(keepingCapacity: true)
                keys.removeAll(keepingCapacity: true)
                keyed.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64 && head * 2 >= lines.count {
                lines.removeFirst(head)
                keys.removeFirst(head)
                for (k, i) in keyed { keyed[k] = i - head }
                head = 0
            }
        }
    }
}
