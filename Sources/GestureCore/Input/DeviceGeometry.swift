/// Screen rotation applied after calibration, clockwise in degrees.
public enum Rotation: Int, Sendable, CaseIterable {
    case none = 0, cw90 = 90, cw180 = 180, cw270 = 270
}

/// Maps raw device coordinates to millimetres and to the normalised 0…1 space.
///
/// Order, as libinput does it: raw → normalised over the axis range → the udev
/// `LIBINPUT_CALIBRATION_MATRIX` (a 2×3 affine matrix in normalised space) →
/// the configured rotation → millimetres over the active area's size.
public struct DeviceGeometry: Hashable, Sendable {
    public var x: AxisInfo
    public var y: AxisInfo
    /// Width and height of the active area before rotation, in mm.
    public var sizeMM: Point
    /// Row-major a b c / d e f; identity when the device has none.
    public var calibration: [Double]
    public var rotation: Rotation
    /// Where the size came from: the device's resolution, config, or the fallback.
    public var sizeSource: SizeSource

    public enum SizeSource: String, Sendable { case resolution, config, fallback }

    public static let identity: [Double] = [1, 0, 0, 0, 1, 0]
    /// Longer side assumed when neither the device nor config gives a size: a
    /// 7-inch panel's (about 150 mm), with the axes' ratio for the other side.
    /// Unit counts say nothing about size (800 on one panel, 32760 on another),
    /// so a size is the better guess; distances are then within a factor of two
    /// or three for phones to laptops. The user is warned to set `size_mm`.
    public static let fallbackLongSideMM: Double = 150

    public init(
        x: AxisInfo, y: AxisInfo, sizeMM: Point? = nil,
        calibration: [Double] = DeviceGeometry.identity, rotation: Rotation = .none
    ) {
        self.x = x
        self.y = y
        self.calibration =
            calibration.count == 6 && calibration.allSatisfy(\.isFinite) ? calibration : DeviceGeometry.identity
        self.rotation = rotation
        if let sizeMM {
            self.sizeMM = sizeMM
            sizeSource = .config
        } else if x.resolution > 0 && y.resolution > 0 {
            self.sizeMM = Point(x: Double(x.span) / Double(x.resolution), y: Double(y.span) / Double(y.resolution))
            sizeSource = .resolution
        } else {
            let long = Double(max(x.span, y.span, 1))
            self.sizeMM = Point(
                x: Double(x.span) / long * DeviceGeometry.fallbackLongSideMM,
                y: Double(y.span) / long * DeviceGeometry.fallbackLongSideMM)
            sizeSource = .fallback
        }
    }

    /// Size of the active area after rotation, in mm.
    public var orientedSizeMM: Point {
        switch rotation {
        case .none, .cw180: return sizeMM
        case .cw90, .cw270: return Point(x: sizeMM.y, y: sizeMM.x)
        }
    }

    /// Normalised position (0…1 over the active area, after calibration and rotation).
    /// Always within 0…1: a raw value outside the axis's declared range counts as
    /// the nearest end of it, and a calibration that maps a point off the area
    /// puts it on the nearest edge.
    @inline(__always)
    public func normalised(rawX: Int32, rawY: Int32) -> Point {
        let nx = x.fraction(rawX)
        let ny = y.fraction(rawY)
        let c = calibration
        let cx = unit(c[0] * nx + c[1] * ny + c[2])
        let cy = unit(c[3] * nx + c[4] * ny + c[5])
        switch rotation {
        case .none: return Point(x: cx, y: cy)
        case .cw90: return Point(x: 1 - cy, y: cx)
        case .cw180: return Point(x: 1 - cx, y: 1 - cy)
        case .cw270: return Point(x: cy, y: 1 - cx)
        }
    }

    @inline(__always)
    private func unit(_ v: Double) -> Double {
        v >= 0 ? (v <= 1 ? v : 1) : 0  // NaN (an overflowing calibration) gives 0
    }

    /// Millimetres from the top-left of the (rotated) active area.
    @inline(__always)
    public func millimetres(normalised n: Point) -> Point {
        let s = orientedSizeMM
        return Point(x: n.x * s.x, y: n.y * s.y)
    }
}
