import CSystemd
import GestureDaemon
import Glibc

/// The user in the active session on `seat`, as systemd-logind records it
/// (sd-login reads /run/systemd/seats): nil when no session is active there,
/// the seat does not exist, or logind does not run.
func activeSessionUser(seat: String) -> UInt32? {
    var uid: uid_t = 0
    guard sd_seat_get_active(seat, nil, &uid) >= 0 else { return nil }
    return uid
}

/// The control group `--control-group` names, or by default `gestured-control`
/// when that group exists (the shipped sysusers file creates it).
enum ControlGroupChoice {
    static let defaultName = "gestured-control"

    struct Missing: Error, CustomStringConvertible {
        var name: String
        var description: String { "--control-group \(name): no such group" }
    }

    static func resolve(explicit: String?) throws(Missing) -> ControlRights.Group? {
        let name = explicit ?? defaultName
        if let gid = groupID(name) { return ControlRights.Group(name: name, gid: gid) }
        if let explicit { throw Missing(name: explicit) }
        return nil
    }

    /// getgrnam_r, with room grown as it asks.
    static func groupID(_ name: String) -> UInt32? {
        var size = 1024
        while size <= 1 << 20 {
            var group = Glibc.group()
            var result: UnsafeMutablePointer<Glibc.group>?
            var buffer = [CChar](repeating: 0, count: size)
            let rc = getgrnam_r(name, &group, &buffer, size, &result)
            if rc == ERANGE {
                size *= 4
                continue
            }
            guard rc == 0, result != nil else { return nil }
            return group.gr_gid
        }
        return nil
    }
}
