import GestureConfig

/// What the config loader says of `text` read as `file`: its problems, none when it loads.
func configErrors(_ text: String, file: String) -> [ConfigError] {
    do {
        _ = try ConfigLoader.load(text: text, file: file)
        return []
    } catch { return error.errors }
}

/// The same for raw bytes (text that may not be UTF-8).
func configErrors(bytes: [UInt8], file: String) -> [ConfigError] {
    do {
        _ = try ConfigLoader.load(bytes: bytes, file: file)
        return []
    } catch { return error.errors }
}

/// The problems as a user reads them: "FILE:LINE: KEY: message".
func configMessages(_ text: String, file: String) -> [String] {
    configErrors(text, file: file).map(\.description)
}
