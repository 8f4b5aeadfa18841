import Testing

/// The suites whose tests start and reap child processes. Every runner reaps
/// only its own children (by pid), so they cannot take each other's; they run
/// one at a time all the same, because they time how soon commands start and
/// finish, which a crowd of other children would blur on a loaded machine.
@Suite(.serialized) enum ChildProcesses {}
