/// Where hdrshoot's own unstructured tasks and blocking file work run.
///
/// In the field: the cooperative pool for tasks, Dispatch workers and queues for blocking calls, and both
/// task-locals are nil. Two kinds of test bind one of them around the code under test; task-locals are copied
/// into the tasks `Task {}` starts, but an unstructured task does not inherit its creator's executor preference,
/// so every task hdrshoot starts for itself (an event pump, a keepalive, a move that must finish) is created with
/// `Task(executorPreference: TaskPlacement.preferred)`.
/// - The deterministic simulation (Tests/SimulationTests, docs/simulation.md) binds `worldExecutor` for each
///   process life: every task runs on the world's one thread, one job at a time in the order they were enqueued,
///   and blocking work runs inline on it in call order (`runsInline`). Nothing of the process runs while the
///   world looks, and a seed replays exactly.
/// - Lockstep tests (Tests/TestSupport/QuiescentExecutor.swift) bind `executor`: the tasks run on an executor
///   whose idleness the test can see; blocking work still runs on Dispatch, counted by `blockingWorkInFlight`.
package enum TaskPlacement {
    /// The world's single-threaded executor, bound by the simulation around a process life; nil in the field.
    @TaskLocal package static var worldExecutor: (any TaskExecutor)?

    /// An executor a lockstep test watches for idleness; nil in the field.
    @TaskLocal package static var executor: (any TaskExecutor)?

    /// The executor hdrshoot's own unstructured tasks prefer: the world's, else the lockstep test's, else none.
    package static var preferred: (any TaskExecutor)? { worldExecutor ?? executor }

    /// Whether blocking work runs inline, on the calling thread (inside a world: the world's only thread, so
    /// calls keep their order and the world sees no work in flight when it moves its clock).
    package static var runsInline: Bool { worldExecutor != nil }
}
