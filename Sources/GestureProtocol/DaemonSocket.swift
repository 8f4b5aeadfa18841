/// Where the daemon listens and who may connect, as both sides know it
/// (docs/PROTOCOL.md, "Permissions").
public enum DaemonSocket {
    /// The socket's path when neither `--socket` nor `$GESTURED_SOCKET` names another.
    public static let defaultPath = "/run/gestured/events.sock"
    /// The group whose members may connect (the socket is mode 0660).
    public static let defaultGroup = "gestured"
}
