/// The one place where reasons become words.
extension Reason: CustomStringConvertible {
    /// How numbers are written: as they are, or each as "N" (to group reasons
    /// that differ only in their numbers, as `gesturectl evaluate` does).
    public enum Numbers: Sendable { case shown, masked }

    public var description: String { text(numbers: .shown) }

    public func text(numbers: Numbers) -> String {
        let n = NumberText(style: numbers)
        switch self {
        case .touchCancelled:
            return "touch cancelled"
        case .palm:
            return "palm"
        case .penInProximity:
            return "pen in proximity"
        case .fingers(let count, let allowed, let kind):
            return Self.fingersText(count, allowed: allowed, kind: kind, n)
        case .tap(let f):
            switch f {
            case .moved(let mm, let max): return "moved \(n.mm(mm, vs: max)) > \(n.mm(max, vs: mm))"
            case .heldTooLong(let max): return "held longer than \(n.ms(max))"
            case .held(let held, let max): return "held \(n.ms(held)) > \(n.ms(max))"
            case .noNextTap(let count, let of, let window):
                return "\(n.int(count)) of \(n.int(of)) taps: no next tap within \(n.ms(window))"
            case .nextTapTooFar(let tap, let mm, let slop):
                return
                    "tap \(n.int(tap)) landed \(n.mm(mm, vs: slop)) from tap \(n.int(tap - 1)) > \(n.mm(slop, vs: mm))"
            }
        case .pan(let f):
            switch f {
            case .tooShort(let mm, let threshold):
                return "lifted after \(n.mm(mm, vs: threshold)) < \(n.mm(threshold, vs: mm))"
            case .acrossAxis(let mm, let step, let axis):
                return "moved \(n.mm(mm)) across its \(axis.rawValue) axis before a \(n.mm(step)) step along it"
            }
        case .swipe(let f):
            switch f {
            case .timedOut(let max): return "took longer than \(n.ms(max))"
            case .tooShort(let mm, let min): return "travelled \(n.mm(mm, vs: min)) < \(n.mm(min, vs: mm))"
            case .tooSlow(let speed, let min):
                return "speed \(n.fixed(speed, 0, vs: min)) mm/s < \(n.fixed(min, 0, vs: speed)) mm/s"
            case .tooShortForScreen(let fraction, let min):
                return "travelled \(n.fixed(fraction, 2, vs: min)) of the screen < \(n.fixed(min, 2, vs: fraction))"
            case .stoppedBeforeLift(let speed, let min):
                return
                    "slowed to \(n.fixed(speed, 0, vs: min)) mm/s before lifting < \(n.fixed(min, 0, vs: speed)) mm/s"
            case .notStraight(let straightness, let min):
                return
                    "not straight: straightness \(n.fixed(straightness, 2, vs: min)) < \(n.fixed(min, 2, vs: straightness))"
            case .offAxis(let degrees, let direction, let max):
                return "\(n.fixed(degrees, 0, vs: max))° off \(direction.rawValue) > \(n.fixed(max, 0, vs: degrees))°"
            case .directionNotAllowed(let direction, let allowed):
                return
                    "direction \(direction.rawValue) not in \(allowed.map(\.rawValue).sorted().joined(separator: ", "))"
            }
        case .longPress(let f):
            switch f {
            case .wrongFingers(let live, let needed, let after):
                return "\(n.int(live)) finger\(live == 1 ? "" : "s") down after \(n.ms(after)), needs \(n.int(needed))"
            case .fingerLifted(let after, let min): return "a finger lifted after \(n.ms(after)) < \(n.ms(min))"
            case .moved(let mm, let max, let before):
                return "moved \(n.mm(mm, vs: max)) > \(n.mm(max, vs: mm)) before \(n.ms(before))"
            case .lifted(let after, let min): return "lifted after \(n.ms(after)) < \(n.ms(min))"
            }
        case .twoFinger(let f):
            switch f {
            case .scaleStayed(let scale, let delta):
                return "scale \(n.fixed(scale, 2)) stayed within 1 ± \(n.fixed(delta, 2))"
            case .turnedTooLittle(let degrees, let min):
                return "turned \(n.fixed(degrees, 0, vs: min))° < \(n.fixed(min, 0, vs: degrees))°"
            }
        case .strokeTookTooLong(let took, let max):
            return "took \(n.ms(took)) > \(n.ms(max))"
        case .circle(let f):
            switch f {
            case .tooFewPoints(let count):
                return "\(n.int(count)) point\(count == 1 ? "" : "s") < \(n.int(8)): too few to fit a circle"
            case .collinear(let count): return "no circle fits: the \(n.int(count)) points lie on a line"
            case .radius(let r, let min): return "radius \(n.mm(r, vs: min)) < \(n.mm(min, vs: r))"
            case .fitError(let e, let tolerance, let oval):
                let text = "fit error \(n.fixed(e, 2, vs: tolerance)) > tolerance \(n.fixed(tolerance, 2, vs: e))"
                guard let oval else { return text }
                if oval.aspect < oval.minAspect {
                    return text
                        + "; as an oval, aspect \(n.fixed(oval.aspect, 2, vs: oval.minAspect)) < \(n.fixed(oval.minAspect, 2, vs: oval.aspect))"
                }
                return text
                    + "; as an oval (aspect \(n.fixed(oval.aspect, 2))), \(n.fixed(oval.error, 2, vs: oval.tolerance)) from its ellipse > \(n.fixed(oval.tolerance, 2, vs: oval.error))"
            case .sweptTooLittle(let degrees, let min):
                return "swept \(n.fixed(degrees, 0, vs: min))° < \(n.fixed(min, 0, vs: degrees))°"
            case .sweptTooMuch(let degrees, let max):
                return "swept \(n.fixed(degrees, 0, vs: max))° > \(n.fixed(max, 0, vs: degrees))°"
            case .insideInnerBox(let p, let halfSide):
                return
                    "point (\(n.fixed(p.x, 1)), \(n.fixed(p.y, 1))) inside the inner box (±\(n.mm(halfSide)) around the centre)"
            case .coverage(let c, let min):
                return
                    "stroke covers \(n.fixed(c * 100, 0, vs: min * 100))% of the circle's box < \(n.fixed(min * 100, 0, vs: c * 100))%"
            case .endGap(let gap, let max):
                return "ends \(n.fixed(gap, 2, vs: max)) radii from its start > \(n.fixed(max, 2, vs: gap))"
            case .tail(let offset, let gap, let atStart, let max):
                return
                    "a line \(atStart ? "into" : "out of") a loop: \(atStart ? "starts" : "ends") \(n.fixed(offset, 2)) radii outside the circle, \(n.fixed(gap, 2)) radii from the other end; product \(n.fixed(offset * gap, 2, vs: max)) > \(n.fixed(max, 2, vs: offset * gap))"
            case .corners(let share, let max):
                return
                    "turns at corners: the sharpest fifth does \(n.fixed(share * 100, 0, vs: max * 100))% of the turning > \(n.fixed(max * 100, 0, vs: share * 100))%"
            case .turnsBack(let degrees, let fromEnd, let maxHook):
                return
                    "turns back \(n.fixed(degrees, 0))° \(n.fixed(fromEnd, 2, vs: maxHook)) radii from its end > \(n.fixed(maxHook, 2, vs: fromEnd)) for a hook"
            case .straight(let radii, let max):
                return
                    "runs straight for \(n.fixed(radii, 2, vs: max)) radii > \(n.fixed(max, 2, vs: radii)): a line into or out of a loop"
            case .straightOutsideLoop(let radii, let max):
                return
                    "runs straight for \(n.fixed(radii, 2, vs: max)) radii out past where its loop closes > \(n.fixed(max, 2, vs: radii)): a line into or out of a loop"
            }
        case .checkmark(let f):
            switch f {
            case .tooFewPoints(let count):
                return "\(n.int(count)) point\(count == 1 ? "" : "s") < \(n.int(5)): too few for a checkmark"
            case .tooShort(let mm, let min): return "stroke \(n.mm(mm, vs: min)) < \(n.mm(min, vs: mm))"
            case .noVertex(let sample, let of):
                return "no vertex: the lowest point is sample \(n.int(sample)) of \(n.int(of)), at an end of the stroke"
            case .firstArmAngle(let degrees, let min, let max):
                return
                    "first arm points \(n.fixed(degrees, 0))° below horizontal, outside \(n.fixed(min, 0))…\(n.fixed(max, 0))°"
            case .secondArmAngle(let degrees, let min, let max):
                return
                    "second arm points \(n.fixed(degrees, 0))° above horizontal, outside \(n.fixed(min, 0))…\(n.fixed(max, 0))°"
            case .armRatioLow(let ratio, let min, let beyond):
                let measured = beyond.map {
                    ", measured to where their lines meet, \(n.mm($0)) beyond the rounded corner"
                }
                return
                    "second arm \(n.fixed(ratio, 2, vs: min))× the first < \(n.fixed(min, 2, vs: ratio))×\(measured ?? "")"
            case .armRatioHigh(let ratio, let max):
                return "second arm \(n.fixed(ratio, 2, vs: max))× the first > \(n.fixed(max, 2, vs: ratio))×"
            case .rise(let ratio, let min, let run, let minRun, let endsAbove, let firstGoesRight):
                let rises =
                    "second arm rises \(n.fixed(ratio, 2, vs: min))× the first arm's drop < \(n.fixed(min, 2, vs: ratio))×"
                if run < minRun {
                    return rises
                        + " and runs right \(n.fixed(run, 2, vs: minRun))× its length < \(n.fixed(minRun, 2, vs: run))×"
                }
                // `run` was far enough: the stroke ended no higher than it began, or
                // its first arm went left (both are asked of a flat second arm).
                let but = !endsAbove || firstGoesRight ? "ends no higher than it began" : "its first arm goes left"
                return rises + "; it runs right \(n.fixed(run, 2))× the first arm's length, but \(but)"
            case .bent(let first, let second, let max):
                return "arms bend: path/chord \(n.fixed(first, 2)) and \(n.fixed(second, 2)), max \(n.fixed(max, 2))"
            case .secondArmBows(let bow, let max):
                return
                    "second arm strays \(n.fixed(bow, 2, vs: max))× its length from straight > \(n.fixed(max, 2, vs: bow))×"
            case .secondCorner(let degrees, let at, let max):
                return
                    "turns a second corner: \(n.fixed(degrees, 0, vs: max))° \(n.fixed(at * 100, 0))% along > \(n.fixed(max, 0, vs: degrees))°"
            }
        case .tickle(let f):
            switch f {
            case .strokeTooSlow(let stroke, let took, let max, let reversals):
                let duration = took.map { "took \(n.ms($0)) >" } ?? "took longer than"
                return
                    "too slow: stroke \(n.int(stroke)) \(duration) \(n.ms(max)) (\(n.int(reversals)) reversal\(reversals == 1 ? "" : "s"))"
            case .tooVertical(let stroke, let vertical, let horizontal, let maxRatio):
                return
                    "too vertical: stroke \(n.int(stroke)) moved \(n.mm(vertical)) up/down for \(n.mm(horizontal)) across (max ratio \(n.fixed(maxRatio, 2)))"
            case .drifted(let vertical, let horizontal, let maxRatio):
                return
                    "drifted: the strokes moved \(n.mm(vertical)) up or down for \(n.mm(horizontal)) across (max ratio \(n.fixed(maxRatio, 2)))"
            case .irregular(let shortest, let longest, let maxRatio):
                return
                    "irregular: strokes from turn to turn went \(n.mm(shortest)) to \(n.mm(longest)) across (max ratio \(n.fixed(maxRatio, 2)))"
            case .bowed(let stroke, let bow, let horizontal, let maxRatio):
                return
                    "bowed: stroke \(n.int(stroke)) arched \(n.mm(bow)) up or down for \(n.mm(horizontal)) across (max ratio \(n.fixed(maxRatio, 2)))"
            case .tooFewReversals(let count, let needed):
                return "\(n.int(count)) reversal\(count == 1 ? "" : "s") < \(n.int(needed))"
            }
        case .shape(let f):
            switch f {
            case .tooFewPoints(let count):
                return
                    "\(n.int(count)) point\(count == 1 ? "" : "s") < \(n.int(ShapeMatcher.minPoints)): too few to match"
            case .tooShort(let mm, let min): return "stroke \(n.mm(mm, vs: min)) < \(n.mm(min, vs: mm))"
            case .noExamples: return "no example to match: every example has no length"
            case .noMatch(let distance, let max, _):
                return "closest example \(n.fixed(distance, 2, vs: max)) > \(n.fixed(max, 2, vs: distance))"
            }
        case .edge(let miss):
            switch miss {
            case .tooFar(let edge, let mm, let max, let end):
                let ended = end.map { " and ended \(n.mm($0))" } ?? ""
                return
                    "not at the \(Self.edgeName(edge)): started \(n.mm(mm, vs: max))\(ended) from it > \(n.mm(max, vs: mm))"
            case .outsideRange(let edge): return "at the \(Self.edgeName(edge)), outside its edge_range"
            case .atAnEdge: return "at an edge; this recognizer wants none"
            }
        case .arena(let d):
            switch d {
            case .excluded(let by, let began): return "excluded: \(by) \(began ? "began" : "was recognized") first"
            case .prevented(let by): return "prevented: \(by) began first"
            case .requirementSucceeded(let name, let began):
                return "requires \(name) to fail, but \(name) \(began ? "began" : "was recognized")"
            case .liftedBeforeComplete: return "touches lifted before the gesture was complete"
            case .touchesEndedWhileActive: return "touches ended without the recognizer ending"
            case .touchesGoneWhenReleased: return "its touches were gone when it was released"
            case .timerDidNotAdvance(let at): return "internal: timer at \(n.time(at)) did not advance"
            }
        case .teardown(let t):
            switch t {
            case .deviceRemoved: return "device removed"
            case .configReloaded: return "config reloaded"
            case .daemonStopping: return "daemon stopping"
            case .endOfRecording: return "end of recording"
            case .other(let words): return words
            }
        }
    }

    private static func edgeName(_ edge: Edge) -> String {
        switch edge {
        case .left, .right, .top, .bottom: "\(edge.rawValue) edge"
        case .topLeft, .topRight, .bottomLeft, .bottomRight:
            "\(edge == .topLeft ? "top left" : edge == .topRight ? "top right" : edge == .bottomLeft ? "bottom left" : "bottom right") corner"
        case .none: "no edge"
        }
    }

    private static func fingersText(_ count: Int, allowed: ClosedRange<Int>, kind: GestureKind, _ n: NumberText)
        -> String
    {
        let many = count > allowed.upperBound
        switch kind {
        case .circle, .checkmark, .shape:
            return "\(n.int(count)) fingers; a \(kind.rawValue) is drawn with one"
        case .tickle:
            return "\(n.int(count)) fingers; tickle is one finger"
        case .pinch, .rotate:
            return many
                ? "\(n.int(count)) fingers; \(kind.rawValue) takes two"
                : "\(n.int(count)) finger\(count == 1 ? "" : "s") < \(n.int(allowed.lowerBound)): \(kind.rawValue) takes two"
        case .pan:
            return many
                ? "\(n.int(count)) fingers > max \(n.int(allowed.upperBound))"
                : "\(n.int(count)) finger\(count == 1 ? "" : "s") < min \(n.int(allowed.lowerBound))"
        case .tap, .swipe, .longPress:
            return many
                ? "\(n.int(count)) fingers > \(n.int(allowed.upperBound))"
                : "\(n.int(count)) finger\(count == 1 ? "" : "s") < \(n.int(allowed.lowerBound))"
        }
    }
}

/// Numbers in reasons: shown with their unit, or masked.
private struct NumberText {
    var style: Reason.Numbers
    func fixed(_ v: Double, _ decimals: Int) -> String { style == .masked ? "N" : formatFixed(v, decimals: decimals) }
    func mm(_ v: Double) -> String { "\(fixed(v, 1)) mm" }
    /// `v` compared with `other`: with up to three more decimals than
    /// `decimals` when that many would show the two alike ("0.50 < 0.50").
    func fixed(_ v: Double, _ decimals: Int, vs other: Double) -> String {
        var d = decimals
        while d < decimals + 3, v != other, formatFixed(v, decimals: d) == formatFixed(other, decimals: d) { d += 1 }
        return fixed(v, d)
    }
    func mm(_ v: Double, vs other: Double) -> String { "\(fixed(v, 1, vs: other)) mm" }
    func ms(_ m: Millis) -> String { style == .masked ? "N ms" : m.description }
    func int(_ v: Int) -> String { style == .masked ? "N" : String(v) }
    func time(_ t: EventTime) -> String { style == .masked ? "N" : t.description }
}
