import Foundation
import LegacyCamera
import PTPIP
import PTPIPCodec
import Shooting
import SonyCamera
import Testing

@testable import CameraTunnel
@testable import HDRShootCLI

/// `$HDRSHOOT_TIME_SCALE`, the test hook that makes the waits for the camera's sake N times shorter (the
/// end-to-end tests pair it with `simulate --time-scale N`), and what it leaves alone.
@Suite("The time-scale test hook: HDRSHOOT_TIME_SCALE and simulate --time-scale")
struct TimeScaleTests {
    @Test func unsetOrEmptyIsRealTime() throws {
        #expect(try TimeScale(environment: [:]) == .real)
        #expect(try TimeScale(environment: [TimeScale.variable: " "]) == .real)
    }

    @Test func aFactorShortensTheHoldTheSettlesTheRetriesAndTheMarginsButNotTheTimeouts() throws {
        let scale = try TimeScale(environment: [TimeScale.variable: "10"])
        #expect(scale.factor == 10)
        #expect(scale.scaled(.milliseconds(450)) == .milliseconds(4500))
        var camera = SonyCameraConfiguration(
            host: "127.0.0.1", identity: HostIdentity(guid: PTPIPGUID.random(), friendlyName: "hdrshoot-tests"))
        let untouched = camera
        TimeScale.real.apply(to: &camera)
        #expect(camera.timeScale == 1 && camera.startupReleaseSettle == untouched.startupReleaseSettle)
        scale.apply(to: &camera)
        #expect(camera.timeScale == 10)
        #expect(camera.connectBackoff == [.milliseconds(200), .milliseconds(500), .seconds(1)])
        #expect(camera.startupReleaseSettle == .milliseconds(300) && camera.releaseSettle == .milliseconds(100))
        #expect(untouched.fetchBehindGrace == .milliseconds(500) && camera.fetchBehindGrace == .milliseconds(50))
        #expect(camera.busyRetry == RetryPolicy(maxAttempts: 3, delays: [.milliseconds(50), .milliseconds(100)]))
        #expect(camera.startupBusyPauses == .milliseconds(50) ... .milliseconds(200))
        // The body's processing margin shrinks too, but not below 2 s of real time.
        #expect(untouched.processingMargin == .seconds(10) && camera.processingMargin == .seconds(2))
        // So does its time to show a set speed in the read-back (5 s: a tenth would be below the floor).
        #expect(untouched.shutterConfirmTimeout == .seconds(5) && camera.shutterConfirmTimeout == .seconds(2))
        #expect(untouched.stepConfirmTimeout == .seconds(2) && camera.stepConfirmTimeout == .seconds(2))
        #expect(
            camera.operationTimeout == untouched.operationTimeout && camera.transferTimeout == untouched.transferTimeout
        )
        var legacy = try LegacySonyCameraConfiguration(url: "http://127.0.0.1:8080")
        scale.apply(to: &legacy)
        #expect(
            legacy.timeScale == 10 && legacy.connectBackoff == [.milliseconds(200), .milliseconds(500), .seconds(1)])
        #expect(legacy.callTimeout == .seconds(10))
        #expect(legacy.processingMargin == .seconds(3))
        #expect(legacy.shutterConfirmTimeout == .seconds(2))
        #expect(legacy.setRetry.maxAttempts == 10 && legacy.setRetry.delays.first == .milliseconds(10))
    }

    @Test func aFactorShortensTheWaitsBeforeAClosedSSHTunnelIsOpenedAgainButNotItsLogin() throws {
        let tools = SSHTools(ssh: "/usr/bin/ssh", keyscan: "/usr/bin/ssh-keyscan", keygen: "/usr/bin/ssh-keygen")
        var tunnel = SSHTunnelConfiguration(
            host: "127.0.0.1", user: "root", knownHosts: KnownHostsFile(path: "/nonexistent/known_hosts"),
            tools: tools, askpassProgram: "/bin/false")
        let untouched = tunnel
        TimeScale.real.apply(to: &tunnel)
        #expect(tunnel.reopenWaits == [.seconds(1), .seconds(2), .seconds(5)])
        try TimeScale(environment: [TimeScale.variable: "10"]).apply(to: &tunnel)
        #expect(tunnel.reopenWaits == [.milliseconds(100), .milliseconds(200), .milliseconds(500)])
        #expect(tunnel.loginTimeout == untouched.loginTimeout && tunnel.keepAliveSeconds == untouched.keepAliveSeconds)
    }

    @Test func aRunnerOnEitherClockWaitsTheSameRealTimes() {
        let folder = URL(fileURLWithPath: "/tmp/shoot")
        let real = TimeScale.real.runnerConfiguration(
            outputDirectory: folder, reconnectTimeout: .seconds(300), bufferLimit: 16, onScaledClock: false)
        #expect(real.idleMargin == .seconds(10) && real.busyRetry == .busy && real.reconnect == .standard)
        let scale = TimeScale(factor: 10)
        // A shoot's runner, on the real clock: the pauses shortened, the margin 2 s, the timeout as asked.
        let shoot = scale.runnerConfiguration(
            outputDirectory: folder, reconnectTimeout: .seconds(300), bufferLimit: 16, onScaledClock: false)
        #expect(shoot.idleMargin == .seconds(2))
        #expect(shoot.busyRetry.delays == [.milliseconds(50), .milliseconds(100)])
        #expect(
            shoot.reconnect
                == ReconnectPolicy(
                    delays: [.milliseconds(200), .milliseconds(500), .seconds(1)], timeout: .seconds(300)))
        // A series' runner, on the clock ten times faster: the same real times, counted on that clock.
        let series = scale.runnerConfiguration(
            outputDirectory: folder, reconnectTimeout: .seconds(300), bufferLimit: 16, onScaledClock: true)
        #expect(series.idleMargin == .seconds(20) && series.busyRetry == .busy)
        #expect(series.reconnect == ReconnectPolicy(delays: ReconnectPolicy.standard.delays, timeout: .seconds(3000)))
    }

    @Test func aProcessingMarginShrinksByTheFactorButNotBelowTwoSecondsNorAboveItself() {
        #expect(TimeScale.real.margin(.seconds(10)) == .seconds(10))
        #expect(TimeScale(factor: 3).margin(.seconds(10)) == Duration.seconds(10) / 3)
        #expect(TimeScale(factor: 10).margin(.seconds(30)) == .seconds(3))
        #expect(TimeScale(factor: 1000).margin(.seconds(10)) == .seconds(2))
        #expect(TimeScale(factor: 10).margin(.seconds(1)) == .seconds(1))
    }

    @Test func theShortestMarginVariableLowersTheFloorOnlyOnTheHook() throws {
        let environment = [TimeScale.variable: "50", TimeScale.shortestMarginVariable: "200ms"]
        let scale = try TimeScale(environment: environment)
        #expect(scale == TimeScale(factor: 50, shortestMargin: .milliseconds(200)))
        #expect(scale.margin(.seconds(10)) == .milliseconds(200) && scale.margin(.seconds(30)) == .milliseconds(600))
        #expect(TimeScale(factor: 50).margin(.seconds(10)) == .seconds(2))
        var camera = SonyCameraConfiguration(
            host: "127.0.0.1", identity: HostIdentity(guid: PTPIPGUID.random(), friendlyName: "hdrshoot-tests"))
        scale.apply(to: &camera)
        #expect(camera.processingMargin == .milliseconds(200) && camera.shutterConfirmTimeout == .milliseconds(200))
        #expect(camera.stepConfirmTimeout == .milliseconds(200))
        let runner = scale.runnerConfiguration(
            outputDirectory: URL(fileURLWithPath: "/tmp/shoot"), reconnectTimeout: .seconds(300), bufferLimit: 16,
            onScaledClock: false)
        #expect(runner.idleMargin == .milliseconds(200))
        // Without the time scale it changes nothing: a real camera keeps its margins.
        let real = try TimeScale(environment: [TimeScale.shortestMarginVariable: "200ms"])
        #expect(real.factor == 1 && real.margin(.seconds(10)) == .seconds(10))
    }

    @Test(arguments: ["0ms", "-1s", "3s", "soon"])
    func aShortestMarginThatIsNotAShorterDurationIsAUsageError(text: String) {
        #expect(throws: CameraCommandError.badShortestMargin(text)) {
            try TimeScale(environment: [TimeScale.variable: "10", TimeScale.shortestMarginVariable: text])
        }
        let report = ErrorReport(CameraCommandError.badShortestMargin(text))
        #expect(report.exitCode == .usage)
        #expect(
            report.message == "HDRSHOOT_SHORTEST_MARGIN='\(text)' is not a margin (a test hook); write a duration "
                + "above 0 and at most 2s, like 200ms, or unset it")
    }

    @Test(arguments: ["0", "-2", "1.5", "fast", "1001"])
    func anythingButAWholeFactorIsAUsageErrorThatShowsTheForm(text: String) async throws {
        #expect(throws: CameraCommandError.badTimeScale(text)) {
            try TimeScale(environment: [TimeScale.variable: text])
        }
        let report = ErrorReport(CameraCommandError.badTimeScale(text))
        #expect(report.exitCode == .usage)
        #expect(
            report.message == "HDRSHOOT_TIME_SCALE='\(text)' is not a time scale (a test hook); write a whole number "
                + "from 1 to 1000, or unset it")
        let simulate = await HDRShoot.runCapturing(["simulate", "--port", "0", "--time-scale", text])
        #expect(simulate.exitCode == 64)
        #expect(simulate.standardError.contains("'\(text)' is not a time scale; write a whole number from 1 to 1000"))
    }
}
