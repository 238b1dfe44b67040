import Foundation
import JSON
import PTPIP
import Posix
import SessionLog
import TestSupport
import Testing

@testable import HDRShootCLI

/// `hdrshoot log`, `log show` and `log export` on logs the binary wrote.
@Suite("hdrshoot log", .realTime)
struct LogCommandTests {
    /// A sandbox whose session logs live in its own `XDG_STATE_HOME` and whose `HOME` is its root.
    struct Logged {
        let sandbox: ShootSandbox
        var state: String { sandbox.root.appendingPathComponent("xdg-state").path }
        var extra: [String: String] {
            ["XDG_STATE_HOME": state, "HOME": sandbox.root.path, "HDRSHOOT_CONNECT_BACKOFF": "0s"]
        }

        func hdrshoot(_ arguments: [String]) async throws -> ProcessResult {
            try await sandbox.hdrshoot(arguments, environment: extra)
        }
    }

    @Test func listsEachSessionWithItsCommandCameraOutcomeAndSize() async throws {
        let logged = Logged(sandbox: try ShootSandbox())
        defer { logged.sandbox.remove() }
        let empty = try await logged.hdrshoot(["log"])
        #expect(empty.exitCode == 0)
        #expect(empty.standardOutput.hasPrefix("No session logs in \(logged.state)/hdrshoot/logs"))
        #expect(try await logged.hdrshoot(["camera", "--camera", "simulator"]).exitCode == 0)
        let refused = try await logged.hdrshoot(["camera", "--camera", "127.0.0.1:1"])
        #expect(refused.exitCode != 0)
        let listed = try await logged.hdrshoot(["log"])
        #expect(listed.exitCode == 0)
        let rows = listed.standardOutput.split(separator: "\n")
        #expect(rows.first?.hasPrefix("ID") == true)
        #expect(rows.count == 4, "\(listed.standardOutput)")
        #expect(rows[1].contains("camera") && rows[1].contains("ILCE-7M3") && rows[1].contains(" ok "))
        #expect(rows[2].contains("camera") && rows[2].contains("exit \(refused.exitCode)"))
        #expect(rows[1].hasSuffix("KB"))
    }

    @Test func showMarksTheBusyAnswersAndTheErrorAsShown() async throws {
        let logged = Logged(sandbox: try ShootSandbox())
        defer { logged.sandbox.remove() }
        let (result, _) = try await logged.sandbox.withSimulator(extra: ["--quirk", "busy-at-start:1"]) { port in
            try await logged.hdrshoot(["camera", "--camera", "127.0.0.1:\(port)"])
        }
        #expect(result.exitCode == 0, "\(result.standardError)")
        let shown = try await logged.hdrshoot(["log", "show"])
        #expect(shown.exitCode == 0, "\(shown.standardError)")
        let lines = shown.standardOutput.split(separator: "\n")
        #expect(lines.first?.hasPrefix("Session: camera") == true)
        #expect(
            lines.contains { $0.hasPrefix("!") && $0.contains("SDIO_Connect (0x9201)") && $0.contains("DeviceBusy") })
        #expect(lines.contains { $0.hasPrefix(" ") && $0.contains("GetDeviceInfo (0x1001) -> OK, data in") })
        #expect(lines.last?.hasSuffix("1 error(s)") == true)
        let missing = try await logged.hdrshoot(["log", "show", "no-such-session"])
        #expect(missing.exitCode == 1)
        #expect(missing.errorLines.count == 1)
        #expect(missing.errorLines.first?.contains("matches 'no-such-session'") == true)
    }

    /// The live line redraws itself with `\r ESC[2K`; the timeline shows what stood on the screen instead.
    @Test func showPrintsWhatWasSeenWithoutTerminalControlSequences() throws {
        let lines = [
            #"{"t":0,"kind":"session","command":"run"}"#,
            #"{"t":1.5,"kind":"shown","stream":"out","text":"\r\u001b[2K3/15 saved\r\u001b[2Kwarning: busy\n\u001b[1m4/15\u001b[0m saved \u001b]0;title\u0007"}"#,
            #"{"t":2,"kind":"shown","stream":"out","text":"\r\u001b[2K"}"#
        ].compactMap { JSONValue(json: $0) }
        #expect(lines.count == 3)
        let shown = LogCommand.show(lines)
        #expect(!shown.contains("\u{1B}") && !shown.contains("\r") && !shown.contains("[2K"), "\(shown)")
        #expect(shown.contains("    1.500 s  shown  warning: busy | 4/15 saved\n"), "\(shown)")
        #expect(shown.components(separatedBy: "shown  ").count == 2, "\(shown)")
        #expect(TerminalText.visibleLines("a\u{9B}31mb\u{1B}(B\u{7}c\rX\u{1B}[K") == ["X"])
        #expect(TerminalText.visibleLines("abc\rX\n\n") == ["Xbc"])
    }

    @Test func exportBundlesLogJournalAndManifestWithoutTheHostsAddressesOrNames() async throws {
        let logged = Logged(sandbox: try ShootSandbox())
        defer { logged.sandbox.remove() }
        // The built-in body's image processing 100 times faster (0.4 s of this bracket's real time at 1): what is
        // checked is what the log holds.
        let shot = try await logged.sandbox.hdrshoot(
            ["run", "--camera", "simulator", "--shadow", "1/60", "--highlight", "1/1000", "--frames", "3", "--confirm"]
                + logged.sandbox.shootArguments,
            environment: logged.extra.merging(["HDRSHOOT_TIME_SCALE": "100"]) { $1 })
        #expect(shot.exitCode == 0, "\(shot.standardError)")
        let file = logged.sandbox.root.appendingPathComponent("report.jsonl").path
        let exported = try await logged.hdrshoot(["log", "export", "run", file])
        #expect(exported.exitCode == 0, "\(exported.standardError)")
        #expect(exported.standardOutput.contains("the journal, the manifest"))
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let kinds = text.split(separator: "\n").compactMap { line -> String? in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["kind"] as? String
        }
        #expect(kinds.first == "export")
        #expect(kinds.contains("op") && kinds.contains("journal") && kinds.contains("manifest"))
        #expect(kinds.count == text.split(separator: "\n").count) // every line is JSON
        // The host's own addresses (the simulator's connection ran over 127.0.0.1), its name and home are gone.
        let addresses = try HostInterfaceAddress.current().map(\.address)
        #expect(addresses.contains("127.0.0.1"))
        for address in addresses {
            #expect(!text.contains("\"\(address)") && !text.contains("\(address):"), "\(address)")
        }
        #expect(text.contains("<host-address>:"))
        #expect(!text.contains(logged.sandbox.root.path))
        let host = ProcessInfo.processInfo.hostName
        if host.count >= 3 { #expect(!text.contains(host)) }
        // What describes the body is still there for a replay.
        let replayed = try await logged.hdrshoot(["camera", "--camera", "simulator", "--replay-session", file, "--json"]
        )
        #expect(replayed.exitCode == 0, "\(replayed.standardError)")
        #expect(replayed.standardOutput.contains("\"model\":\"ILCE-7M3\""))
    }

    @Test func exportWithoutAFileIsAUsageError() async throws {
        let logged = Logged(sandbox: try ShootSandbox())
        defer { logged.sandbox.remove() }
        let result = try await logged.hdrshoot(["log", "export"])
        #expect(result.exitCode == 64)
        #expect(result.standardError.contains("'log export' needs the file to write"))
    }
}

/// The rotation limits from the defaults file, on the binary with real files.
@Suite("Session log rotation from the defaults file", .realTime)
struct SessionLogRotationConfigTests {
    @Test func theFilesLimitsRemoveTheOldestAndTheTooOldAtTheNextSession() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let state = sandbox.root.appendingPathComponent("xdg-state").path
        let folder = state + "/hdrshoot/logs"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let now = Date()
        let names = (1...4).map { "20260101-00000\($0)-000-camera.jsonl" }
        let ages: [Double] = [3 * 86_400, 3600, 1800, 60]
        for (name, age) in zip(names, ages) {
            let path = folder + "/" + name
            try Data(repeating: UInt8(ascii: "x"), count: 2000).write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes([.modificationDate: now.addingTimeInterval(-age)], ofItemAtPath: path)
        }
        let config = sandbox.root.appendingPathComponent("config/hdrshoot")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("log-max-size = 5KB\nlog-max-age = 2d\n".utf8).write(to: config.appendingPathComponent("config"))
        let result = try await sandbox.hdrshoot(
            ["camera", "--camera", "simulator"], environment: ["XDG_STATE_HOME": state])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        // The 3-day-old one went for its age, the oldest of the rest for the size; the new session's log came.
        #expect(Array(left.prefix(2)) == Array(names.suffix(2)))
        #expect(left.count == 3)

        try Data("log-max-size = lots\n".utf8).write(to: config.appendingPathComponent("config"))
        let refused = try await sandbox.hdrshoot(
            ["camera", "--camera", "simulator"], environment: ["XDG_STATE_HOME": state])
        #expect(refused.exitCode != 0)
        #expect(refused.errorLines.count == 1)
        #expect(refused.standardError.contains("'lots' is not a size"))
    }
}
