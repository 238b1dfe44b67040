import CameraSimulator
import Exposure
import NetworkMonitor
import PTPIP
import Posix
import ShootKit
import SonyCamera
import Testing

@testable import HDRShootCLI
@testable import Shooting

/// `ErrorReport`: every error the commands can end with, its one line and its exit code (the README table).
@Suite("ErrorReport (the one error map)")
struct ErrorReportTests {
    /// One row of the table: an error, the exit code it must give, and words its line must hold.
    struct Row: Sendable, CustomTestStringConvertible {
        let error: any Error & Sendable
        let exitCode: Int32
        let says: String
        let command: String?

        init(_ error: any Error & Sendable, _ exitCode: Int32, says: String, command: String? = nil) {
            self.error = error
            self.exitCode = exitCode
            self.says = says
            self.command = command
        }

        var testDescription: String { "\(says) -> \(exitCode)" }
    }

    /// An error no table knows: a bug.
    struct Unlisted: Error {}

    static let refused = PTPIPError.connectionRefused(address: "127.0.0.1:1")

    static let rows: [Row] = [
        Row(UsageError("'x' is not a duration", command: "run"), 64, says: "'x' is not a duration"),
        Row(
            SonyCameraError.connectFailed(address: "127.0.0.1:1", attempts: 3, last: refused), 69,
            says: "could not connect to the camera at 127.0.0.1:1 after 3 attempts"),
        Row(
            SonyCameraError.unreachable(
                address: "10.9.9.9:15740", underlying: .hostUnreachable(address: "10.9.9.9:15740")), 69,
            says: "is this computer on the camera's Wi-Fi network"),
        Row(
            SonyCameraError.connectionLost(during: "GetDeviceInfo", underlying: .peerClosed(during: "GetDeviceInfo")),
            69,
            says: "lost the connection to the camera during GetDeviceInfo"),
        Row(SonyCameraError.unsupportedMode(current: "A"), 69, says: "turn the mode dial to M"),
        Row(SonyCameraError.captureTimedOut(waited: .seconds(30)), 1, says: "no image arrived within 30 s"),
        Row(
            SonyCameraError.descriptionUnreadable(.timedOut(address: "10.0.0.5:64321")), 69,
            says: "the camera at 10.0.0.5:64321 did not answer in time during HTTP GET of the device description"),
        Row(
            SonyCameraError.descriptionUnreadable(.transport(refused)), 69,
            says: "the camera at 127.0.0.1:1 refused the connection"),
        Row(ShootingError.unsupportedMode(.aperturePriority), 69, says: "mode dial is on A"),
        // A mode the camera names is said by its name (the ILCE-6000's iAuto, 0x8000), never by its code.
        Row(
            ShootingError.unsupportedMode(.other(code: 0x8000, name: "Intelligent Auto")), 69,
            says: "mode dial is on Intelligent Auto; turn it to M"),
        Row(ShootingError.unsupportedMode(.other(code: 0x1234)), 69, says: "mode dial is on mode 0x1234"),
        Row(
            JournalError.diskFull(path: "/state/x.json"), 1,
            says: "no space left to write the shoot journal /state/x.json"),
        Row(
            JournalError.inUse(path: "/state/x.lock", processID: 42), 75,
            says: "being shot by hdrshoot (pid 42) right now"),
        Row(JournalError.noStateDirectory, 64, says: "pass --state-dir DIR", command: "status"),
        Row(
            SimulatorError.cannotListen(host: "127.0.0.1", port: 15740, reason: "address already in use"), 69,
            says: "cannot listen on 127.0.0.1:15740"),
        Row(
            SimulatorError.invalidValue(option: "--mode", value: "Q", expected: "M, A, S or P"), 64,
            says: "'Q' is not valid for --mode"),
        Row(
            ShootPreparationError.cannotRecord(stateDirectory: "/state", cause: .diskFull(path: "/state/x.json")), 1,
            says: "cannot record the shoot in the state folder /state (no space left on the device)"),
        Row(
            OutputFolderError.holdsAnotherShoot(
                path: "/out", occupant: .shoot(id: "20261122-000000-abcd", status: "complete")), 64,
            says:
                "the folder /out already holds the finished shoot 20261122-000000-abcd; pass --output with a new folder",
            command: "run"),
        Row(
            ShootPreparationError.blocked([.camera("the mode dial is on A")]), 69,
            says: "the camera cannot shoot now: the mode dial is on A"),
        Row(ShootCommandError.needsConfirmation, 64, says: "pass --confirm", command: "run"),
        Row(
            ResumeError.nothingToResume(stateDirectory: "/state"), 1,
            says: "there is no unfinished shoot in /state to resume; start one with `hdrshoot run`"),
        Row(ResumeError.shootComplete(id: "x"), 1, says: "shoot x is complete; there is nothing left to shoot"),
        Row(ShootPreparationError.declined, 1, says: "not confirmed; nothing was shot"),
        Row(refused, 69, says: "the camera at 127.0.0.1:1 refused the connection"),
        Row(
            PTPIPError.timedOut(address: "10.0.0.5:15740", during: "connect"), 69,
            says: "the camera at 10.0.0.5:15740 did not answer in time during connect"),
        Row(PTPIPError.malformed(.unknownPacketType(99)), 1, says: "unknown PTP/IP packet type 99"),
        Row(PTPIPError.invalidState("an operation before connect"), 70, says: "invalid state"),
        Row(
            NetworkMonitorError.system(operation: "socket", errno: .permissionDenied), 69,
            says: "netlink is not available here: socket failed with EACCES"),
        Row(
            NetworkMonitorError.interfaceNotFound("route to 192.168.122.1"), 69,
            says: "no network interface for the route to 192.168.122.1"),
        Row(NetworkMonitorError.eventsLost, 75, says: "netlink events were lost"),
        Row(CancellationError(), 75, says: "cancelled"),
        Row(Unlisted(), 70, says: "hdrshoot failed unexpectedly; please report this")
    ]

    @Test(arguments: rows)
    func everyErrorGetsItsLineAndExitCode(_ row: Row) {
        let report = ErrorReport(row.error, command: row.command)
        #expect(report.exitCode.rawValue == row.exitCode)
        #expect(report.message.contains(row.says), "\(report.message)")
        #expect(!report.message.contains("\n"))
        #expect(!report.message.contains("Error") && !report.message.contains("Unlisted"))
        // Usage errors, and only they, get the `--help` hint line.
        #expect((report.hint != nil) == (row.exitCode == 64))
    }

    @Test func aStateFolderThatCannotTakeANewShootDoesNotSendThePhotographerToResume() {
        let report = ErrorReport(
            ShootPreparationError.cannotRecord(stateDirectory: "/state", cause: .diskFull(path: "/state/x.json")))
        #expect(!report.message.contains("resume"))
        #expect(report.message.contains("--state-dir"))
    }

    @Test func printingWritesOneErrorLineAndTheHintForUsageErrors() {
        let output = CapturedOutput()
        let code = ErrorReport(UsageError("bad", command: "camera")).print(to: output)
        #expect(code == .usage)
        #expect(output.standardError == "error: bad\nRun 'hdrshoot camera --help' for usage.\n")
        #expect(output.standardOutput.isEmpty)
    }

    /// A shoot's end and the exit status it gives.
    struct StopRow: Sendable, CustomTestStringConvertible {
        let reason: StopReason?
        let capturedThisRun: Int
        let exitCode: Int32
        var testDescription: String {
            (reason.map { "\($0.kind)" } ?? "complete") + " after \(capturedThisRun) -> \(exitCode)"
        }
    }

    static let stops: [StopRow] = [
        StopRow(reason: nil, capturedThisRun: 15, exitCode: 0),
        StopRow(reason: .stopRequested, capturedThisRun: 0, exitCode: 75),
        StopRow(reason: .cancelled, capturedThisRun: 3, exitCode: 75),
        StopRow(
            reason: .reconnectGaveUp(
                attempts: 4, lastError: SonyCameraError.connectFailed(address: "a", attempts: 1, last: refused)),
            capturedThisRun: 0, exitCode: 75),
        // The mode dial turned mid-shoot: resumable. The camera could not shoot its first frame: unavailable.
        StopRow(reason: .failed(SonyCameraError.unsupportedMode(current: "A")), capturedThisRun: 4, exitCode: 75),
        StopRow(reason: .failed(SonyCameraError.unsupportedMode(current: "A")), capturedThisRun: 0, exitCode: 69),
        StopRow(
            reason: .failed(SonyCameraError.captureTimedOut(waited: .seconds(30))), capturedThisRun: 0, exitCode: 75),
        StopRow(
            reason: .recordingFailed(JournalError.diskFull(path: "/state/x.json")), capturedThisRun: 2, exitCode: 1),
        StopRow(reason: .failed(Unlisted()), capturedThisRun: 2, exitCode: 70)
    ]

    @Test(arguments: stops)
    func aStoppedShootIsResumableUnlessItsJournalFailedOrItsCameraNeverShot(_ row: StopRow) {
        let result = ShootResult(
            saved: row.capturedThisRun, total: 15, savedThisRun: row.capturedThisRun, resumePosition: nil,
            stopReason: row.reason)
        #expect(ErrorReport.exitCode(for: result).rawValue == row.exitCode)
    }

    /// A stopped shoot's line on standard error, as a bracket and as a series between repetitions print it.
    struct StopLineRow: Sendable, CustomTestStringConvertible {
        let reason: StopReason
        let bracket: String?
        let series: String?
        var testDescription: String { "\(reason.kind)" }
    }

    static let stopLines: [StopLineRow] = [
        StopLineRow(reason: .stopRequested, bracket: nil, series: nil),
        StopLineRow(
            reason: .cancelled, bracket: "The frame in flight was abandoned; `hdrshoot resume` shoots it again.",
            series: nil),
        StopLineRow(
            reason: .reconnectGaveUp(
                attempts: 4, lastError: SonyCameraError.connectFailed(address: "a", attempts: 1, last: refused)),
            bracket:
                "error: lost the camera and could not reconnect within 5 min after 4 attempts (last: connection "
                + "refused); check that the camera is on and in 'Ctrl w/ Smartphone'; `hdrshoot resume` will continue "
                + "once the camera is back",
            series:
                "error: lost the camera and could not reconnect within 5 min after 4 attempts (last: connection "
                + "refused); check that the camera is on and in 'Ctrl w/ Smartphone'; `hdrshoot resume` will continue "
                + "once the camera is back"),
        StopLineRow(
            reason: .recordingFailed(JournalError.diskFull(path: "/state/x.json")),
            bracket:
                "error: no space left to write the shoot journal /state/x.json; free some space, then run `hdrshoot resume`",
            series:
                "error: no space left to write the shoot journal /state/x.json; free some space, then run `hdrshoot resume`"
        ),
        StopLineRow(
            reason: .failed(ShootingError.unsupportedMode(.aperturePriority)),
            bracket: "error: the camera's mode dial is on A; turn it to M (manual) or S (shutter priority)",
            series: "error: the camera's mode dial is on A; turn it to M (manual) or S (shutter priority)")
    ]

    @Test(arguments: stopLines)
    func aStoppedShootSaysWhyInOneLineOrNotAtAll(_ row: StopLineRow) {
        #expect(row.reason.stopLine(reconnectTimeout: .seconds(300), frameInFlight: true) == row.bracket)
        #expect(row.reason.stopLine(reconnectTimeout: .seconds(300), frameInFlight: false) == row.series)
        #expect(!row.reason.cliMessage.contains("\n") && !row.reason.cliMessage.isEmpty)
    }
}
