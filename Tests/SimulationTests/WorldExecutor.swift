import Foundation
import Synchronization

/// The world's one thread: a `TaskExecutor` that runs the jobs of every task of the simulated process, one at a
/// time, in the order they were enqueued (docs/simulation.md, "How deterministic it is").
///
/// Each process life runs with this executor as its task preference (`withTaskExecutorPreference`, which child
/// tasks and default actors follow) and as `TaskPlacement.worldExecutor` (which the tasks hdrshoot starts name as
/// their preference, and which makes blocking file work run inline). So nothing of the process runs while the
/// world's driver, itself a job on this executor, looks: when the driver finds the queue empty, every task waits
/// for the clock or for the body, and the world moves one or the other. The order of jobs is a function of the
/// seed alone, whatever the machine's load.
final class WorldExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` and `stopped` are touched only under `condition`'s lock.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var head = 0
    private var stopped = false
    /// Jobs run so far (a figure for the timeline: the same seed runs the same number).
    private let ran = Atomic<Int>(0)

    init(name: String) {
        let thread = Thread { [self] in runJobs() }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Jobs waiting to run (the one running now is not counted).
    var queued: Int {
        condition.lock()
        defer { condition.unlock() }
        return jobs.count - head
    }

    /// Jobs run since the executor started.
    var jobsRun: Int { ran.load(ordering: .relaxed) }

    /// Ends the thread once the jobs queued now have run; a job enqueued later never runs (the world is over).
    func shutDown() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func runJobs() {
        while true {
            condition.lock()
            while head == jobs.count && !stopped { condition.wait() }
            if head == jobs.count {
                condition.unlock()
                return
            }
            let job = jobs[head]
            head += 1
            if head > 1024 && head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            condition.unlock()
            ran.add(1, ordering: .relaxed)
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
