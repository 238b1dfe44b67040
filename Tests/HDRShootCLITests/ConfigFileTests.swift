import Foundation
import ShootKit
import TestSupport
import Testing

@testable import HDRShootCLI
@testable import Shooting

/// The defaults file, on the built binary: values fill in what flags leave out, flags win, `[camera ...]`
/// sections apply to their camera, a malformed file is one error line and exit 78, `config --edit` runs $EDITOR.
@Suite("config file defaults (built binary)", .realTime)
struct ConfigFileTests {
    /// A sandbox whose HOME and XDG_CONFIG_HOME are its own temporary folders.
    struct Home {
        let sandbox: ShootSandbox
        var configFile: String { sandbox.root.appendingPathComponent("config/hdrshoot/config").path }

        init() throws { sandbox = try ShootSandbox() }

        /// The children's environment: private HOME, config home and state folder.
        var environment: [String: String] {
            var environment = sandbox.environment
            environment["HOME"] = sandbox.root.appendingPathComponent("home").path
            environment["HDRSHOOT_STATE_DIR"] = sandbox.stateDirectory
            return environment
        }

        /// Writes the config file.
        func write(_ text: String) throws {
            let url = URL(fileURLWithPath: configFile)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }

        /// Runs the binary in the sandbox's root folder.
        func hdrshoot(_ arguments: [String], extra: [String: String] = [:]) async throws -> ProcessResult {
            try await ProcessRunner.run(
                try ProcessRunner.hdrshootBinary(), arguments: arguments,
                environment: environment.merging(extra) { $1 }, currentDirectory: sandbox.root, timeout: .seconds(120))
        }
    }

    static let plan = ["plan", "--shadow", "1/4", "--highlight", "1/1000"]

    @Test func withoutAFileConfigShowsTheBuiltInDefaults() async throws {
        let home = try Home()
        defer { home.sandbox.remove() }
        let result = try await home.hdrshoot(["config"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Config file: \(home.configFile) (none;"))
        for key in ["camera", "frames", "ev", "scale", "order", "dedupe", "longest", "output", "transfer"] {
            let line = result.standardOutput.split(separator: "\n").first { $0.hasPrefix(key + " ") }
            #expect(line?.hasSuffix("  default") == true, "\(key): \(result.standardOutput)")
        }
    }

    @Test func fileValuesFillInAndFlagsWin() async throws {
        let home = try Home()
        defer { home.sandbox.remove() }
        try home.write(
            """
            # my tripod defaults
            frames = 3   # three is enough indoors
            ev = 2
            order = slow-first
            """)
        let planned = try await home.hdrshoot(Self.plan)
        #expect(planned.exitCode == 0, "\(planned.standardError)")
        #expect(planned.standardOutput.contains("  1  4\"    1\"     1/4\n"), "\(planned.standardOutput)")
        #expect(planned.standardOutput.contains("3 sets, 9 exposures"), "\(planned.standardOutput)")
        let flagged = try await home.hdrshoot(Self.plan + ["--frames", "2", "--order", "fast-first"])
        #expect(flagged.standardOutput.contains("  1  1/1000  1/250\n"), "\(flagged.standardOutput)")
        #expect(flagged.standardOutput.contains("5 sets, 10 exposures (6 distinct)"), "\(flagged.standardOutput)")
        let shown = try await home.hdrshoot(["config", "--frames", "2"])
        let lines = shown.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("frames") && $0.contains(" 2 ") && $0.hasSuffix("flag") })
        #expect(lines.contains { $0.hasPrefix("ev") && $0.hasSuffix("\(home.configFile):3") })
        #expect(lines.contains { $0.hasPrefix("order") && $0.contains("slow-first") && $0.hasSuffix(":4") })
        #expect(lines.contains { $0.hasPrefix("scale") && $0.hasSuffix("default") })
    }

    /// Each malformed file: the line it names and the words the message has.
    static let malformed: [(String, Int, String)] = [
        ("frames = 0\n", 1, "frames: '0' is not a frame count; use 2 to 15"),
        ("# ok\nscale = quarter\n", 2, "scale: 'quarter' is not a scale; use third or half"),
        ("ev = 1\nev = 2\n", 2, "ev is already set on line 1"),
        ("frmes = 5\n", 1, "unknown key 'frmes' (did you mean 'frames'?)"),
        ("frames 5\n", 1, "expected 'key = value'"),
        ("[lens 24mm]\n", 1, "unknown section [lens 24mm]"),
        ("[camera ILCE-7M3]\ncamera = simulator\n", 2, "camera cannot be set inside a [camera ...] section"),
        ("camera = simulater\n", 1, "did you mean 'simulator'?"),
        ("longest = 0\n", 1, "longest:"),
        ("transfer = raw\n", 1, "transfer: 'raw' is not a transfer choice; use all, jpeg or none"),
        ("dedupe = maybe\n", 1, "dedupe: 'maybe' is not yes or no"),
        ("output = photos\n", 1, "output: 'photos' is not an absolute folder")
    ]

    @Test(arguments: malformed)
    func aMalformedFileIsOneErrorLineNamingFileAndLineExit78(text: String, line: Int, message: String) async throws {
        let home = try Home()
        defer { home.sandbox.remove() }
        try home.write(text)
        for arguments in [Self.plan, ["config"]] {
            let result = try await home.hdrshoot(arguments)
            #expect(result.exitCode == 78, "\(arguments): \(result.standardError)")
            #expect(result.standardOutput.isEmpty)
            #expect(result.errorLines.count == 1, "\(result.standardError)")
            let first = String(result.errorLines.first ?? "")
            #expect(first.hasPrefix("error: \(home.configFile):\(line): "), "\(first)")
            #expect(first.contains(message), "\(first)")
        }
    }

    @Test func aMalformedFileStopsRunBeforeAnythingConnects() async throws {
        let home = try Home()
        defer { home.sandbox.remove() }
        try home.write("camera = simulator\nframes = 99\n")
        let result = try await home.hdrshoot(
            ["run", "--shadow", "1/60", "--highlight", "1/250", "--confirm", "--output", home.sandbox.outputDirectory])
        #expect(result.exitCode == 78, "\(result.standardError)")
        #expect(result.standardOutput.isEmpty, "\(result.standardOutput)")
        #expect(!result.standardError.contains("Connect"))
        #expect(!FileManager.default.fileExists(atPath: home.sandbox.outputDirectory))
    }

    @Test func aCameraSectionAppliesToItsCameraByAddressOrByTheModelAJournalRecorded() async throws {
        let home = try Home()
        defer { home.sandbox.remove() }
        let store = JournalStore(directory: URL(fileURLWithPath: home.sandbox.stateDirectory))
        try await StatusResumeTests.record(
            "20261120-080000-aaaa", saved: 15, status: .complete, output: home.sandbox.outputDirectory,
            address: "192.168.122.1:15740", in: store)
        try home.write(
            """
            camera = 192.168.122.1
            frames = 4
            [camera 10.0.0.7]
            frames = 6
            [camera ILCE-7M3]
            frames = 3
            """)
        let shown = try await home.hdrshoot(["config"])
        #expect(shown.exitCode == 0, "\(shown.standardError)")
        #expect(shown.standardOutput.contains("Section:     [camera ILCE-7M3] (line 5)"), "\(shown.standardOutput)")
        #expect(shown.standardOutput.contains("\(home.configFile):6"), "\(shown.standardOutput)")
        let byAddress = try await home.hdrshoot(["config", "--camera", "10.0.0.7"])
        let frames = byAddress.standardOutput.split(separator: "\n").first { $0.hasPrefix("frames") }
        #expect(frames?.contains(" 6 ") == true && frames?.hasSuffix(":4") == true, "\(byAddress.standardOutput)")
        let planned = try await home.hdrshoot(Self.plan)
        #expect(planned.standardOutput.contains("  1  1/1000  1/500  1/250\n"), "\(planned.standardOutput)")
    }

    @Test func editOpensTheEditorOnATemplateThenChecksTheFile() async throws {
        let home = try Home()
        defer { home.sandbox.remove() }
        let editor = home.sandbox.root.appendingPathComponent("my editor.sh")
        // A real editor stand-in: records what it was given, then appends a line to the file.
        try Data(
            """
            #!/bin/sh
            printf '%s\\n' "$@" > "$(dirname "$0")/edited-args"
            printf 'frames = %s\\n' "$FRAMES" >> "$1"

            """.utf8
        ).write(to: editor)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: editor.path)
        let quotedEditor = ShellQuote.single(editor.path)
        let edited = try await home.hdrshoot(["config", "--edit"], extra: ["EDITOR": quotedEditor, "FRAMES": "9"])
        #expect(edited.exitCode == 0, "\(edited.standardError)")
        #expect(edited.standardOutput == "\(home.configFile): OK\n")
        let text = try String(contentsOfFile: home.configFile, encoding: .utf8)
        #expect(text.hasPrefix("# hdrshoot defaults"))
        #expect(text.hasSuffix("frames = 9\n"))
        let arguments = try String(
            contentsOf: home.sandbox.root.appendingPathComponent("edited-args"), encoding: .utf8)
        #expect(arguments == home.configFile + "\n")
        let shown = try await home.hdrshoot(["config"])
        #expect(shown.standardOutput.contains(" 9 "), "\(shown.standardOutput)")

        let broken = try await home.hdrshoot(["config", "--edit"], extra: ["EDITOR": quotedEditor, "FRAMES": "1"])
        #expect(broken.exitCode == 78, "\(broken.standardError)")
        #expect(broken.standardError.contains("frames is already set on line"), "\(broken.standardError)")
        let failing = try await home.hdrshoot(["config", "--edit"], extra: ["EDITOR": "false"])
        #expect(failing.exitCode == 78)
        #expect(
            failing.standardError == "error: the editor 'false' exited with status 1; the config file was not checked\n"
        )
    }

    /// The README's first command, with no config file, and with one that names the camera (and the folder).
    @Test func theFreshCloneRunWorksWithoutAFileAndWithOneThatSetsTheCamera() async throws {
        let home = try Home()
        defer { home.sandbox.remove() }
        let readme = ["run", "--shadow", "1/4", "--highlight", "1/1000", "--frames", "5"]
        // The built-in simulator on the time-scale hook: its processing and exposures, 100 times faster (the
        // bracket's 7.75 s of exposures take 78 ms); what is checked is where the shoot goes, not a time.
        let scaled = ScaledTime.environment(factor: 100)
        let plain = try await home.hdrshoot(readme + ["--camera", "simulator", "--confirm"], extra: scaled)
        #expect(plain.exitCode == 0, "\(plain.standardError)")
        #expect(plain.standardOutput.contains("Complete: 15 of 15 exposures saved"))
        let shoots = home.sandbox.root.appendingPathComponent("shoots")
        try home.write("camera = simulator\noutput = \(shoots.path)\n")
        let configured = try await home.hdrshoot(readme + ["--confirm"], extra: scaled)
        #expect(configured.exitCode == 0, "\(configured.standardError)")
        #expect(configured.standardOutput.contains("Complete: 15 of 15 exposures saved"))
        let folders = try FileManager.default.contentsOfDirectory(atPath: shoots.path)
        #expect(folders.count == 1 && folders.first?.hasPrefix("hdrshoot-") == true, "\(folders)")
    }
}
