import GestureProtocol

/// The environment an `--exec` command gets for one event: GESTURE_NAME, _KIND,
/// _STATE, _TIME, _DEVICE, _FINGERS, _X_MM, _Y_MM (location_mm), _X, _Y
/// (location, 0…1), and every other field of the event upper-cased:
/// scalars as GESTURE_<FIELD> (GESTURE_TAPS, GESTURE_RADIUS_MM, GESTURE_REASON),
/// pairs as GESTURE_<FIELD>_X / _Y with a unit suffix kept last
/// (translation_mm → GESTURE_TRANSLATION_X_MM, velocity_mm_s → GESTURE_VELOCITY_X_MM_S).
/// Only keys made of `a`–`z`, `0`–`9` and `_` become variables: a daemon's line
/// decides no other name (`PATH=`, `LD_PRELOAD`-like tricks need `=` or upper
/// case, a name with `=` or NUL would corrupt the environment block).
public enum EventEnvironment {
    public static func variables(for event: JSONValue) -> [(String, String)] {
        guard case .object(let fields) = event else { return [] }
        var out: [(String, String)] = []
        for (key, value) in fields where key != "type" && isVariableKey(key) {
            switch (key, value) {
            case ("location_mm", .array(let xy)) where xy.count == 2:
                out.append(("GESTURE_X_MM", text(xy[0])))
                out.append(("GESTURE_Y_MM", text(xy[1])))
            case ("location", .array(let xy)) where xy.count == 2:
                out.append(("GESTURE_X", text(xy[0])))
                out.append(("GESTURE_Y", text(xy[1])))
            case (_, .array(let xy)) where xy.count == 2:
                let (stem, unit) = splitUnit(key)
                out.append(("GESTURE_\(stem)_X\(unit)", text(xy[0])))
                out.append(("GESTURE_\(stem)_Y\(unit)", text(xy[1])))
            case (_, .object), (_, .array):
                out.append(("GESTURE_\(key.uppercased())", value.json))
            default:
                out.append(("GESTURE_\(key.uppercased())", text(value)))
            }
        }
        return out
    }

    /// Whether an event field's key may name a variable: `[a-z0-9_]+`.
    static func isVariableKey(_ key: String) -> Bool {
        !key.isEmpty
            && key.utf8.allSatisfy { b in
                (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
                    || b == UInt8(ascii: "_")
            }
    }

    static func text(_ v: JSONValue) -> String {
        switch v {
        case .string(let s): return s
        case .null: return ""
        default: return v.json
        }
    }

    /// `translation_mm` → ("TRANSLATION", "_MM"); `velocity_mm_s` → ("VELOCITY", "_MM_S").
    static func splitUnit(_ key: String) -> (String, String) {
        let upper = key.uppercased()
        for unit in ["_MM_S", "_MM", "_DEG"] where upper.hasSuffix(unit) {
            return (String(upper.dropLast(unit.count)), unit)
        }
        return (upper, "")
    }
}
