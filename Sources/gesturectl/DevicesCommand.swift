import ArgumentParser
import FoundationEssentials
import GestureCore
import GestureDaemon
import GestureTools
import LinuxInput

struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract:
            "List input event nodes: the touchscreens gestured uses, with size, slots and calibration, and why the others are skipped."
    )

    @OptionGroup var config: ConfigOption

    @Flag(name: .long, help: "Print a JSON array instead of a table.")
    var json = false

    @Flag(name: .long, help: "Also list nodes that are not touchscreens (keyboards, mice…).")
    var all = false

    @Flag(name: .long, help: "Only the nodes gestured would use; exit status 1 when there is none.")
    var inUse = false

    func run() throws {
        let configuration = try config.load()
        var reports: [DeviceReport]
        do { reports = try DeviceSurvey.run(configuration: configuration) } catch {
            throw CleanExit.message("gesturectl devices: cannot list input devices through udev: \(error)", code: 1)
        }
        // Touchscreens it could not open: with --in-use, "none found" would be
        // wrong about them.
        let unopened = reports.filter { r in
            if r.udevTouchscreen, case .cannotOpen? = r.skipped { return true }
            return false
        }.count
        if inUse {
            reports = reports.filter(\.inUse)
        } else if !all && !json {
            reports = reports.filter { r in
                if r.udevTouchscreen || r.inUse { return true }
                switch r.skipped {
                case .pen?, .deniedByConfig?: return true
                default: return false
                }
            }
        }
        if json {
            print(jsonArray(reports))
        } else if reports.isEmpty && unopened > 0 {
            print(
                "no touchscreen that could be opened here: \(unopened) touchscreen(s) could not be (plain gesturectl devices says why; what the running gestured uses: gesturectl status)"
            )
        } else if reports.isEmpty {
            print("no touchscreen found\(all ? "" : " (--all lists every input node)")")
        } else {
            print(DeviceSurvey.table(reports))
        }
        if inUse && reports.isEmpty { throw ExitCode(1) }
    }

    func jsonArray(_ reports: [DeviceReport]) -> String {
        if reports.isEmpty { return "[]" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(reports.map(DeviceJSON.init))) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// One device of `devices --json`, every key present (null when unknown).
private struct DeviceJSON: Encodable {
    let report: DeviceReport
    init(_ report: DeviceReport) { self.report = report }

    enum Key: String, CodingKey {
        case node, syspath, name, id, in_use, skipped, reason, udev_touchscreen, size_mm, size_source, rotation, slots,
            type_a, calibration, invalid_calibration
    }

    func encode(to encoder: any Encoder) throws {
        let r = report
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(r.devnode, forKey: .node)
        try c.encode(r.syspath, forKey: .syspath)
        try c.encode(r.name, forKey: .name)
        try c.encode(r.vendorProduct, forKey: .id)
        try c.encode(r.inUse, forKey: .in_use)
        try c.encode(r.skipped?.code, forKey: .skipped)
        try c.encode(r.skipped?.description, forKey: .reason)
        try c.encode(r.udevTouchscreen, forKey: .udev_touchscreen)
        try c.encode(r.sizeMM.map { [$0.x, $0.y] }, forKey: .size_mm)
        try c.encode(r.sizeSource?.rawValue, forKey: .size_source)
        try c.encode(r.rotation?.rawValue, forKey: .rotation)
        try c.encode(r.slots, forKey: .slots)
        try c.encode(r.typeA, forKey: .type_a)
        try c.encode(r.calibration, forKey: .calibration)
        try c.encode(r.invalidCalibration, forKey: .invalid_calibration)
    }
}
