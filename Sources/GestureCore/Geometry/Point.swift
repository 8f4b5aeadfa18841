/// A position or displacement in millimetres (or, where a name says so, in the
/// 0…1 normalised space of a device's active area). y grows downward, as on screen.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
    public static let zero = Point(x: 0, y: 0)

    public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    public static func * (a: Point, s: Double) -> Point { Point(x: a.x * s, y: a.y * s) }
    public static func / (a: Point, s: Double) -> Point { Point(x: a.x / s, y: a.y / s) }
    public static func += (a: inout Point, b: Point) { a = a + b }

    public var length: Double { (x * x + y * y).squareRoot() }
    public func distance(to p: Point) -> Double { (self - p).length }
    /// Angle from the +x axis in radians; positive turns toward +y (clockwise on screen).
    public var angle: Double { atan2(y, x) }

    public var description: String { "(\(formatFixed(x, decimals: 1)), \(formatFixed(y, decimals: 1)))" }
}

/// An axis-aligned rectangle, in mm unless said otherwise.
public struct Box: Hashable, Sendable {
    public var minX: Double, minY: Double, maxX: Double, maxY: Double

    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }
    public init(center: Point, halfSide: Double) {
        self.init(
            minX: center.x - halfSide, minY: center.y - halfSide,
            maxX: center.x + halfSide, maxY: center.y + halfSide)
    }
    /// The smallest box holding every point; nil for none.
    public init?<S: Sequence>(bounding points: S) where S.Element == Point {
        var it = points.makeIterator()
        guard let first = it.next() else { return nil }
        var b = Box(minX: first.x, minY: first.y, maxX: first.x, maxY: first.y)
        while let p = it.next() { b.include(p) }
        self = b
    }
    public mutating func include(_ p: Point) {
        minX = Swift.min(minX, p.x)
        maxX = Swift.max(maxX, p.x)
        minY = Swift.min(minY, p.y)
        maxY = Swift.max(maxY, p.y)
    }
    public var width: Double { maxX - minX }
    public var height: Double { maxY - minY }
    public var area: Double { width * height }
    public var center: Point { Point(x: (minX + maxX) / 2, y: (minY + maxY) / 2) }
    public func contains(_ p: Point) -> Bool { p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY }
}
