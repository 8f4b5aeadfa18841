import ArgumentParser
import GestureClient
import GestureCore
import GestureDaemon
import GestureProtocol
import LinuxSystem

/// One request to the running daemon for the commands that change it (rotate,
/// profile, pause, resume): connect, send, and hand back the reply, or exit
/// with the daemon's error on stderr and status 1.
func askDaemon(_ socket: SocketOption, _ request: String, command: String) throws -> (
    hello: JSONValue, reply: JSONValue
) {
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
        var message = "gesturectl \(command): \(text(answer.reply["message"])) (\(code))"
        if code == ProtocolErrorCode.notPermitted.rawValue { message += "\n" + notPermittedHint(command) }
        throw CleanExit.message(message, code: 1)
    }
    return answer
}

/// Who may send the requests that change the daemon, for their --help.
let controlRightsHelp =
    "It changes the daemon for every subscriber: root, the daemon's own user, the user active at "
    + "the touchscreen's seat and members of its control group (gestured-control) may; see gestured(8), CONTROL."

/// What to do when the daemon refuses a request that changes it: who may, and how.
func notPermittedHint(_ command: String) -> String {
    "gesturectl \(command): to change the daemon, run gesturectl as the user logged in at the touchscreen "
        + "while that session is the active one (logging in over ssh is not enough), as root (sudo gesturectl \(command) ...), "
        + "or as a member of the daemon's control group: an administrator adds you with usermod -aG GROUP USER, "
        + "then you log in again (gestured(8), CONTROL)"
}

/// A value from the daemon, as text a terminal shows as it is (names come
/// from devices and config files). Long enough for the daemon's own
/// sentences: a refusal says who may do what.
func text(_ v: JSONValue?) -> String {
    v.map { sanitizedForLog(EventEnvironmentText.text($0), maxCharacters: 1000) } ?? "?"
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
    if json {
        print(reply.json)
        return
    }
    let name = text(reply["profile"])
    if reply["paused"] == .bool(true) {
        print("paused: no recognizer takes part from the next touch on; resume returns to profile \(name)")
    } else {
        let taking = strings(reply["recognizers"])
        print("profile \(name): " + (taking.isEmpty ? "no recognizer takes part" : taking.joined(separator: ", ")))
    }
    if let warning = reply["warning"] { warn("gesturectl: warning: \(text(warning))") }
}
