import Foundation
import Glibc
import Posix
import Synchronization
import Testing

@Suite("Errno: the system's text, the symbolic name, EINTR retried")
struct ErrnoTests {
    @Test(arguments: [
        (Errno.noSuchFileOrDirectory, "No such file or directory", "ENOENT"),
        (Errno.connectionRefused, "Connection refused", "ECONNREFUSED"),
        (Errno.noSpace, "No space left on device", "ENOSPC"),
        (Errno.wouldBlock, "Resource temporarily unavailable", "EAGAIN"),
        (Errno.noBufferSpace, "No buffer space available", "ENOBUFS")
    ])
    func describesItselfInTheSystemsWordsAndNamesItself(errno: Errno, text: String, name: String) {
        #expect(errno.description == text)
        #expect(errno.name == name)
    }

    @Test func aNumberWithoutANameIsShownAsTheNumber() {
        #expect(Errno(rawValue: 4095).name == "errno 4095")
    }

    @Test func aFailedCallReportsItsErrnoAtOnce() {
        let missing = "/nonexistent-\(getpid())/file"
        #expect(retryingInterrupts { Glibc.open(missing, O_RDONLY) } == .failure(.noSuchFileOrDirectory))
    }

    /// A `read` on an empty pipe blocks; a signal (installed without SA_RESTART) interrupts it with EINTR,
    /// and the wrapper must call it again rather than report the interruption.
    @Test func aCallInterruptedByASignalIsRetried() throws {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        action.sa_flags = 0 // no SA_RESTART: the kernel returns EINTR instead of restarting the read
        sigemptyset(&action.sa_mask)
        var previous = sigaction()
        try #require(sigaction(SIGURG, &action, &previous) == 0)
        defer { sigaction(SIGURG, &previous, nil) }

        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }

        let reader = InterruptibleReader(descriptor: ends[0])
        // A plain pthread, not Foundation's Thread: after a long run of child processes Foundation's own
        // threads (its process monitor) share locks with Thread, and this test must not depend on them.
        var thread = pthread_t()
        let context = Unmanaged.passRetained(reader).toOpaque()
        try #require(
            pthread_create(
                &thread, nil,
                { argument in
                    guard let argument else { return nil }
                    Unmanaged<InterruptibleReader>.fromOpaque(argument).takeRetainedValue().run()
                    return nil
                }, context) == 0)
        defer { pthread_join(thread, nil) }
        let readerThread = reader.waitForThread()
        // Each signal that lands while the thread sits in read(2) makes the wrapper call read again.
        for _ in 0..<10_000 where reader.calls < 2 {
            pthread_kill(readerThread, SIGURG)
            usleep(1_000)
        }
        var byte: UInt8 = 7
        #expect(write(ends[1], &byte, 1) == 1)
        #expect(reader.waitForResult() == .success(1))
        #expect(reader.calls >= 2)
    }
}

/// A thread body that reads one byte through `retryingInterrupts`, counting how often the call was made.
private final class InterruptibleReader: Sendable {
    private struct State {
        var thread: pthread_t?
        var calls = 0
        var result: Result<Int, Errno>?
    }

    private let descriptor: Int32
    private let state = Mutex(State())

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// How many times the wrapper has called read(2) so far.
    var calls: Int { state.withLock { $0.calls } }

    func run() {
        // A thread inherits its creator's signal mask, and the pool threads that run tests block signals.
        var urgent = sigset_t()
        sigemptyset(&urgent)
        sigaddset(&urgent, SIGURG)
        pthread_sigmask(SIG_UNBLOCK, &urgent, nil)
        state.withLock { $0.thread = pthread_self() }
        var byte: UInt8 = 0
        let result = retryingInterrupts {
            state.withLock { $0.calls += 1 }
            return read(descriptor, &byte, 1)
        }
        state.withLock { $0.result = result }
    }

    func waitForThread() -> pthread_t {
        while true {
            if let thread = state.withLock({ $0.thread }) { return thread }
            usleep(1_000)
        }
    }

    func waitForResult() -> Result<Int, Errno> {
        while true {
            if let result = state.withLock({ $0.result }) { return result }
            usleep(1_000)
        }
    }
}
