import Foundation
import GestureConfig
import GestureCore

/// Where the daemon's configuration comes from, and loading it (at start and
/// on SIGHUP).
public enum ConfigFile {
    /// `--config FILE`, else `$GESTURED_CONFIG`, else the system file if it
    /// exists; nil means the built-in default.
    public static func resolve(explicit: String?) -> String? {
        if let explicit { return explicit }
        if let env = ProcessInfo.processInfo.environment["GESTURED_CONFIG"], !env.isEmpty { return env }
        return FileManager.default.fileExists(atPath: ConfigLoader.systemPath) ? ConfigLoader.systemPath : nil
    }

    /// Loads and validates; the error text names file:line: key: problem, one
    /// line per problem.
    public static func load(path: String?) -> Result<Configuration, ConfigFailure> {
        guard let path else { return .success(ConfigLoader.builtIn()) }
        guard let data = FileManager.default.contents(atPath: path) else {
            let why = FileManager.default.fileExists(atPath: path) ? "cannot read it (permissions?)" : "no such file"
            return .failure(ConfigFailure(description: "\(path): \(why)"))
        }
        do {
            return .success(try ConfigLoader.load(text: String(decoding: data, as: UTF8.self), file: path))
        } catch {
            return .failure(ConfigFailure(description: error.description))
        }
    }

    public struct ConfigFailure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }
}
