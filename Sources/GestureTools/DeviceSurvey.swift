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
    /// The table `gesturectl devices` prints. Every cell is escaped as the
    /// daemon's log escapes names: a device names itself (EVIOCGNAME), and a
    /// newline or an escape sequence in that name must not reach the terminal.
    /// The status comes last: a node skipped with its reason is the longest
    /// cell, and padding every row to it would push what follows off the screen.
    public static func table(_ reports: [DeviceReport]) -> String {
        let header = ["NODE", "NAME", "ID", "SIZE (mm)", "SLOTS", "CALIBRATION", "SYSPATH", "STATUS"]
        var rows = [header]
        for r in reports {
            let size =
                r.sizeMM.map {
                    "\(formatFixed($0.x, decimals: 0))×\(formatFixed($0.y, decimals: 0)) (\(r.sizeSource?.rawValue ?? "?"))"
                } ?? "-"
            let slots = r.slots.map { "\($0)\(r.typeA ? " (type A)" : "")" } ?? "-"
            var calibration =
                CalibrationMatrix.isIdentity(r.calibration)
                ? "identity"
                : r.calibration.map { formatFixed($0, decimals: 3) }.joined(separator: " ")
            if let bad = r.invalidCalibration { calibration = "invalid \"\(bad)\"" }
            var status = r.skipped.map { "skipped: \($0)" } ?? "in use"
            if let rot = r.rotation, rot != .none { status += ", rotated \(rot.rawValue)°" }
            rows.append(
                [r.devnode ?? "-", r.name, r.vendorProduct, size, slots, calibration, r.syspath, status]
                    .map { sanitizedForLog($0, maxCharacters: 200) })
        }
        var widths = Array(repeating: 0, count: header.count)
        for row in rows { for (i, c) in row.enumerated() { widths[i] = max(widths[i], c.count) } }
        return rows.map { row in
            row.enumerated().map { i, c in
                i == row.count - 1 ? c : c + String(repeating: " ", count: widths[i] - c.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// Every `event*` node of the input subsystem, touchscreens first, then by node.
    public static func run(configuration: Configuration) throws(Errno) -> [DeviceReport] {
        let udev = try Udev()
        var reports: [DeviceReport] = []
        var exclusive: Set<String> = []
        for node in try udev.enumerateInput() where node.isEventNode {
            let r = report(node, udev: udev, configuration: configuration)
            if r.inUse, configuration.rule(for: node.matchDescription, syspath: node.syspath)?.exclusive == true {
                exclusive.insert(r.syspath)
            }
            reports.append(r)
        }
        markTwins(&reports) { exclusive.contains($0.syspath) }
        return reports.sorted { a, b in
            if a.udevTouchscreen != b.udevTouchscreen { return a.udevTouchscreen }
            return (a.devnode ?? a.syspath).numericallyLess(than: b.devnode ?? b.syspath)
        }
    }

    /// Marks the twins gestured makes of exclusive devices: a virtual (uinput)
    /// touchscreen with the name and IDs of another one that `isExclusive` and
    /// is real, or virtual too and made before it (a lower `inputN`). The
    /// daemon never reads its own twin; the compositor does.
    static func markTwins(_ reports: inout [DeviceReport], isExclusive: (DeviceReport) -> Bool) {
        let virtual = "/sys/devices/virtual/"
        func inputNumber(_ r: DeviceReport) -> Int {
            for part in r.syspath.split(separator: "/").reversed() where part.hasPrefix("input") {
                if let n = Int(part.dropFirst(5)) { return n }
            }
            return Int.max
        }
        let originals = reports.filter { isExclusive($0) }
        guard !originals.isEmpty else { return }
        for i in reports.indices where reports[i].syspath.hasPrefix(virtual) && reports[i].udevTouchscreen {
            let r = reports[i]
            let original = originals.first { o in
                o.syspath != r.syspath && o.name == r.name && o.vendorProduct == r.vendorProduct
                    && (!o.syspath.hasPrefix(virtual) || inputNumber(o) < inputNumber(r))
            }
            if let o = original {
                reports[i].skipped = .exclusiveTwin(of: o.devnode ?? o.syspath)
                reports[i].sizeMM = nil
                reports[i].sizeSource = nil
                reports[i].rotation = nil
            }
        }
    }

    static func report(_ node: InputNode, udev: Udev, configuration: Configuration) -> DeviceReport {
        let (matrix, invalid) = CalibrationMatrix.of(node)
        var r = DeviceReport(
            devnode: node.devnode, syspath: node.syspath, name: node.name,
            vendorProduct: node.matchDescription.vendorProduct, skipped: nil,
            calibration: matrix, invalidCalibration: invalid,
            udevTouchscreen: node.flag("ID_INPUT_TOUCHSCREEN"))
        if let skip = DeviceSelection.check(node, configuration: configuration) {
            r.skipped = skip
            return r
        }
        let evdev: EvdevDevice
        do { evdev = try EvdevDevice(node: node, udev: udev) } catch {
            r.skipped = .cannotOpen(
                error.errno == .permissionDenied
                    ? "\(error): gesturectl devices opens each node itself, and you may not (as root it can); what the running gestured uses: gesturectl status"
                    : error.description)
            return r
        }
        defer { evdev.close() }
        let d = evdev.description
        r.name = d.name
        r.typeA = evdev.isTypeA
        r.slots = d.slotCount
        if let skip = DeviceSelection.check(d) {
            r.skipped = skip
            return r
        }
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
