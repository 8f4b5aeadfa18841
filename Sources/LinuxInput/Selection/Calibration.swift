import GestureCore

/// The udev property `LIBINPUT_CALIBRATION_MATRIX`: six numbers `a b c d e f`,
/// the first two rows of an affine matrix applied in normalised space
/// (see `DeviceGeometry`).
public enum CalibrationMatrix {
    public static let udevProperty = "LIBINPUT_CALIBRATION_MATRIX"

    /// Parses the property the way libinput does (`parse_calibration_property`):
    /// words separated by spaces, the first six used, each made only of digits,
    /// `+`, `-` and `.` (no hex, no exponent, no inf/nan). Anything else makes
    /// the whole property invalid: nil, and the caller warns and uses identity.
    public static func parse(_ text: String) -> [Double]? {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count >= 6 else { return nil }
        var values: [Double] = []
        values.reserveCapacity(6)
        for w in words.prefix(6) {
            guard
                w.utf8.allSatisfy({
                    ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                        || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
                }),
                let v = Double(w), v.isFinite
            else { return nil }
            values.append(v)
        }
        return values
    }

    /// The calibration of a node: its udev property, or identity. A malformed
    /// property is reported through `invalid` (it is the device's udev rules' fault).
    public static func of(_ node: InputNode) -> (matrix: [Double], invalid: String?) {
        guard let text = node.properties[udevProperty] else { return (DeviceGeometry.identity, nil) }
        if let m = parse(text) { return (m, nil) }
        return (DeviceGeometry.identity, text)
    }

    public static func isIdentity(_ m: [Double]) -> Bool { m == DeviceGeometry.identity }
}
