/// A circle fitted to points by Taubin's algebraic method (G. Taubin 1991, as
/// formulated by N. Chernov), which is unbiased for short arcs and needs no
/// starting guess. Returns nil for fewer than three points or collinear ones.
public func taubinCircleFit<C: Collection>(_ points: C) -> (center: Point, radius: Double)? where C.Element == Point {
    let n = Double(points.count)
    guard points.count >= 3 else { return nil }
    var mean = Point.zero
    for p in points { mean += p }
    mean = mean / n
    var mxx = 0.0, myy = 0.0, mxy = 0.0, mxz = 0.0, myz = 0.0, mzz = 0.0
    for p in points {
        let x = p.x - mean.x, y = p.y - mean.y
        let z = x * x + y * y
        mxx += x * x
        myy += y * y
        mxy += x * y
        mxz += x * z
        myz += y * z
        mzz += z * z
    }
    mxx /= n
    myy /= n
    mxy /= n
    mxz /= n
    myz /= n
    mzz /= n
    let mz = mxx + myy
    let covXY = mxx * myy - mxy * mxy
    let a3 = 4 * mz
    let a2 = -3 * mz * mz - mzz
    let a1 = mzz * mz + 4 * covXY * mz - mxz * mxz - myz * myz - mz * mz * mz
    let a0 = mxz * mxz * myy + myz * myz * mxx - mzz * covXY - 2 * mxz * myz * mxy + mz * mz * covXY
    var x = 0.0
    var y = 1e20
    for _ in 0..<30 {
        let yOld = y
        y = a0 + x * (a1 + x * (a2 + x * a3))
        if abs(y) > abs(yOld) {
            x = 0
            break
        }
        let dy = a1 + x * (2 * a2 + x * 3 * a3)
        guard dy != 0 else { break }
        let xOld = x
        x = xOld - y / dy
        if x != 0 && abs((x - xOld) / x) < 1e-12 { break }
        if x < 0 {
            x = 0
            break
        }
    }
    let det = x * x - x * mz + covXY
    guard det != 0, det.isFinite else { return nil }
    let cx = (mxz * (myy - x) - myz * mxy) / det / 2
    let cy = (myz * (mxx - x) - mxz * mxy) / det / 2
    let r = (cx * cx + cy * cy + mz).squareRoot()
    guard r.isFinite else { return nil }
    return (Point(x: cx + mean.x, y: cy + mean.y), r)
}

/// The RMS distance of `points` from the circle of `center` and `radius`,
/// relative to the radius: how well a fitted circle fits them.
public func radialFitError<C: Collection>(_ points: C, center: Point, radius: Double) -> Double
where C.Element == Point {
    var sq = 0.0
    for p in points {
        let d = (p.distance(to: center) - radius) / radius
        sq += d * d
    }
    return (sq / Double(points.count)).squareRoot()
}

/// How `roundOval` made an oval round: the aspect it took out (minor / major,
/// 0…1; 1 for a circle) and the map that took each point of the stroke to its
/// rounded place, `p` ↦ (`xx`·x + `xy`·y, `yx`·x + `yy`·y) + `offset`.
public struct OvalRounding: Sendable {
    public var aspect = 1.0
    var xx = 1.0, xy = 0.0, yx = 0.0, yy = 1.0
    var offset = Point.zero

    /// Where a point of the rounded stroke came from: the map undone, so that
    /// a circle fitted to the rounded stroke is drawn as its ellipse.
    public func unrounded(_ q: Point) -> Point {
        let det = xx * yy - xy * yx
        guard det != 0 else { return q }
        let d = q - offset
        return Point(x: (yy * d.x - xy * d.y) / det, y: (xx * d.y - yx * d.x) / det)
    }
}

/// An oval's points made round, into `out` (whose storage is reused): twice,
/// the points are turned onto their principal axes (their second moments) and
/// stretched along the minor one and squeezed along the major one by the same
/// factor, keeping the area. Once is not enough: evenly spaced points crowd an
/// ellipse's flatter sides and make it seem rounder than it is. Returns the
/// aspect taken out and the map. A circle fitted to the result measures how far
/// the points are from an ellipse.
public func roundOval(_ points: ArraySlice<Point>, into out: inout [Point]) -> OvalRounding {
    out.removeAll(keepingCapacity: true)
    out.append(contentsOf: points)
    var rounding = OvalRounding()
    guard out.count >= 3 else { return rounding }
    for _ in 0..<2 {
        var mean = Point.zero
        for p in out { mean += p }
        mean = mean / Double(out.count)
        var sxx = 0.0, syy = 0.0, sxy = 0.0
        for p in out {
            let d = p - mean
            sxx += d.x * d.x
            syy += d.y * d.y
            sxy += d.x * d.y
        }
        let half = (sxx + syy) / 2
        let spread = max(half * half - (sxx * syy - sxy * sxy), 0).squareRoot()
        let major = half + spread, minor = max(half - spread, 0)
        guard major > 0, minor > 0 else {
            rounding.aspect = 0
            return rounding
        }
        let q = (minor / major).squareRoot()
        rounding.aspect *= q
        let angle = 0.5 * atan2(2 * sxy, sxx - syy)
        let c = cos(angle), s = sin(angle)
        let squeeze = q.squareRoot(), stretch = 1 / squeeze
        for i in out.indices {
            let d = out[i] - mean
            let u = (d.x * c + d.y * s) * squeeze
            let v = (d.y * c - d.x * s) * stretch
            out[i] = Point(x: mean.x + u * c - v * s, y: mean.y + u * s + v * c)
        }
        // The same pass as a map: p ↦ L·(p − mean) + mean, after the passes before.
        let lxx = squeeze * c * c + stretch * s * s, lyy = squeeze * s * s + stretch * c * c
        let lxy = (squeeze - stretch) * c * s
        let r = rounding
        rounding.xx = lxx * r.xx + lxy * r.yx
        rounding.xy = lxx * r.xy + lxy * r.yy
        rounding.yx = lxy * r.xx + lyy * r.yx
        rounding.yy = lxy * r.xy + lyy * r.yy
        let t = r.offset - mean
        rounding.offset = Point(x: lxx * t.x + lxy * t.y + mean.x, y: lxy * t.x + lyy * t.y + mean.y)
    }
    return rounding
}

/// Resamples a path to `count` points equally spaced along its length, into `out`
/// (whose storage is reused). Evenly spaced points keep slow parts of a stroke,
/// where a finger dwells, from outweighing fast ones.
public func resample(_ points: [Point], count: Int, into out: inout [Point]) {
    out.removeAll(keepingCapacity: true)
    guard let first = points.first, count >= 2 else { return }
    var total = 0.0
    for i in 1..<max(points.count, 1) { total += points[i].distance(to: points[i - 1]) }
    out.append(first)
    guard total > 0 else {
        for _ in 1..<count { out.append(first) }
        return
    }
    let step = total / Double(count - 1)
    var carried = 0.0
    var prev = first
    var i = 1
    while i < points.count && out.count < count - 1 {
        let p = points[i]
        let d = prev.distance(to: p)
        if carried + d >= step && d > 0 {
            let f = (step - carried) / d
            let q = prev + (p - prev) * f
            out.append(q)
            prev = q
            carried = 0
        } else {
            carried += d
            prev = p
            i += 1
        }
    }
    while out.count < count { out.append(points[points.count - 1]) }
}

/// Signed angle swept around `center` along the path, in degrees; positive is
/// clockwise on screen (y grows downward).
public func sweptAngle<C: Collection>(_ points: C, around center: Point) -> Double where C.Element == Point {
    guard let first = points.first else { return 0 }
    var total = 0.0
    var prev = (first - center).angle
    for p in points.dropFirst() {
        let a = (p - center).angle
        total += wrapAngle(a - prev)
        prev = a
    }
    return degrees(total)
}

/// Smooths a path in place with a [1 2 1]/4 kernel, `passes` times, keeping its
/// ends. Takes the sensor's jitter out of turning angles without moving the shape.
public func smooth(_ p: inout [Point], passes: Int = 1) {
    guard p.count >= 3 else { return }
    for _ in 0..<passes {
        var prev = p[0]
        for i in 1..<(p.count - 1) {
            let cur = p[i]
            p[i] = (prev + cur * 2 + p[i + 1]) / 4
            prev = cur
        }
    }
}

/// How much the path turns at sample `i`, in degrees (0 = straight on, 180 = back
/// the way it came): the angle between the chords `i-span → i` and `i → i+span`.
/// Chords, not single steps, so that one jittery sample does not make a corner.
public func turningDegrees(_ p: [Point], at i: Int, span: Int) -> Double {
    abs(signedTurningDegrees(p, at: i, span: span))
}

/// `turningDegrees` with its sign: positive one way round, negative the other.
public func signedTurningDegrees(_ p: [Point], at i: Int, span: Int) -> Double {
    guard i - span >= 0, i + span < p.count else { return 0 }
    let a = p[i] - p[i - span], b = p[i + span] - p[i]
    guard a.length > 0, b.length > 0 else { return 0 }
    return degrees(atan2(a.x * b.y - a.y * b.x, a.x * b.x + a.y * b.y))
}

/// The part of a resampled path left after cutting a hook off either end: a short
/// end piece (at most `maxFraction` of the samples) that meets the rest at a turn
/// of at least `minTurnDegrees` — the finger settling as it lands or flicking as it
/// lifts. Returns the range of samples to keep.
public func hookTrimmedRange(_ p: [Point], maxFraction: Double, minTurnDegrees: Double, span: Int) -> Range<Int> {
    hookTrimmedRange(count: p.count, maxFraction: maxFraction, minTurnDegrees: minTurnDegrees, span: span) {
        turningDegrees(p, at: $0, span: span)
    }
}

/// `hookTrimmedRange` on a path whose turning is measured already.
public func hookTrimmedRange(_ t: PathTurning, maxFraction: Double, minTurnDegrees: Double) -> Range<Int> {
    hookTrimmedRange(count: t.degrees.count, maxFraction: maxFraction, minTurnDegrees: minTurnDegrees, span: t.span) {
        t.degrees[$0]
    }
}

private func hookTrimmedRange(
    count n: Int, maxFraction: Double, minTurnDegrees: Double, span: Int, turning: (Int) -> Double
) -> Range<Int> {
    guard n >= 4 * span + 4 else { return 0..<n }
    let zone = Int(Double(n) * maxFraction)
    var start = 0, end = n
    var best = minTurnDegrees
    var i = span
    while i <= zone {
        let t = turning(i)
        if t >= best {
            best = t
            start = i
        }
        i += 1
    }
    best = minTurnDegrees
    i = n - 1 - span
    while i >= n - 1 - zone {
        let t = turning(i)
        if t >= best {
            best = t
            end = i + 1
        }
        i -= 1
    }
    return start..<end
}

/// A resampled path's turning at each sample (`turningDegrees`, 0 within `span`
/// samples of an end) and its length from the first sample to each, measured
/// once for the rules that read them. Its storage is reused from one path to the
/// next.
public struct PathTurning {
    /// Chord span, in samples, the turning is measured over.
    public let span: Int
    /// Degrees the path turns at each sample.
    public private(set) var degrees: [Double] = []
    /// The same with their sign (positive one way round, negative the other).
    public private(set) var signedDegrees: [Double] = []
    /// The path's length from its first sample to each sample.
    public private(set) var along: [Double] = []

    public init(span: Int, capacity: Int = 0) {
        self.span = span
        degrees.reserveCapacity(capacity)
        signedDegrees.reserveCapacity(capacity)
        along.reserveCapacity(capacity)
    }

    /// Measured on `p` at once.
    public init(_ p: [Point], span: Int) {
        self.init(span: span, capacity: p.count)
        measure(p)
    }

    public mutating func measure(_ p: [Point]) {
        degrees.removeAll(keepingCapacity: true)
        signedDegrees.removeAll(keepingCapacity: true)
        along.removeAll(keepingCapacity: true)
        var length = 0.0
        for i in p.indices {
            if i > 0 { length += p[i - 1].distance(to: p[i]) }
            along.append(length)
            let t = signedTurningDegrees(p, at: i, span: span)
            signedDegrees.append(t)
            degrees.append(abs(t))
        }
    }

    /// The path's length from sample `i` to sample `j` (`i` ≤ `j`).
    public func length(from i: Int, to j: Int) -> Double { along[j] - along[i] }
}

/// The share of a path's turning done in its sharpest `fraction` of samples
/// inside `range`: near `fraction` for a path that turns evenly (a circle), near 1
/// for one that turns only at a few corners (a rectangle, a triangle). Uses
/// `sorted` as scratch space (its storage is reused); afterwards it holds the
/// turning per sample, sharpest first, and `sharpest` the indices of those counted.
public func turningConcentration(
    _ t: PathTurning, in range: Range<Int>, fraction: Double,
    sorted turns: inout [Double], sharpest: inout [Int]
) -> Double {
    turns.removeAll(keepingCapacity: true)
    sharpest.removeAll(keepingCapacity: true)
    var i = range.lowerBound + t.span
    while i < range.upperBound - t.span {
        turns.append(t.degrees[i])
        sharpest.append(i)
        i += 1
    }
    guard !turns.isEmpty else { return 0 }
    // Insertion sort, sharpest first: a few dozen values, and no allocation.
    var j = 1
    while j < turns.count {
        let t = turns[j], idx = sharpest[j]
        var k = j - 1
        while k >= 0 && turns[k] < t {
            turns[k + 1] = turns[k]
            sharpest[k + 1] = sharpest[k]
            k -= 1
        }
        turns[k + 1] = t
        sharpest[k + 1] = idx
        j += 1
    }
    let m = max(1, Int(Double(turns.count) * fraction))
    var total = 0.0, top = 0.0
    for (n, t) in turns.enumerated() {
        total += t
        if n < m { top += t }
    }
    sharpest.removeLast(sharpest.count - m)
    return total > 0 ? top / total : 0
}

/// Calls `body` with the first and last sample of each straight stretch of a
/// path inside `range`, in order along it: a stretch along which it turns less
/// than `fraction` of its average turn per sample, from `span` samples before
/// the first such sample to `span` after the last (the chords that turning is
/// measured on). A straight lead-in or tail on a loop is such a stretch; a
/// circle, turning evenly, has none, and an ellipse's flatter sides turn at half
/// the average or more. With a `window` of w, a sample's turning is the mean of
/// the signed turning of the 2w + 1 samples around it: a jittery line's wiggles
/// cancel, a curve's turning adds up.
public func straightStretches(
    _ t: PathTurning, in range: Range<Int>, fraction: Double, window: Int = 0,
    _ body: (_ from: Int, _ to: Int) -> Void
) {
    let span = t.span
    let first = range.lowerBound + span, end = range.upperBound - span
    guard first < end else { return }
    /// The turning at `i`: its own, or the mean of the signed turning around it.
    func turn(_ i: Int) -> Double {
        guard window > 0 else { return t.degrees[i] }
        let lo = max(first, i - window), hi = min(end - 1, i + window)
        var sum = 0.0
        for k in lo...hi { sum += t.signedDegrees[k] }
        return abs(sum) / Double(hi - lo + 1)
    }
    // The average of the same measure: jitter, which the window cancels, does
    // not raise it either.
    var total = 0.0
    for i in first..<end { total += turn(i) }
    let below = fraction * total / Double(end - first)
    var runStart = -1
    for i in first...end {
        let straight = i < end && turn(i) < below
        if straight {
            if runStart < 0 { runStart = i }
        } else if runStart >= 0 {
            body(max(range.lowerBound, runStart - span), min(range.upperBound - 1, i - 1 + span))
            runStart = -1
        }
    }
}

/// Where a path's loop closes, seen from each end: the first sample that the
/// path passes again within `within` (after at least `after` more of its length),
/// and the last sample that passes again within `within` a part at least `after`
/// before it. What lies before the first (`lead`) or after the last (`tail`) is
/// outside the loop: a line into it or out of it. Both are nil when the path
/// never comes back so near itself. O(n²) in the samples of `range`.
public func loopClosings(
    _ p: [Point], _ t: PathTurning, in range: Range<Int>, within: Double, after: Double
) -> (lead: Int?, tail: Int?) {
    func near(_ i: Int, _ j: Int) -> Bool { distance(from: p[i], toSegment: p[j], p[j + 1]) <= within }
    var lead: Int? = nil
    var i = range.lowerBound
    search: while i < range.upperBound {
        var j = i
        while j < range.upperBound - 1 {
            if t.length(from: i, to: j) >= after && near(i, j) {
                lead = i
                break search
            }
            j += 1
        }
        i += 1
    }
    var tail: Int? = nil
    i = range.upperBound - 1
    search: while i >= range.lowerBound {
        var j = i - 1
        while j >= range.lowerBound {
            if t.length(from: j + 1, to: i) >= after && near(i, j) {
                tail = i
                break search
            }
            j -= 1
        }
        i -= 1
    }
    return (lead, tail)
}

/// The distance from `q` to the segment `a`–`b`.
public func distance(from q: Point, toSegment a: Point, _ b: Point) -> Double {
    let d = b - a
    let l2 = d.x * d.x + d.y * d.y
    guard l2 > 0 else { return q.distance(to: a) }
    let f = min(max(((q.x - a.x) * d.x + (q.y - a.y) * d.y) / l2, 0), 1)
    return q.distance(to: a + d * f)
}

/// Where an end of a path comes nearest the rest of it: of the segments at least
/// `after` along the path from sample `i` (the path's first or last sample in
/// `range`), the one nearest to it, and how near. A loop that ends on or short
/// of a line without coming back onto it ends nearest that line. Nil when no
/// segment lies so far along.
public func nearestApproach(
    _ p: [Point], _ t: PathTurning, of i: Int, in range: Range<Int>, after: Double
) -> (segment: Int, distance: Double)? {
    var best: (segment: Int, distance: Double)? = nil
    var j = range.lowerBound
    while j < range.upperBound - 1 {
        let far = j >= i ? t.length(from: i, to: j) >= after : t.length(from: j + 1, to: i) >= after
        if far {
            let d = distance(from: p[i], toSegment: p[j], p[j + 1])
            if d < (best?.distance ?? .infinity) { best = (j, d) }
        }
        j += 1
    }
    return best
}
