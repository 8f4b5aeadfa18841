extension StringProtocol {
    /// Whether `other` occurs in it, compared character by character as the
    /// string-processing module's `contains(_:)` compares (an empty `other`
    /// occurs in every string). The modules gesture-run is made of do not
    /// import that module (Package.swift, `lean`).
    public func includes(_ other: some StringProtocol) -> Bool {
        if other.isEmpty { return true }
        var i = startIndex
        while i != endIndex {
            if self[i...].starts(with: other) { return true }
            i = index(after: i)
        }
        return false
    }
}
