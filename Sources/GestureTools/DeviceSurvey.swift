import GestureCore
import GestureDaemon
import LinuxInput
import LinuxSystem

/// What `gesturectl devices` reports about one input event node: the same
/// decisions the daemon makes, without running it.
public struct DeviceReport: Sendable {
    public var devnode: String?
    public var syspath: String
    public var name: String
    public var vendorProduct: String
    /// nil: the daemon uses it.
    public var skipped: SkipReason?
    /// Only for nodes that were opened.
    public var sizeMM: Point?
    public var sizeSource: DeviceGeometry.SizeSource?
    public var rotation: Rotation?
    public var slots: Int?
    public var typeA: Bool = false
    public var calibration: [Double] = DeviceGeometry.identity
    /// The raw property when it could not be parsed (and identity is used).
    public var invalidCalibration: String?
    /// udev tags it ID_INPUT_TOUCHSCREEN.
    public var udevTouchscreen: Bool

    public var inUse: Bool { skipped == nil }
}

public enum DeviceSurvey {
    /// Every `event*` node of the input subsystem, touchscreens first, then by node.
    public static func run(configuration: Configuration) throws(Errno) -> [DeviceReport] {
        let udev = try Udev()
        var reports: [DeviceReport] = []
        for node in try udev.enumerateInput() where node.isEventNode {
            reports.append(report(node, udev: udev, configuration: configuration))
        }
        return reports.sorted { a, b in
            if a.udevTouchscreen != b.udevTouchscreen { return a.udevTouchscreen }
            return (a.devnode ?? a.syspath).numericallyLess(than: b.devnode ?? b.syspath)
        }
    }

    static func report(_ node: InputNode, udev: Udev, configuration: Configuration) -> DeviceReport {
        let (matrix, invalid) = CalibrationMatrix.of(node)
        var r = DeviceReport(devnode: node.devnode, syspath: node.syspath, name: node.name,
                             vendorProduct: node.matchDescription.vendorProduct, skipped: nil,
                             calibration: matrix, invalidCalibration: invalid,
                             udevTouchscreen: node.flag("ID_INPUT_TOUCHSCREEN"))
        if let skip = DeviceSelection.check(node, configuration: configuration) {
            r.skipped = skip
            return r
        }
        let evdev: EvdevDevice
        do { evdev = try EvdevDevice(node: node, udev: udev) } catch {
            r.skipped = .cannotOpen(error.errno == .permissionDenied
                ? "\(error) (run as root or in the group owning the node)" : error.description)
            return r
        }
        defer { evdev.close() }
        let d = evdev.description
        r.name = d.name
        r.typeA = evdev.isTypeA
        r.slots = d.slotCount
        if let skip = DeviceSelection.check(d) { r.skipped = skip; return r }
        if let g = configuration.geometry(for: d, syspath: node.syspath, calibration: matrix) {
            r.sizeMM = g.sizeMM
            r.sizeSource = g.sizeSource
            r.rotation = g.rotation
        }
        return r
    }
}

extension String {
    /// "event10" after "event9".
    func numericallyLess(than other: String) -> Bool {
        let a = splitTrailingNumber, b = other.splitTrailingNumber
        if a.prefix != b.prefix { return a.prefix < b.prefix }
        return (a.number ?? -1) < (b.number ?? -1)
    }
    private var splitTrailingNumber: (prefix: Substring, number: Int?) {
        let digits = reversed().prefix(while: \.isNumber).count
        return (dropLast(digits), Int(suffix(digits)))
    }
}
