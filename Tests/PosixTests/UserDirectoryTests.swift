import Testing

@testable import Posix

/// The one XDG resolver: the spec's rules for both kinds of folder.
@Suite("UserDirectory (XDG Base Directory)")
struct UserDirectoryTests {
    @Test(arguments: UserDirectory.allCases)
    func theVariableWinsWhenAbsoluteElseHome(kind: UserDirectory) {
        let home = ["HOME": "/home/ann"]
        #expect(kind.path(environment: home) == "/home/ann/\(kind.homeRelative)/hdrshoot")
        #expect(kind.path("x", environment: home.merging([kind.variable: "/xdg/"]) { $1 }) == "/xdg/hdrshoot/x")
        // Empty or relative: ignored, as the spec says.
        #expect(kind.path(environment: home.merging([kind.variable: ""]) { $1 }) == kind.path(environment: home))
        #expect(kind.path(environment: home.merging([kind.variable: "rel"]) { $1 }) == kind.path(environment: home))
        #expect(kind.path(environment: ["HOME": ""]) == nil)
        #expect(kind.path(environment: [:]) == nil)
    }

    @Test func theFoldersAreTheSpecsDefaults() {
        #expect(UserDirectory.config.path("config", environment: ["HOME": "/h"]) == "/h/.config/hdrshoot/config")
        #expect(UserDirectory.state.path("logs", environment: ["HOME": "/h"]) == "/h/.local/state/hdrshoot/logs")
    }
}
