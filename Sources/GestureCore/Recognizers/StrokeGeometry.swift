/// A circle fitted to points by Taubin's algebraic method (G. Taubin 1991, as
/// formulated by N. Chernov), which is unbiased for short arcs and needs no
/// starting guess. Returns nil for fewer than three points or collinear ones.
public func taubinCircleFit(_ points: [Point]) -> (center: Point, radius: Double)? {
    let n = Double(points.count)
    guard points.count >= 3 else { return nil }
    var mean = Point.zero
    for p in points { mean += p }
    mean = mean / n
    var mxx = 0.0, myy = 0.0, mxy = 0.0, mxz = 0.0, myz = 0.0, mzz = 0.0
    for p in points {
        let x = p.x - mean.x, y = p.y - mean.y
        let z = x * x + y * y
        mxx += x * x; myy += y * y; mxy += x * y
        mxz += x * z; myz += y * z; mzz += z * z
    }
    mxx /= n; myy /= n; mxy /= n; mxz /= n; myz /= n; mzz /= n
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
        if abs(y) > abs(yOld) { x = 0; break }
        let dy = a1 + x * (2 * a2 + x * 3 * a3)
        guard dy != 0 else { break }
        let xOld = x
        x = xOld - y / dy
        if x != 0 && abs((x - xOld) / x) < 1e-12 { break }
        if x < 0 { x = 0; break }
    }
    let det = x * x - x * mz + covXY
    guard det != 0, det.isFinite else { return nil }
    let cx = (mxz * (myy - x) - myz * mxy) / det / 2
    let cy = (myz * (mxx - x) - mxz * mxy) / det / 2
    let r = (cx * cx + cy * cy + mz).squareRoot()
    guard r.isFinite else { return nil }
    return (Point(x: cx + mean.x, y: cy + mean.y), r)
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
public func sweptAngle(_ points: [Point], around center: Point) -> Double {
    guard points.count >= 2 else { return 0 }
    var total = 0.0
    var prev = (points[0] - center).angle
    for i in 1..<points.count {
        let a = (points[i] - center).angle
        total += wrapAngle(a - prev)
        prev = a
    }
    return degrees(total)
}
