import GestureCore
import Glibc

/// One serialised line (with its newline), shared by every subscriber it goes to:
/// an event is encoded once, whatever the number of subscribers. Its bytes stay
/// at one address for the line's life, so a write can gather many lines at once
/// (`OutboundQueue.gather`). Event lines come from a `LinePool` and are refilled
/// once no queue holds them; a line is never changed while a queue holds it.
public final class SharedLine {
    private var storage: UnsafeMutableRawPointer
    private var capacity: Int
    public private(set) var count: Int

    public init(_ text: String) {
        let n = text.utf8.count + 1
        capacity = n
        storage = UnsafeMutableRawPointer.allocate(byteCount: n, alignment: 1)
        count = 0
        var s = text
        s.withUTF8 {
            UnsafeMutableRawBufferPointer(start: storage, count: n).copyMemory(from: UnsafeRawBufferPointer($0))
        }
        storage.storeBytes(of: 0x0A, toByteOffset: n - 1, as: UInt8.self)
        count = n
    }

    init(capacity: Int) {
        self.capacity = capacity
        storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 1)
        count = 0
    }

    deinit { storage.deallocate() }

    /// The line's bytes, newline included.
    public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage, count: count) }

    /// Makes this line `w`'s object and a newline, growing only when it must.
    fileprivate func fill(from w: JSONWriter) {
        let n = w.count + 1
        if n > capacity {
            storage.deallocate()
            capacity = max(n, capacity * 2)
            storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 1)
        }
        w.withBytes { UnsafeMutableRawBufferPointer(start: storage, count: $0.count).copyMemory(from: $0) }
        storage.storeBytes(of: 0x0A, toByteOffset: n - 1, as: UInt8.self)
        count = n
    }
}

/// Event lines for reuse: a line lent out comes back once no queue holds it
/// any more, so publishing allocates nothing in the steady state.
struct LinePool {
    /// Lines handed out; some may be free again (nobody else holds them).
    private var lent: [SharedLine] = []
    private var free: [SharedLine] = []
    /// Free lines kept beyond this are let go (after a burst for a slow reader).
    var keep = 64

    /// A line holding `w`'s object and a newline.
    mutating func line(from w: JSONWriter) -> SharedLine {
        if free.isEmpty { reclaim() }
        let line = free.popLast() ?? SharedLine(capacity: max(512, w.count + 1))
        line.fill(from: w)
        lent.append(line)
        return line
    }

    /// Takes back the lines that only the pool still holds.
    private mutating func reclaim() {
        var i = 0
        while i < lent.count {
            if isKnownUniquelyReferenced(&lent[i]) {
                lent.swapAt(i, lent.count - 1)
                let line = lent.removeLast()
                if free.count < keep { free.append(line) }
            } else {
                i += 1
            }
        }
    }
}

/// A subscriber's bounded queue of lines waiting for its socket to accept them.
///
/// The policy: a line that would take the queue past `maxLines` or `maxBytes` is
/// refused, and the caller disconnects the subscriber (after `replaceWithFinal`):
/// a client that falls behind loses its connection, never the daemon's memory and
/// never other subscribers' events. A line already partly written is always
/// finished first, so the stream stays line-framed to the end.
public struct OutboundQueue {
    public struct Limits: Sendable, Equatable {
        public var maxLines: Int
        public var maxBytes: Int
        public init(maxLines: Int = 1024, maxBytes: Int = 256 * 1024) {
            self.maxLines = maxLines
            self.maxBytes = maxBytes
        }
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
    /// Put in place of a line once it is written, so the line itself is let
    /// go at once (an event line then goes back to its pool).
    private let written = SharedLine(capacity: 0)

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
            queuedBytes += line.count - lines[i].count
            lines[i] = line
            return true
        }
        guard canTake(bytes: line.count) else { return false }
        if let key { keyed[key] = lines.count }
        lines.append(line)
        keys.append(key)
        queuedBytes += line.count
        return true
    }

    /// Whether a line is waiting under `key`.
    public func hasWaiting(_ key: String) -> Bool {
        keyed[key].map { $0 > head || ($0 == head && headOffset == 0) } ?? false
    }

    /// Drops every line not yet begun and queues `line` (a final error) after the
    /// one being written, whatever the limits.
    public mutating func replaceWithFinal(_ line: SharedLine) {
        if head < lines.count && headOffset > 0 {
            let current = lines[head]
            lines = [current]
            queuedBytes = current.count - headOffset
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
        queuedBytes += line.count
    }

    /// The unwritten bytes of the first line, for one write.
    public func withPendingBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
        guard head < lines.count else { return nil }
        return try body(UnsafeRawBufferPointer(rebasing: lines[head].bytes[headOffset...]))
    }

    /// Fills `vectors` with the unwritten bytes of up to `vectors.count` lines
    /// from the first, for one gathering write; returns how many it filled.
    /// The addresses stay valid while the lines are queued.
    public func gather(into vectors: UnsafeMutableBufferPointer<iovec>) -> Int {
        var n = 0
        var i = head
        while i < lines.count && n < vectors.count {
            let b = lines[i].bytes
            let skip = i == head ? headOffset : 0
            vectors[n] = iovec(
                iov_base: UnsafeMutableRawPointer(mutating: b.baseAddress! + skip), iov_len: b.count - skip)
            n += 1
            i += 1
        }
        return n
    }

    /// `n` bytes from the front were written (they may span lines).
    public mutating func consume(_ n: Int) {
        var left = n
        while left > 0 && head < lines.count {
            let take = min(left, lines[head].count - headOffset)
            headOffset += take
            queuedBytes -= take
            left -= take
            guard headOffset >= lines[head].count else { break }
            if let key = keys[head], keyed[key] == head { keyed[key] = nil }
            lines[head] = written
            head += 1
            headOffset = 0
            linesWritten += 1
        }
        if head == lines.count {
            lines.removeAll(keepingCapacity: true)
            keys.removeAll(keepingCapacity: true)
            if !keyed.isEmpty { keyed.removeAll(keepingCapacity: true) }
            head = 0
        } else if head >= 64 && head * 2 >= lines.count {
            lines.removeFirst(head)
            keys.removeFirst(head)
            for (k, i) in keyed { keyed[k] = i - head }
            head = 0
        }
    }
}
