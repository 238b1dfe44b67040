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

    @Test func aLiteralNeedsNoLookupAndLocalhostResolvesFromTheHostsFile() async throws {
        #expect(try await SocketAddress.resolve(host: "[::1]", port: 15740).map(\.description) == ["[::1]:15740"])
        // /etc/hosts answers for localhost: no query leaves the machine.
        let local = try await SocketAddress.resolve(host: "localhost", port: 8080)
        #expect(!local.isEmpty)
        #expect(local.allSatisfy { $0.host == "127.0.0.1" || $0.host == "::1" }, "\(local)")
        #expect(local.allSatisfy { $0.port == 8080 })
    }
}
