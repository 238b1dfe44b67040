import Foundation
import TestSupport
import Testing

/// `hdrshoot run` on what the body offers, as built binaries against `hdrshoot simulate`: a body without
/// 1/8000, and bulb frames in S mode.
@Suite("End-to-end shoots on a limited body (built binary against hdrshoot simulate)", .realTime, .serialized)
struct EndToEndCameraRangeTests {
    @Test func aPlanFrom8000OnA4000BodyIsPlannedFrom4000AndShootsNoExposureTwice() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let (result, fired) = try await sandbox.withSimulator(extra: ["--max-shutter", "1/4000"]) { port in
            try await sandbox.hdrshoot(
                ["run", "--shadow", "1/500", "--highlight", "1/8000", "--camera", "127.0.0.1:\(port)", "--confirm"]
                    + sandbox.shootArguments)
        }
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(
            result.standardOutput.contains(
                "warning: the camera's fastest speed is 1/4000: the plan starts at 1/4000 instead of the highlight reading "
                    + "1/8000, so the brightest highlights may clip (1 EV)"), "\(result.standardOutput)")
        #expect(!result.standardOutput.contains("not available on this camera"))
        #expect(fired == ["1/4000", "1/2000", "1/1000", "1/500", "1/250"])
        #expect(Set(fired).count == fired.count)
        #expect(result.standardOutput.contains("Complete: 5 of 5 exposures saved"))
    }

    @Test func bulbFramesInSModeAreABlockerNamingThemAndNothingIsShot() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let (result, fired) = try await sandbox.withSimulator(extra: ["--mode", "S"]) { port in
            try await sandbox.hdrshoot(
                [
                    "run", "--shadow", "50\"", "--highlight", "15", "--frames", "4", "--ev", "0.3", "--camera",
                    "127.0.0.1:\(port)",
                    "--confirm"
                ] + sandbox.shootArguments)
        }
        #expect(result.exitCode == 69, "\(result.standardError)")
        #expect(
            result.errorLines.first.map(String.init)
                == "error: the camera cannot shoot now: the plan has bulb frames (40\", 50\", 1'); turn the mode dial to M"
        )
        #expect(fired.isEmpty)
    }

    @Test func theConfirmationUsesTheBodysLongExposureNRSetting() async throws {
        let sandbox = try ShootSandbox()
        defer { sandbox.remove() }
        let command =
            ["run", "--shadow", "2", "--highlight", "1/2", "--frames", "3", "--confirm"] + sandbox.shootArguments
        // On the time-scale hook (`ScaledTime`): the body's dark frames and hdrshoot's waits for them, ten times
        // faster; the confirmation's estimate is the plan's, in real time.
        let (on, _) = try await sandbox.withSimulator(
            extra: ["--mode", "S", "--quirk", "lenr"] + ScaledTime.simulatorArguments
        ) { port in
            try await sandbox.hdrshoot(command + ["--camera", "127.0.0.1:\(port)"], environment: ScaledTime.environment)
        }
        #expect(on.exitCode == 0, "\(on.standardError)")
        // 0.5" + 1" + 2" of exposure and 3 × 0.25 s: ~4.3 s; NR (0xD15B on) adds 1" + 2".
        #expect(
            on.standardOutput.contains(
                "Long Exposure NR is on: each frame of 1 s or longer is followed by a dark frame as long: ~7.3 s instead of ~4.3 s"
            ),
            "\(on.standardOutput)")
        // The same body with NR off says nothing about it (a body that does not report 0xD15B gets "assumed on":
        // LongExposureTextTests).
        let quiet = try ShootSandbox()
        defer { quiet.remove() }
        let (off, _) = try await quiet.withSimulator(extra: ["--mode", "S"]) { port in
            try await quiet.hdrshoot(
                ["run", "--shadow", "2", "--highlight", "1/2", "--frames", "3", "--confirm"] + quiet.shootArguments
                    + ["--camera", "127.0.0.1:\(port)"])
        }
        #expect(off.exitCode == 0, "\(off.standardError)")
        #expect(!off.standardOutput.contains("Long Exposure NR"))
    }
}
