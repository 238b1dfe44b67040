import ShootKit
import TestSupport
import Testing

@testable import WebRemote

/// The shoot's notes (the network watch's "no neighbour entry" sentence among them) reach the page through
/// `/api/link`: a real controller's `note` updates, followed by the remote, the last three kept.
@Suite struct ControllerRemoteNotesTests {
    @Test func theControllersNotesAreTheLinksNotesTheLastThreeKept() async throws {
        let controller = ShootController(messages: ShootFormRequestTests.Messages())
        let remote = ControllerRemote(messages: ShootFormRequestTests.Messages()) { _ throws(RemoteCommandRefusal) in
        }
        #expect(await remote.link() == nil)
        let following = Task { await remote.follow(controller) }
        // The remote subscribes when its task runs: a note before that is not its to see, so say one until it does.
        let seen = try await eventually {
            controller.note("first")
            return await remote.link()?.notes.last == "first"
        }
        try #require(seen)
        for text in ["Network watch: wlan0 is the camera's access point", "third", "fourth"] { controller.note(text) }
        let arrived = try await eventually { await remote.link()?.notes.last == "fourth" }
        #expect(arrived)
        let health = try #require(await remote.link())
        #expect(health.notes == ["Network watch: wlan0 is the camera's access point", "third", "fourth"])
        // No session log: nothing else is claimed.
        #expect(health.lastOperation == nil && health.reconnects == 0 && health.lines.isEmpty)
        await controller.end()
        await following.value
    }
}
