import LinuxSystem

/// Writes to our standard output, all of it (a closed pipe is not an error here).
func writeStandardOutput(_ text: String) {
    try? FileDescriptor.standardOutput.writeAll(text)
}

func writeStandardOutput(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { try? FileDescriptor.standardOutput.writeAll($0) }
}

/// Writes to our standard error, all of it.
func writeStandardError(_ text: String) {
    try? FileDescriptor.standardError.writeAll(text)
}
