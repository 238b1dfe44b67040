/// Where the library's own unstructured tasks run: nil (the global pool) except in deterministic tests.
///
/// A `Task {}` does not inherit its creator's task executor preference, so a test that runs the code under
/// test on an executor whose idleness it can see (Tests/TestSupport/QuiescentExecutor.swift) would lose sight
/// of the tasks the code starts for itself (an event pump, a keepalive, a move that must finish). Those tasks
/// are created with `Task(executorPreference: TaskPlacement.executor)`; task-locals are inherited by
/// unstructured tasks, so the test's choice reaches them. In production the value is nil and nothing changes.
package enum TaskPlacement {
    /// The executor the library's unstructured tasks prefer; nil runs them on the global pool.
    @TaskLocal package static var executor: (any TaskExecutor)?
}
