import Foundation
import Posix
import Synchronization

/// A task executor on one thread of its own that knows, as a fact, when none of its jobs is queued or running.
///
/// A test that runs the code under test on it (`withTaskExecutorPreference`, and `TaskPlacement.executor` for
/// the tasks that code starts itself) can tell "everyone is parked" without counting sleepers: every wake-up of
/// a parked task (a clock's `advance`, a doorbell, a socket the I/O loop found ready, a finished blocking call)
/// queues a job here before the waker returns, so an idle executor with no wake-up on its way
/// (`isParked`) stays idle until the test acts. Lockstep (Tests/SonyCameraTests/FieldQuirkSupport.swift) moves its
/// virtual clocks only then.
///
/// `shutDown()` ends the thread; a job that still arrives after it runs on a Dispatch worker.
package final class QuiescentExecutor: TaskExecutor, @unchecked Sendable {
    private struct State {
        var queue: [UnownedJob] = []
        /// Jobs queued or running.
        var pending = 0
        /// Jobs finished so far: a test compares two readings to know that nothing ran in between.
        var finished: UInt64 = 0
        var shuttingDown = false
        var threadEnded = false
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)

    /// Starts the executor's thread.
    package init() {
        let thread = Thread { [self] in self.run() }
        thread.name = "hdrshoot-quiescent"
        thread.start()
    }

    /// Queues `job` on the executor's thread.
    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let ended = state.withLock { state -> Bool in
            if state.threadEnded { return true }
            state.queue.append(job)
            state.pending += 1
            return false
        }
        if ended {
            let executor = asUnownedTaskExecutor()
            DispatchQueue.global().async { job.runSynchronously(on: executor) }
        } else {
            wake.signal()
        }
    }

    /// Whether no job is queued or running now.
    package var isIdle: Bool { state.withLock { $0.pending == 0 } }

    /// Jobs run to the end so far.
    package var jobsFinished: UInt64 { state.withLock { $0.finished } }

    /// Returns once no job is queued or running (at once if none is).
    package func idle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.pending == 0 { return true }
                state.idleWaiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Whether everything that runs here is parked and nothing is on its way to wake it: no job queued or
    /// running, no blocking call in flight (`runBlocking`), no socket ready that the I/O loop has not handed
    /// over yet. What remains can only be woken by the test: a clock it moves, a request it sends.
    package var isParked: Bool {
        isIdle && blockingWorkInFlight.load(ordering: .sequentiallyConsistent) == 0
            && !IOEventLoop.shared.hasWakeupsInFlight && isIdle
    }

    /// Ends the thread once its queue is empty; later jobs run on Dispatch workers.
    package func shutDown() {
        state.withLock { $0.shuttingDown = true }
        wake.signal()
    }

    private func run() {
        let executor = asUnownedTaskExecutor()
        while true {
            wake.wait()
            while let job = next() {
                job.runSynchronously(on: executor)
                let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                    state.pending -= 1
                    state.finished += 1
                    guard state.pending == 0 else { return [] }
                    defer { state.idleWaiters.removeAll() }
                    return state.idleWaiters
                }
                for waiter in waiters { waiter.resume() }
            }
            let ended = state.withLock { state -> Bool in
                guard state.shuttingDown, state.queue.isEmpty else { return false }
                state.threadEnded = true
                return true
            }
            if ended { return }
        }
    }

    private func next() -> UnownedJob? {
        state.withLock { state in state.queue.isEmpty ? nil : state.queue.removeFirst() }
    }
}
