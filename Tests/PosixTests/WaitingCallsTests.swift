import Dispatch
import Glibc
import Posix
import Synchronization
import TestSupport
import Testing

@Suite("Waiting calls: readiness of a real pipe, blocking work off the pool, the one resolver")
struct WaitingCallsTests {
    @Test func aPipeIsReadableOnlyOnceSomethingWasWrittenOrItsWriterClosed() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let reader = FileDescriptor(rawValue: ends[0])
        let writer = FileDescriptor(rawValue: ends[1])
        defer { reader.closeIgnoringErrors() }

        #expect(try reader.waitUntilReadable(timeout: .milliseconds(20)) == false)
        try writer.writeAll([0x71])
        #expect(try reader.waitUntilReadable(timeout: .seconds(5)))
        var byte: [UInt8] = [0]
        #expect(try byte.withUnsafeMutableBytes { try reader.read(into: $0) } == 1)
        #expect(byte == [0x71])

        writer.closeIgnoringErrors()
        // End of input counts as readable: the read that follows returns 0.
        #expect(try reader.waitUntilReadable(timeout: .seconds(5)))
        #expect(try byte.withUnsafeMutableBytes { try reader.read(into: $0) } == 0)
    }

    @Test func blockingWorkReturnsItsResultAndItsError() async throws {
        #expect(try await runBlocking { 6 * 7 } == 42)
        await #expect(throws: Errno.noSpace) { try await runBlocking { () throws(Errno) -> Int in throw .noSpace } }
    }

    @Test func cancellingTheCallerOfBlockingWorkReturnsAtOnceWhileTheCallFinishesOnItsWorker() async throws {
        // The work blocks on a real pipe read until the test writes to it, after the caller was cancelled.
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let reader = FileDescriptor(rawValue: ends[0])
        let writer = FileDescriptor(rawValue: ends[1])
        defer {
            reader.closeIgnoringErrors()
            writer.closeIgnoringErrors()
        }
        let finished = Atomic<Bool>(false)
        let caller = Task {
            try await runBlocking {
                var byte: [UInt8] = [0]
                let count = try byte.withUnsafeMutableBytes { try reader.read(into: $0) }
                finished.store(true, ordering: .releasing)
                return count
            }
        }
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(finished.load(ordering: .acquiring) == false)
        try writer.writeAll([1])
        #expect(try await eventually { finished.load(ordering: .acquiring) })
    }

    @Test func workOnASerialQueueAwaitedOrNotCountsAsInFlightUntilItEnds() async throws {
        // A lockstep test calls the code parked only when this count is zero as well as its executor idle: an image
        // file's reservation that ran on its queue uncounted let one cancel a download (SonyCameraFieldTests, CI).
        let queue = DispatchQueue(label: "hdrshoot.test.serial")
        for awaited in [true, false] {
            let started = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let ended = DispatchSemaphore(value: 0)
            let work: @Sendable () -> Void = {
                started.signal()
                release.wait()
            }
            let caller =
                awaited
                ? Task { await runBlocking(on: queue) { () throws(Never) in work() } }
                : Task { runInBackground(on: queue) { work() } }
            #expect(started.wait(timeout: .now() + 10) == .success)
            #expect(blockingWorkInFlight.load(ordering: .sequentiallyConsistent) >= 1, "awaited: \(awaited)")
            release.signal()
            await caller.value
            queue.async { ended.signal() }
            #expect(ended.wait(timeout: .now() + 10) == .success)
        }
    }

    @Test func aLiteralNeedsNoLookupAndLocalhostResolvesFromTheHostsFile() async throws {
        #expect(try await SocketAddress.resolve(host: "[::1]", port: 15740).map(\.description) == ["[::1]:15740"])
        // /etc/hosts answers for localhost: no query leaves the machine.
        let local = try await SocketAddress.resolve(host: "localhost", port: 8080)
        #expect(!local.isEmpty)
        #expect(local.allSatisfy { $0.host == "127.0.0.1" || $0.host == "::1" }, "\(local)")
        #expect(local.allSatisfy { $0.port == 8080 })
    }
}
