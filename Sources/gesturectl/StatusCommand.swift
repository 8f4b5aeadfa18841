import ArgumentParser
import GestureClient
import GestureCore
import GestureDaemon
import GestureProtocol
import LinuxSystem

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show gestured's devices, recognizers and clients.")

    @OptionGroup var socket: SocketOption

    @Flag(name: .long, help: "Print the daemon's status reply as one JSON line.")
    var json = false

    func run() throws {
        let c: DaemonConnection
        do { c = try DaemonConnection(path: socket.path) } catch {
            throw CleanExit.message("gesturectl: \(error)", code: 1)
        }
        guard case .line = c.readLine(timeoutMS: 5000), c.send("{\"cmd\":\"status\"}"),
            case .line(let line) = c.readLine(timeoutMS: 5000), let s = try? JSONValue.parse(line),
            s["type"] == .string("status")
        else {
            throw CleanExit.message("gesturectl: no status reply from \(socket.path)", code: 1)
        }
        if json {
            print(line)
            return
        }
        // Names come from devices and config files: escape what a terminal would obey.
        func n(_ v: JSONValue?, max: Int = 200) -> String {
            v.map { sanitizedForLog(EventEnvironmentText.text($0), maxCharacters: max) } ?? "?"
        }
        print(
            "gestured \(n(s["version"])), protocol \(n(s["protocol"])), up \(n(s["uptime_s"])) s, config \(n(s["config"]))"
        )
        if let refused = s["config_refused"] {
            // Whole: it ends with the fix (a config is at most 50 errors of a line each).
            print("config refused at start, recognizing nothing until it is fixed: \(n(refused, max: 16_384))")
        }
        if case .array(let devices)? = s["devices"] {
            print("devices: \(devices.count)")
            for d in devices {
                var size = ""
                if case .array(let xy)? = d["size_mm"], xy.count == 2 { size = "  \(n(xy[0])) × \(n(xy[1])) mm" }
                let turned = d["rotation"].map { $0 == .number(0) ? "" : ", rotated \(n($0))°" } ?? ""
                print("  \(n(d["node"]))  '\(n(d["name"]))'\(size)\(turned)")
            }
        }
        if case .array(let rs)? = s["recognizers"] {
            print(
                "recognizers: "
                    + (rs.isEmpty ? "none" : "")
                    + rs.map { r in
                        let profiles = strings(r["profiles"])
                        let tagged =
                            profiles == ["default"] || profiles.isEmpty ? "" : "; " + profiles.joined(separator: ", ")
                        return "\(n(r["name"])) (\(n(r["kind"]))\(tagged))"
                    }.joined(separator: ", "))
        }
        if let profile = s["profile"] {
            print("profile: \(n(profile))" + (s["paused"] == .bool(true) ? " (paused: no recognizer takes part)" : ""))
        }
        if case .array(let clients)? = s["clients"] {
            let subscribers = clients.filter { $0["subscribed"] == .bool(true) }.count
            print(
                "clients: \(clients.count), subscribers: \(subscribers); events published: \(n(s["events_published"])), subscribers dropped: \(n(s["subscribers_dropped"]))"
            )
            for cl in clients {
                let filter = cl["filter"].map { " filter \(sanitizedForLog($0.json, maxCharacters: 300))" } ?? ""
                let unread = cl["unsent_bytes"].map { ", \(n($0)) bytes unread in the socket" } ?? ""
                print(
                    "  #\(n(cl["id"])) pid \(n(cl["pid"])) uid \(n(cl["uid"]))\(filter) sent \(n(cl["sent"])) queued \(n(cl["queued_lines"])) lines\(unread)"
                )
            }
        }
    }
}

enum EventEnvironmentText {
    static func text(_ v: JSONValue) -> String {
        if case .string(let s) = v { return s }
        return v.json
    }
}
