import Testing

/// The suites whose tests start and reap child processes. `CommandRunner`
/// reaps any child of the process (waitpid(-1)), and swift-testing runs suites
/// side by side in one process: one suite's reaping would take another's
/// children (and a zombie a test waits to see). So these run one at a time.
@Suite(.serialized) enum ChildProcesses {}
