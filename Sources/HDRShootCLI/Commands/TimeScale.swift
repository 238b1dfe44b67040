import CameraTunnel
import Foundation
import LegacyCamera
import ShootKit
import Shooting
import SonyCamera
import Timing

/// `$HDRSHOOT_TIME_SCALE`, a test hook: the time a shoot spends for the camera's sake runs N times faster, to
/// match a simulator started with `hdrshoot simulate --time-scale N` (whose own time runs as fast).
///
/// N times shorter: a BULB hold (the simulator measures it N times longer, so the image records the exposure), the
/// wait for the Long Exposure NR dark frame after a long exposure,
/// the settle after connecting and after a release, the grace before a file is fetched behind a release that
/// shows nothing yet, the pauses before asking a busy body again, the waits
/// between connection and reconnection attempts, a series' schedule (its clock, and the time since its first
/// start as `resume` reads it), and the built-in simulator's time (`--camera simulator`).
///
/// N times shorter, but never below `shortestMargin`: the margins a body gets to process an image (`margin(_:)`),
/// which are the body's time too: SonyCamera's 10 s before a release that showed nothing counts as ignored, the
/// Camera Remote API's 30 s for a picture, the runner's 10 s before a frame whose image never came is shot
/// again, and the 5 s a shutter speed set (2 s a notch step) waits for the read-back to show it. `shortestMargin` is 2 s unless
/// `$HDRSHOOT_SHORTEST_MARGIN` says less: a test whose body never shows what the margin waits for (a release that
/// fires nothing) waits out each margin in a fraction of the time. Bounds that guard against a silent camera (operation and transfer timeouts) stay real, so a loaded host
/// is no reason to fail. The end-to-end tests use it so a 40 s BULB frame or a series every 20 s takes a tenth of
/// that.
struct TimeScale: Sendable, Equatable {
    /// The environment variable.
    static let variable = "HDRSHOOT_TIME_SCALE"
    /// The largest factor accepted.
    static let maximum = 1000
    /// The environment variable that lowers `shortestMargin` (a test hook beside `variable`).
    static let shortestMarginVariable = "HDRSHOOT_SHORTEST_MARGIN"
    /// The shortest a processing margin gets on the hook by default: 2 s of real time is a hundred times what the
    /// simulator needs to answer on loopback, so a busy host does not turn a slow answer into an ignored release.
    static let defaultShortestMargin: Duration = .seconds(2)
    /// Real time.
    static let real = TimeScale(factor: 1)

    /// How many times faster (1 is real time).
    let factor: Int
    /// The shortest a processing margin gets on the hook (`defaultShortestMargin` unless the environment says
    /// less).
    let shortestMargin: Duration

    /// The scale `factor`, its margins not below `shortestMargin`.
    init(factor: Int, shortestMargin: Duration = Self.defaultShortestMargin) {
        self.factor = factor
        self.shortestMargin = shortestMargin
    }

    /// The scale of `$HDRSHOOT_TIME_SCALE` (real time when it is unset or empty), its margins not below
    /// `$HDRSHOOT_SHORTEST_MARGIN` (`200ms`, `0.5s`: more than 0, at most the default 2 s) when that is set.
    init(environment: [String: String]) throws(CameraCommandError) {
        var shortest = Self.defaultShortestMargin
        if let text = environment[Self.shortestMarginVariable], !text.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let margin = ShootConsole.parseDuration(text), margin > .zero, margin <= Self.defaultShortestMargin
            else { throw .badShortestMargin(text) }
            shortest = margin
        }
        guard let text = environment[Self.variable], !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            self = .real
            return
        }
        guard let factor = Self.parse(text) else { throw .badTimeScale(text) }
        self.init(factor: factor, shortestMargin: shortest)
    }

    /// A whole number from 1 to `maximum`, or nil.
    static func parse(_ text: String) -> Int? {
        guard let factor = Int(text.trimmingCharacters(in: .whitespaces)), (1...maximum).contains(factor) else {
            return nil
        }
        return factor
    }

    /// The scale of this process's environment, checked when the camera was configured (real time if it is bad).
    static var current: TimeScale { (try? TimeScale(environment: ProcessInfo.processInfo.environment)) ?? .real }

    /// The clock scaled time runs on: the continuous clock, `factor` times faster.
    var clock: any Clock<Duration> { continuousClock(scaledBy: factor) }

    /// A series' schedule clocks on this scale: the time of day of `wallClock`, the schedule `factor` times faster
    /// (ShootKit computes where the schedule stands from them).
    func seriesClocks(wallClock: WallClock) -> SeriesClocks { SeriesClocks(wallClock: wallClock, factor: factor) }

    /// `real` (time that passed on the wall clock) in scaled time.
    func scaled(_ real: Duration) -> Duration { real * factor }

    /// `policy` with its pauses between reconnection attempts shortened (its overall timeout stays real).
    func shortened(_ policy: ReconnectPolicy) -> ReconnectPolicy {
        ReconnectPolicy(delays: policy.delays.map { $0 / factor }, timeout: policy.timeout)
    }

    /// A body's processing margin `margin`, `factor` times shorter but not below `shortestMargin` (nor above
    /// `margin`).
    func margin(_ margin: Duration) -> Duration {
        factor == 1 ? margin : min(margin, max(margin / factor, shortestMargin))
    }

    /// The settings of a bracket runner on this scale. A shoot's runner waits on the real clock (`onScaledClock`
    /// false), a series' on `clock`; either way its busy and reconnection pauses are `factor` times shorter in
    /// real time, its image-never-came margin is `margin(_:)` of real time, and the reconnect timeout stays real.
    func runnerConfiguration(
        outputDirectory: URL, reconnectTimeout: Duration, bufferLimit: Int, downloads: Bool = true,
        onScaledClock: Bool
    ) -> BracketRunner.Configuration {
        let idleMargin = margin(BracketRunner.Configuration.defaultIdleMargin)
        let reconnect = ReconnectPolicy.standard(timeout: reconnectTimeout)
        guard onScaledClock else {
            return .init(
                outputDirectory: outputDirectory, idleMargin: idleMargin, busyRetry: shortened(.busy),
                reconnect: shortened(reconnect), bufferLimit: bufferLimit, downloads: downloads)
        }
        // On the scaled clock the pauses shrink by themselves; the margin and the timeout are lengthened to stay
        // what they are in real time.
        return .init(
            outputDirectory: outputDirectory, idleMargin: scaled(idleMargin), busyRetry: .busy,
            reconnect: ReconnectPolicy(delays: reconnect.delays, timeout: scaled(reconnectTimeout)),
            bufferLimit: bufferLimit, downloads: downloads)
    }

    /// `policy` with its pauses before each retry of a busy body shortened (its number of attempts stays).
    func shortened(_ policy: RetryPolicy) -> RetryPolicy {
        RetryPolicy(maxAttempts: policy.maxAttempts, delays: policy.delays.map { $0 / factor })
    }

    /// Shortens the PTP/IP camera's waits for the body's sake.
    func apply(to configuration: inout SonyCameraConfiguration) {
        guard factor > 1 else { return }
        configuration.timeScale = factor
        configuration.connectBackoff = configuration.connectBackoff.map { $0 / factor }
        configuration.startupReleaseSettle /= factor
        configuration.releaseSettle /= factor
        // How long a release may show nothing before a file is fetched behind it: the body's usual time to show it.
        configuration.fetchBehindGrace /= factor
        configuration.busyRetry = shortened(configuration.busyRetry)
        configuration.startupBusyPauses =
            configuration.startupBusyPauses.lowerBound / factor...configuration.startupBusyPauses.upperBound / factor
        configuration.processingMargin = margin(configuration.processingMargin)
        // The body's time to show a set speed in its read-back (a body that takes no set while images wait never
        // shows it): a margin like the others.
        configuration.shutterConfirmTimeout = margin(configuration.shutterConfirmTimeout)
        // And its time to show a notch step (2 s: a margin at its floor on the hook unless the floor is lowered).
        configuration.stepConfirmTimeout = margin(configuration.stepConfirmTimeout)
        // The photographer's two minutes at the pairing screen, so a test sees the wait end.
        configuration.pairingWait /= factor
        configuration.pairingTick /= factor
    }

    /// Shortens the waits before an SSH tunnel that closed during a shoot is opened again (a connection retry).
    func apply(to configuration: inout SSHTunnelConfiguration) {
        guard factor > 1 else { return }
        configuration.reopenWaits = configuration.reopenWaits.map { $0 / factor }
    }

    /// Shortens the Camera Remote API camera's waits for the body's sake.
    func apply(to configuration: inout LegacySonyCameraConfiguration) {
        guard factor > 1 else { return }
        configuration.timeScale = factor
        configuration.connectBackoff = configuration.connectBackoff.map { $0 / factor }
        configuration.setRetry = shortened(configuration.setRetry)
        configuration.processingMargin = margin(configuration.processingMargin)
        configuration.shutterConfirmTimeout = margin(configuration.shutterConfirmTimeout)
    }
}
