import Foundation
import Glibc
import Shooting
import TestSupport
import Testing

/// One process per shoot: `JournalStore.lock(id:)` over real `flock(2)` locks, in this process and in a child.
@Suite(.realTime) struct JournalLockTests {
    @Test func aSecondClaimOnTheSameShootIsRefusedWithTheHoldersPid() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        let first = try await store.lock(id: "20251122-083320-00aa")
        await #expect(throws: JournalError.inUse(path: first.path, processID: getpid())) {
            _ = try await store.lock(id: "20251122-083320-00aa")
        }
        // Another shoot is not affected.
        _ = try await store.lock(id: "20251122-083320-00bb")
        withExtendedLifetime(first) {}
    }

    @Test func releasingTheClaimLetsTheNextProcessTakeIt() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        var first: JournalLock? = try await store.lock(id: "20251122-083320-00aa")
        #expect(first != nil)
        first = nil
        let second = try await store.lock(id: "20251122-083320-00aa")
        #expect(try permissions(of: second.path) == 0o600)
    }

    @Test(.enabled(if: TestHost.flock != nil, "needs util-linux flock"))
    func aKilledHolderLeavesNoStaleClaim() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        try await store.prepare()
        let path = folder.url.appendingPathComponent("20251122-083320-00aa.lock").path
        // A real child holds the same flock(2) lock: the shell opens the file as fd 9, util-linux's flock(1)
        // locks that open file, and the shell becomes `sleep` (same pid) still holding it.
        let script = #"exec 9>>"$0"; flock --exclusive 9; echo held; exec sleep 60"#
        try await BackgroundProcess.with(URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", script, path]) { holder in
            _ = try await holder.waitForLine(timeout: .seconds(10)) { $0 == "held" }
            await #expect(throws: JournalError.inUse(path: path, processID: nil)) {
                _ = try await store.lock(id: "20251122-083320-00aa")
            }
            holder.send(SIGKILL)
            #expect(await holder.waitForExit() == 128 + SIGKILL)
        }
        // The kernel dropped the dead holder's lock: no stale claim.
        _ = try await store.lock(id: "20251122-083320-00aa")
    }
}
