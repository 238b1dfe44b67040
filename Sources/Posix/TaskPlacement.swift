/// Where hdrshoot's own unstructured tasks and blocking file work run.
///
/// In the field: the cooperative pool for tasks, Dispatch workers and queues for blocking calls. Inside the
/// deterministic simulation (Tests/SimulationTests, docs/simulation.md) a world sets `worldExecutor` for each
/// process life it runs: every task hdrshoot starts (`Task(executorPreference: TaskPlacement.worldExecutor)`)
/// and every task that inherits the life's preference runs on that one thread, one job at a time in the order
/// they were enqueued, and blocking work runs inline on it in call order. Then nothing of the process runs while
/// the world looks, and a seed replays exactly.
package enum TaskPlacement {
    /// The world's single-threaded executor, bound by the simulation around a process life; nil in the field.
    /// A task-local, so `Task {}` copies it into the tasks it starts (they still name it as their preference:
    /// an unstructured task does not inherit its creator's executor preference).
    @TaskLocal package static var worldExecutor: (any TaskExecutor)?

    /// Whether blocking work runs inline, on the calling thread (inside a world: the world's only thread, so
    /// calls keep their order and the world sees no work in flight when it moves its clock).
    package static var runsInline: Bool { worldExecutor != nil }
}
