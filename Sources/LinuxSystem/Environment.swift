import Glibc

/// The process environment as a dictionary, read from `environ` (no Foundation).
public func processEnvironment() -> [String: String] {
    var result: [String: String] = [:]
    var p = environ
    while let entry = p.pointee {
        let s = String(cString: entry)
        if let eq = s.firstIndex(of: "=") {
            result[String(s[..<eq])] = String(s[s.index(after: eq)...])
        }
        p += 1
    }
    return result
}
