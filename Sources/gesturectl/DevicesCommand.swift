import ArgumentParser
import Foundation
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
        func str(_ s: String?) -> Any { s.map { $0 as Any } ?? NSNull() }
        let objects: [[String: Any]] = reports.map { r in
            [
                "node": str(r.devnode),
                "syspath": r.syspath,
                "name": r.name,
                "id": r.vendorProduct,
                "in_use": r.inUse,
                "skipped": str(r.skipped?.code),
                "reason": str(r.skipped?.description),
                "udev_touchscreen": r.udevTouchscreen,
                "size_mm": r.sizeMM.map { [$0.x, $0.y] as Any } ?? NSNull(),
                "size_source": str(r.sizeSource?.rawValue),
                "rotation": r.rotation.map { $0.rawValue as Any } ?? NSNull(),
                "slots": r.slots.map { $0 as Any } ?? NSNull(),
                "type_a": r.typeA,
                "calibration": r.calibration,
                "invalid_calibration": str(r.invalidCalibration),
            ]
        }
        let data =
            (try? JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys]))
            ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
