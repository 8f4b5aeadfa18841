import ArgumentParser
import GestureClient
import GestureCore
import GestureDaemon
import GestureProtocol
import LinuxSystem

/// One request to the running daemon for the commands that change it (rotate,
/// profile, pause, resume): connect, send, and hand back the reply, or exit
/// with the daemon's error on stderr and status 1.
func askDaemon(_ socket: SocketOption, _ request: String, command: String) throws -> (hello: JSONValue, reply: JSONValue) {
    let c: DaemonConnection
    do { c = try DaemonConnection(path: socket.path) } catch {
        throw CleanExit.message("gesturectl \(command): \(error)", code: 1)
    }
    let answer: (hello: JSONValue, reply: JSONValue)
    do { answer = try c.request(request) } catch {
        throw CleanExit.message("gesturectl \(command): \(error)", code: 1)
    }
    if answer.reply["type"] == .string("error") {
        let code = text(answer.reply["code"])
        throw CleanExit.message("gesturectl \(command): \(text(answer.reply["message"])) (\(code))", code: 1)
    }
    return answer
}

/// A value from the daemon, as text a terminal shows as it is (names come
/// from devices and config files).
func text(_ v: JSONValue?) -> String {
    v.map { sanitizedForLog(EventEnvironmentText.text($0), maxCharacters: 200) } ?? "?"
}

/// The strings of a JSON list.
func strings(_ v: JSONValue?) -> [String] {
    guard case .array(let items)? = v else { return [] }
    return items.map { text($0) }
}

/// A request line: `{"cmd":…}` plus fields already in JSON.
func requestLine(_ cmd: String, _ fields: [(String, String)] = []) -> String {
    var w = JSONWriter()
    w.field("cmd", string: cmd)
    for (k, raw) in fields { w.field(named: k, raw: raw) }
    return w.finish()
}

func quoted(_ s: String) -> String {
    var out = ""
    JSONWriter.appendQuoted(s, to: &out)
    return out
}

/// Prints a `profile` reply (of `profile`, `pause`, `resume`); its warning goes to stderr.
func printProfileReply(_ reply: JSONValue, json: Bool) {
    if json { print(reply.json); return }
    let name = text(reply["profile"])
    if reply["paused"] == .bool(true) {
        print("paused: no recognizer takes part from the next touch on; resume returns to profile \(name)")
    } else {
        let taking = strings(reply["recognizers"])
        print("profile \(name): " + (taking.isEmpty ? "no recognizer takes part" : taking.joined(separator: ", ")))
    }
    if let warning = reply["warning"] { warn("gesturectl: warning: \(text(warning))") }
}
