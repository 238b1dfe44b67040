import Foundation
import ShootKit
import TestSupport
import Testing

@testable import HDRShootCLI

/// `ChosenCamera`, the one place the commands choose their camera, with real command lines parsed against the real
/// specs and a real remembered-camera file: `meter` chooses the camera `run` (and so `run --auto`) would shoot,
/// reached the same way.
@Suite struct ChosenCameraTests {
    /// A config folder whose remembered camera is `remembered` (none when nil), and its store.
    static func store(remembering remembered: String?) throws -> (CameraAddressStore, TemporaryFolder) {
        let folder = try TemporaryFolder(prefix: "hdrshoot-chosen")
        if let remembered {
            let file = folder.url.appendingPathComponent("hdrshoot/last-camera")
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data((remembered + "\n").utf8).write(to: file)
        }
        return (CameraAddressStore(environment: ["XDG_CONFIG_HOME": folder.url.path]), folder)
    }

    /// What `spec`'s command line `arguments` chooses, the way `meter`, `run --auto` and `run` call the chooser.
    static func chosen(
        _ spec: CommandSpec, _ arguments: [String], store: CameraAddressStore
    ) throws -> CameraTarget {
        let parsed = try ArgumentParser.parse(arguments, for: spec)
        return try ChosenCamera.choose(
            given: try ChosenCamera.given(parsed), or: .remembered(store), arguments: parsed,
            noCamera: ShootPreparation.noCamera(command: parsed.command)
        ).target
    }

    static let sshOptions = [
        "--ssh-password-file", "/run/camera-password", "--ssh-fingerprint",
        "SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    ]

    @Test func aRememberedCameraBehindSSHGetsTheSSHOptionsInMeterAsInRun() throws {
        let (store, folder) = try Self.store(remembering: "ssh://camera@192.168.122.1:22")
        defer { folder.remove() }
        let expected = CameraTarget.ssh(
            CameraAddress(host: "192.168.122.1", port: 22),
            SSHConnection.Settings(
                user: "camera", passwordFile: "/run/camera-password",
                fingerprint: "SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", reason: .remembered))
        #expect(try Self.chosen(MeterCommand.spec, Self.sshOptions, store: store) == expected)
        #expect(
            try Self.chosen(RunCommand.spec, ["--auto", "--confirm"] + Self.sshOptions, store: store) == expected)
        #expect(try Self.chosen(CameraCommand.spec, Self.sshOptions, store: store) == expected)
    }

    @Test func noSSHMakesARememberedCameraBehindSSHPlainPTPIPInEveryCommand() throws {
        let (store, folder) = try Self.store(remembering: "ssh://camera@192.168.122.1:22")
        defer { folder.remove() }
        let plain = CameraTarget.address(CameraAddress(host: "192.168.122.1", port: 15740))
        for spec in [MeterCommand.spec, RunCommand.spec, CameraCommand.spec] {
            #expect(try Self.chosen(spec, ["--no-ssh"], store: store) == plain, "\(spec.name)")
        }
    }

    @Test func cameraWinsOverTheRememberedOneAndAPlainRememberedAddressIsKept() throws {
        let (store, folder) = try Self.store(remembering: "192.168.122.1:15740")
        defer { folder.remove() }
        #expect(
            try Self.chosen(MeterCommand.spec, [], store: store)
                == .address(CameraAddress(host: "192.168.122.1", port: 15740)))
        #expect(try Self.chosen(MeterCommand.spec, ["--camera", "simulator"], store: store) == .simulator)
        #expect(
            try Self.chosen(RunCommand.spec, ["--camera", "10.0.0.2:15740"], store: store)
                == .address(CameraAddress(host: "10.0.0.2", port: 15740)))
    }

    @Test func sshOptionsOnARememberedPlainCameraAreRefusedAsOnAPlainCameraGiven() throws {
        let (store, folder) = try Self.store(remembering: "192.168.122.1:15740")
        defer { folder.remove() }
        #expect(throws: UsageError.self) { try Self.chosen(MeterCommand.spec, ["--ssh-user", "camera"], store: store) }
        #expect(throws: UsageError.self) {
            try Self.chosen(
                MeterCommand.spec, ["--camera", "192.168.122.1:15740", "--ssh-user", "camera"], store: store)
        }
    }

    @Test func withNoCameraRememberedTheCommandsOwnLineIsThrown() throws {
        let (store, folder) = try Self.store(remembering: nil)
        defer { folder.remove() }
        let parsed = try ArgumentParser.parse([], for: MeterCommand.spec)
        let meterLine = UsageError(
            "no camera given and none remembered; pass --camera HOST[:PORT], or --camera simulator", command: "meter")
        #expect(throws: meterLine) {
            try ChosenCamera.choose(given: nil, or: .remembered(store), arguments: parsed, noCamera: meterLine)
        }
        #expect(throws: ShootPreparation.noCamera(command: "run")) {
            try Self.chosen(RunCommand.spec, ["--auto"], store: store)
        }
    }

    /// The config file's `[camera HOST]` section is picked for the remembered camera of any kind, as the chooser
    /// picks the camera: a remembered camera behind SSH gets its host's section (it got none: only a plain
    /// remembered address was looked at).
    @Test func theConfigSectionOfARememberedCameraBehindSSHIsItsHosts() async throws {
        for remembered in ["ssh://camera@192.168.122.1:22", "192.168.122.1:15740"] {
            let (_, folder) = try Self.store(remembering: remembered)
            defer { folder.remove() }
            let config = folder.url.appendingPathComponent("hdrshoot/config")
            try Data("frames = 4\n[camera 192.168.122.1]\nframes = 6\n".utf8).write(to: config)
            let state = folder.url.appendingPathComponent("state").path
            let parsed = try ArgumentParser.parse(["--auto", "--state-dir", state], for: RunCommand.spec)
            let defaults = try await ConfigDefaults.resolve(
                for: parsed, environment: ["XDG_CONFIG_HOME": folder.url.path])
            #expect(defaults.section == "192.168.122.1", "\(remembered)")
        }
    }
}
