import FoundationEssentials
import GestureConfig
import GestureCore
import GestureDaemon
import GestureProtocol
import Glibc

/// Replays recordings many times and measures the hot path, per recording:
/// - the pipeline: decoder → arena → every event encoded as a socket line (the
///   daemon's own encoder, `ProtocolMessages.writeEvent`, into a reused writer);
/// - the daemon's turn (`DaemonTurnBench`): `DaemonCore` handed one frame per
///   read, publishing through a real `SocketServer` to subscribers on a Unix
///   socket.
/// Allocations are counted per frame when the caller can count them
/// (gesturectl links a malloc counter).
public enum Benchmark {
    /// Heap allocations over the counted replays, by kind of frame.
    public struct Allocations: Sendable {
        public var replays = 0
        public var total: UInt64 = 0
        public var inMovingFrames: UInt64 = 0
        public var inSteadyFrames: UInt64 = 0
        /// Steady frames that allocated, and the first of them: its time,
        /// allocations, and what it emitted (for the failure message).
        public var allocatingSteadyFrames = 0
        public var firstAllocatingSteadyFrame: (time: EventTime, allocations: UInt64, emitted: String)?

        mutating func add(_ o: Allocations) {
            replays = o.replays
            total += o.total
            inMovingFrames += o.inMovingFrames
            inSteadyFrames += o.inSteadyFrames
            allocatingSteadyFrames += o.allocatingSteadyFrames
            if firstAllocatingSteadyFrame == nil { firstAllocatingSteadyFrame = o.firstAllocatingSteadyFrame }
        }
    }

    /// The figures of one recording (or of all of them together).
    public struct Figures: Sendable {
        public var name: String
        /// Per replay.
        public var events = 0
        public var frames = 0
        /// Frames in which every touch moved or stayed and at least one moved:
        /// no touch began or ended.
        public var movingFrames = 0
        /// Moving frames that decided nothing: they emitted nothing or only
        /// `changed` (a pan or pinch going on). Here no allocation is the budget.
        public var steadyFrames = 0
        public var gestureEvents = 0
        public var bytes = 0
        /// Over all timed replays: decoder and arena only; with serialisation;
        /// the daemon's turns.
        public var secondsPipeline = 0.0
        public var secondsSerialised = 0.0
        public var secondsDaemon = 0.0
        public var iterations = 0
        /// Bytes each subscriber received per replay in the daemon's turns.
        public var bytesPerSubscriber = 0
        /// nil when allocations were not counted (or the daemon's turns not run).
        public var allocations: Allocations?
        public var daemonAllocations: Allocations?

        public init(name: String) { self.name = name }

        private func per(_ seconds: Double, _ n: Int) -> Double { seconds * 1e9 / Double(max(n * iterations, 1)) }
        public var nanosecondsPerEvent: Double { per(secondsSerialised, events) }
        public var nanosecondsPerEventPipelineOnly: Double { per(secondsPipeline, events) }
        public var nanosecondsPerFrame: Double { per(secondsSerialised, frames) }
        public var nanosecondsPerEventDaemon: Double { per(secondsDaemon, events) }

        public func perFrame(_ a: Allocations?) -> (all: Double, moving: Double, steady: Double)? {
            guard let a else { return nil }
            func ratio(_ n: UInt64, _ d: Int) -> Double { Double(n) / Double(max(d * a.replays, 1)) }
            return (
                ratio(a.total, frames), ratio(a.inMovingFrames, movingFrames), ratio(a.inSteadyFrames, steadyFrames)
            )
        }

        mutating func add(_ o: Figures) {
            events += o.events
            frames += o.frames
            movingFrames += o.movingFrames
            steadyFrames += o.steadyFrames
            gestureEvents += o.gestureEvents
            bytes += o.bytes
            bytesPerSubscriber += o.bytesPerSubscriber
            secondsPipeline += o.secondsPipeline
            secondsSerialised += o.secondsSerialised
            secondsDaemon += o.secondsDaemon
            iterations = o.iterations
            if let a = o.allocations {
                allocations = allocations ?? Allocations()
                allocations!.add(a)
            }
            if let a = o.daemonAllocations {
                daemonAllocations = daemonAllocations ?? Allocations()
                daemonAllocations!.add(a)
            }
        }
    }

    public struct Result: Sendable {
        public var recordings: [Figures]
        public var total: Figures
        public var subscribers: Int
    }

    public struct Failure: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// - Parameters:
    ///   - iterations: timed replays of each recording, per pass (the pipeline
    ///     without serialisation, with it, and the daemon's turns).
    ///   - allocationIterations: replays counted for allocations, after one
    ///     replay that warms every buffer up (the steady state).
    ///   - subscribers: clients of the daemon's turns; nil: the daemon's turns are not run.
    ///   - allocations: the calling thread's allocation count so far; nil: not counted.
    public static func run(
        recordings: [String], configuration: Configuration, iterations: Int,
        allocationIterations: Int = 3, subscribers: Int? = 10,
        allocations: (() -> UInt64)? = nil
    ) throws -> Result {
        var total = Figures(name: "all")
        var results: [Figures] = []
        var writer = JSONWriter(capacity: 1024)
        let rounds = max(1, min(5, iterations))
        let perRound = max(1, iterations / rounds)
        let counting = allocationIterations > 0 ? allocations : nil
        for path in recordings {
            let (device, events) = try Replay.load(recording: path, descPath: nil)
            guard let g = configuration.geometry(for: device) else {
                throw Failure(message: "\(path): the device has no position axes")
            }
            var player = Player(
                events: events,
                pipeline: DevicePipeline(description: device, geometry: g, configuration: configuration))
            var f = Figures(name: path.split(separator: "/").last.map(String.init) ?? path)
            f.events = events.count
            f.iterations = perRound * rounds
            // One untimed replay first, which gives the counts per replay and
            // each frame's kind: buffers grow, caches warm.
            var frameKinds: [FrameKind]? = []
            player.play(writer: &writer, serialise: true, kinds: &frameKinds, into: &f)
            // Timed in rounds, the passes interleaved; the fastest round of
            // each counts, so other work on the machine shows up less.
            var scratch = Figures(name: f.name)
            var none: [FrameKind]?
            var best = (pipeline: Double.infinity, serialised: Double.infinity)
            for _ in 0..<rounds {
                var start = monotonicNanoseconds()
                for _ in 0..<perRound { player.play(writer: &writer, serialise: false, kinds: &none, into: &scratch) }
                best.pipeline = min(best.pipeline, Double(monotonicNanoseconds() - start) / 1e9)
                start = monotonicNanoseconds()
                for _ in 0..<perRound { player.play(writer: &writer, serialise: true, kinds: &none, into: &scratch) }
                best.serialised = min(best.serialised, Double(monotonicNanoseconds() - start) / 1e9)
            }
            f.secondsPipeline = best.pipeline * Double(rounds)
            f.secondsSerialised = best.serialised * Double(rounds)
            if let count = counting {
                let counter = AllocationCounter(count: count, kinds: frameKinds ?? [], replays: allocationIterations)
                for _ in 0..<allocationIterations {
                    player.play(writer: &writer, serialise: true, kinds: &none, counting: counter, into: &scratch)
                }
                f.allocations = counter.allocations
            }
            if let subscribers {
                let bench = try DaemonTurnBench(device: device, configuration: configuration, subscribers: subscribers)
                var turns = Turns(events: events, bench: bench)
                _ = turns.play(timed: false, counting: nil)
                f.bytesPerSubscriber = bench.bytesPerSubscriber
                var best = Double.infinity
                for _ in 0..<rounds {
                    var seconds = 0.0
                    for _ in 0..<perRound { seconds += turns.play(timed: true, counting: nil) }
                    best = min(best, seconds)
                }
                f.secondsDaemon = best * Double(rounds)
                if let count = counting {
                    let counter = AllocationCounter(
                        count: count, kinds: frameKinds ?? [], replays: allocationIterations)
                    for _ in 0..<allocationIterations { _ = turns.play(timed: false, counting: counter) }
                    f.daemonAllocations = counter.allocations
                }
            }
            results.append(f)
            total.add(f)
        }
        return Result(recordings: results, total: total, subscribers: subscribers ?? 0)
    }

    /// What a frame was, from the first replay (every replay is the same).
    struct FrameKind {
        var moving: Bool
        var steady: Bool
        /// What it emitted, by name and state (for saying which frame allocated).
        var emitted: String
    }

    /// Counts allocations frame by frame, knowing each frame's kind.
    final class AllocationCounter {
        let count: () -> UInt64
        let kinds: [FrameKind]
        var allocations = Allocations()
        private var mark: UInt64 = 0

        init(count: @escaping () -> UInt64, kinds: [FrameKind], replays: Int) {
            self.count = count
            self.kinds = kinds
            allocations.replays = replays
        }

        /// Starts counting what follows.
        func start() { mark = count() }

        /// Frame `index` (at `time`) ended: what was allocated since the last
        /// mark counts for it.
        func frame(_ index: Int, at time: EventTime) {
            let spent = take()
            guard index < kinds.count else { return }
            let kind = kinds[index]
            if kind.moving { allocations.inMovingFrames += spent }
            guard kind.steady else { return }
            allocations.inSteadyFrames += spent
            if spent > 0 {
                allocations.allocatingSteadyFrames += 1
                if allocations.firstAllocatingSteadyFrame == nil {
                    allocations.firstAllocatingSteadyFrame = (time, spent, kind.emitted)
                }
            }
        }

        /// What was allocated since the last mark (also counted in the total).
        @discardableResult
        func take() -> UInt64 {
            let now = count()
            let spent = now - mark
            allocations.total += spent
            mark = now
            return spent
        }

        /// Skips what was allocated since the last mark (work not being measured).
        func skip() { mark = count() }
    }

    /// Adds `offset` to a recorded time, saturating (recordings are outside
    /// data); returns the offset that starts the next replay 20 s after `last`.
    static func nextOffset(after last: EventTime, first: EventTime?) -> Int64 {
        let next = last.adding(microseconds: 20_000_000).microseconds
        let (d, overflow) = next.subtractingReportingOverflow(first?.microseconds ?? 0)
        return overflow ? (next < 0 ? .min : .max) : d
    }

    /// One recording on its own pipeline, replayed again and again on a clock
    /// that moves on: each replay starts 20 s after the last one ended, so it
    /// is a fresh run of the same touches.
    struct Player {
        let events: [RawEvent]
        let pipeline: DevicePipeline
        var offset: Int64 = 0

        init(events: [RawEvent], pipeline: DevicePipeline) {
            self.events = events
            self.pipeline = pipeline
        }

        /// One replay. With `kinds`, each frame's kind is appended to it and
        /// counted into `f`; with `counting`, allocations are counted per frame.
        mutating func play(
            writer: inout JSONWriter, serialise: Bool, kinds: inout [FrameKind]?,
            counting: AllocationCounter? = nil, into f: inout Figures
        ) {
            var lastTime = EventTime.zero
            var frame = 0
            counting?.start()
            for var e in events {
                e.time = e.time.adding(microseconds: offset)
                lastTime = e.time
                pipeline.feed(e)
                guard e.type == EV.SYN && e.code == SYN.REPORT else { continue }
                // The frame is complete: what it emitted leaves as socket lines.
                let frameTime = pipeline.decoder.lastFrame.time
                if kinds != nil { kinds!.append(kindOfLastFrame(into: &f)) }
                drain(frameTime: frameTime, writer: &writer, serialise: serialise, into: &f)
                counting?.frame(frame, at: e.time)
                frame += 1
            }
            // Run the timers out, then move the clock on.
            pipeline.advance(to: lastTime.adding(microseconds: 10_000_000))
            drain(frameTime: pipeline.decoder.lastFrame.time, writer: &writer, serialise: serialise, into: &f)
            counting?.take()
            offset = Benchmark.nextOffset(after: lastTime, first: events.first?.time)
        }

        private func kindOfLastFrame(into f: inout Figures) -> FrameKind {
            let frame = pipeline.decoder.lastFrame
            var moved = false, moving = !frame.touches.isEmpty
            for t in frame.touches {
                switch t.phase {
                case .moved: moved = true
                case .stationary: break
                case .began, .ended, .cancelled: moving = false
                }
            }
            moving = moving && moved
            let steady = moving && pipeline.events.allSatisfy { $0.state == .changed }
            f.frames += 1
            if moving { f.movingFrames += 1 }
            if steady { f.steadyFrames += 1 }
            let emitted =
                pipeline.events.isEmpty
                ? "nothing" : pipeline.events.map { "\($0.name) \($0.state)" }.joined(separator: ", ")
            return FrameKind(moving: moving, steady: steady, emitted: emitted)
        }

        private func drain(frameTime: EventTime, writer: inout JSONWriter, serialise: Bool, into f: inout Figures) {
            f.gestureEvents += pipeline.events.count
            guard serialise else {
                pipeline.drain { _ in }
                return
            }
            pipeline.drain { e in
                ProtocolMessages.writeEvent(e, frameTime: frameTime, emitted: frameTime, to: &writer)
                f.bytes += writer.count + 1
            }
        }
    }

    /// The same recording through the daemon's turns, one frame per turn.
    struct Turns {
        let events: [RawEvent]
        let bench: DaemonTurnBench
        var offset: Int64 = 0

        /// One replay; returns the seconds spent in the daemon's turns when `timed`.
        mutating func play(timed: Bool, counting: AllocationCounter?) -> Double {
            var lastTime = EventTime.zero
            var frame = 0
            var seconds = 0.0
            counting?.start()
            for var e in events {
                e.time = e.time.adding(microseconds: offset)
                lastTime = e.time
                bench.queue(e)
                guard e.type == EV.SYN && e.code == SYN.REPORT else { continue }
                if timed {
                    let t0 = monotonicNanoseconds()
                    bench.turn(at: e.time)
                    seconds += Double(monotonicNanoseconds() - t0) / 1e9
                } else {
                    bench.turn(at: e.time)
                }
                counting?.frame(frame, at: e.time)
                // The subscribers read: their work, not the daemon's.
                bench.readSubscribers()
                counting?.skip()
                frame += 1
            }
            bench.advance(to: lastTime.adding(microseconds: 10_000_000))
            counting?.take()
            bench.readSubscribers()
            offset = Benchmark.nextOffset(after: lastTime, first: events.first?.time)
            return seconds
        }
    }
}

/// CLOCK_MONOTONIC in nanoseconds.
func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}
