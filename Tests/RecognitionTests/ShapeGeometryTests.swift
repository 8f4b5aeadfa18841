import Foundation
import GestureConfig
import GestureCore
import GestureTools
import Testing

/// The measurements the circle and checkmark decisions rest on, on made-up shapes.
@Suite("shape geometry")
struct ShapeGeometryTests {
    func circle(_ n: Int, radius: Double = 20) -> [Point] {
        (0..<n).map { i in
            let a = 2 * Double.pi * Double(i) / Double(n)
            return Point(x: 50 + radius * cos(a), y: 50 + radius * sin(a))
        }
    }

    func square(side: Double = 40, perSide: Int = 16) -> [Point] {
        let corners = [
            Point(x: 0, y: 0), Point(x: side, y: 0), Point(x: side, y: side), Point(x: 0, y: side), Point(x: 0, y: 0),
        ]
        var out: [Point] = []
        for k in 0..<4 {
            for i in 0..<perSide {
                let f = Double(i) / Double(perSide)
                out.append(corners[k] + (corners[k + 1] - corners[k]) * f)
            }
        }
        return out
    }

    @Test func aCircleTurnsEvenlyAndASquareAtItsCorners() {
        var sorted: [Double] = [], sharpest: [Int] = []
        let c = circle(64)
        let even = turningConcentration(
            PathTurning(c, span: 2), in: 0..<64, fraction: 0.2, sorted: &sorted, sharpest: &sharpest)
        #expect(abs(even - 0.2) < 0.03, "\(even)")
        let s = square()
        let cornered = turningConcentration(
            PathTurning(s, span: 2), in: 0..<s.count, fraction: 0.2, sorted: &sorted, sharpest: &sharpest)
        #expect(cornered > 0.9, "\(cornered)")
        // The sharpest samples sit at the corners.
        for i in sharpest { #expect(s[i].x == 0 || s[i].x == 40 || s[i].y == 0 || s[i].y == 40) }
        #expect(sharpest.contains { s[$0] == Point(x: 40, y: 0) })
    }

    /// A circle drawn round 1.2 times closes at its start: nothing lies outside
    /// its loop. A line into a loop that crosses it lies outside up to where the
    /// loop comes back over it.
    @Test func aLoopClosesAtItsStartAndALineIntoItLiesOutside() {
        let r = 20.0
        let overdrawn = (0..<64).map { i in
            let a = 2.4 * Double.pi * Double(i) / 63
            return Point(x: 50 + r * cos(a), y: 50 + r * sin(a))
        }
        let o = loopClosings(overdrawn, PathTurning(overdrawn, span: 2), in: 0..<64, within: 2, after: Double.pi * r)
        #expect(o.lead == 0 && o.tail == 63, "\(o)")
        // 12 samples of a line up to the circle's rightmost point, then 1.1 turns.
        var lasso = (0..<12).map { i in Point(x: 70 + Double(12 - i) * 2, y: 50 + Double(12 - i) * 2) }
        lasso += (0..<52).map { i in
            let a = 2.2 * Double.pi * Double(i) / 51
            return Point(x: 50 + r * cos(a), y: 50 + r * sin(a))
        }
        let l = loopClosings(lasso, PathTurning(lasso, span: 2), in: 0..<64, within: 2, after: Double.pi * r)
        #expect((l.lead ?? 0) >= 11, "the line lies outside: \(l)")
    }

    @Test func aLoopEndingShortOfItsLineComesNearestTheLine() {
        let r = 20.0
        // 12 samples of a line straight up into the circle's lowest point, then
        // 0.97 of a turn: the loop ends about 4 mm short of where it began,
        // never within 2 mm of the line.
        var lasso = (0..<12).map { i in Point(x: 50, y: 94 - Double(i) * 2) }
        lasso += (0..<52).map { i in
            let a = Double.pi / 2 + 0.97 * 2 * Double.pi * Double(i) / 51
            return Point(x: 50 + r * cos(a), y: 50 + r * sin(a))
        }
        let turning = PathTurning(lasso, span: 2)
        let l = loopClosings(lasso, turning, in: 0..<64, within: 2, after: Double.pi * r)
        #expect(l.lead == nil && l.tail == nil, "\(l)")
        let n = nearestApproach(lasso, turning, of: 63, in: 0..<64, after: Double.pi * r)
        #expect(
            (n?.segment ?? 0) >= 10 && (n?.distance ?? 99) < 4.5, "the line lies before it: \(String(describing: n))")
        // A circle stopping as short comes nearest its own start.
        let short = Array(lasso[12...])
        let s = nearestApproach(short, PathTurning(short, span: 2), of: 51, in: 0..<52, after: Double.pi * r)
        #expect(s?.segment == 0, "\(String(describing: s))")
    }

    @Test func aHookAtEitherEndIsCutAndAPlainStrokeIsLeftAlone() {
        // A straight stroke right, with a 3-sample hook back down-left at its end.
        var p = (0..<40).map { Point(x: Double($0), y: 0) }
        p += [Point(x: 38.5, y: 1), Point(x: 38, y: 2), Point(x: 37.5, y: 3)]
        let kept = hookTrimmedRange(p, maxFraction: 0.1, minTurnDegrees: 75, span: 2)
        #expect(kept.lowerBound == 0)
        #expect(kept.upperBound >= 39 && kept.upperBound <= 41, "\(kept)")
        let plain = (0..<40).map { Point(x: Double($0), y: 0) }
        #expect(hookTrimmedRange(plain, maxFraction: 0.1, minTurnDegrees: 75, span: 2) == 0..<40)
        let round = circle(64)
        #expect(
            hookTrimmedRange(round, maxFraction: 0.1, minTurnDegrees: 75, span: 2) == 0..<64, "a circle has no hook")
    }

    @Test func smoothingKeepsTheEndsAndTakesOutJitter() {
        var p = (0..<20).map { Point(x: Double($0), y: $0 % 2 == 0 ? 0.5 : -0.5) }
        let first = p[0], last = p[19]
        smooth(&p, passes: 2)
        #expect(p[0] == first && p[19] == last)
        #expect(p[1..<19].allSatisfy { abs($0.y) < 0.2 })
    }

    /// A square is a circle to a fit but not to the recognizer; the reason says so.
    @Test func aSquareFailsOnItsCornersWithTheNumbers() {
        let config = ConfigLoader.builtIn()
        let stroke = LabelledStroke(
            label: "rectangle", subject: "-", speed: "-", source: "square",
            points: square().map { Point(x: ($0.x + 10) * 4.5, y: ($0.y + 10) * 4.5) } + [Point(x: 45, y: 52)],
            times: (0...64).map { Double($0) * 15 })
        let events = Evaluator(configuration: config).events(of: StrokeFrames.frames(of: stroke))
        let circle = events.first { $0.name == "circle" }
        #expect(circle?.state == .failed)
        #expect(
            circle?.reason?.hasPrefix("turns at corners: the sharpest fifth does") == true, "\(circle?.reason ?? "")")
    }

    /// Slow scrubbing, each stroke 330 ms, is timed turn to turn, not until the
    /// travel back confirms the turn (which would make it 400 ms and more).
    @Test func aSlowButSteadyTickleIsTimedFromTurnToTurn() {
        var points: [Point] = [], times: [Double] = []
        var t = 0.0
        for k in 0..<6 {
            let from = k % 2 == 0 ? 0.0 : 15.0, to = k % 2 == 0 ? 15.0 : 0.0
            for i in (k == 0 ? 0 : 1)...33 {
                let f = (1 - cos(Double.pi * Double(i) / 33)) / 2
                points.append(Point(x: (20 + from + (to - from) * f) * 4.5, y: 30 * 4.5))
                times.append(t + Double(i) * 10)
            }
            t += 330
        }
        let stroke = LabelledStroke(
            label: "tickle", subject: "-", speed: "slow", source: "slow tickle", points: points, times: times)
        let events = Evaluator(configuration: ConfigLoader.builtIn()).events(of: StrokeFrames.frames(of: stroke))
        let tickle = events.first { $0.name == "tickle" }
        #expect(tickle?.state == .recognized, "\(tickle?.reason ?? "")")
        // The same at 450 ms a stroke is too slow, and says how slow.
        let slow = LabelledStroke(
            label: "wipe", subject: "-", speed: "slow", source: "wipe", points: points,
            times: times.map { $0 * 450 / 330 })
        let failed = Evaluator(configuration: ConfigLoader.builtIn()).events(of: StrokeFrames.frames(of: slow)).first {
            $0.name == "tickle"
        }
        #expect(failed?.state == .failed)
        #expect(failed?.reason?.hasPrefix("too slow: stroke ") == true, "\(failed?.reason ?? "")")
        #expect(failed?.reason?.contains("400 ms") == true)
    }
}
