/// The directory part (`.` for a bare name, `/` for a name at the root) and the
/// last component of `path`.
public func splitPath(_ path: String) -> (directory: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let dir = String(path[..<slash])
    return (dir.isEmpty ? "/" : dir, String(path[path.index(after: slash)...]))
}

/// The directories above the absolute `directory`, nearest first, up to `/`;
/// none for `/` itself or a relative path.
public func ancestors(of directory: String) -> [String] {
    var all: [String] = []
    var d = directory
    while d != "/" && d.hasPrefix("/") {
        d = splitPath(d).directory
        all.append(d)
    }
    return all
}
