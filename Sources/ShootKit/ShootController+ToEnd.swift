import Foundation
import Shooting

extension ShootController {
    /// Shoots a recorded bracket from its first frame to its end, in the one order: `prepare` (transfer, manifest
    /// writer, the network's hold), the shoot inside the front end's `client` (given the execution, whose transfer
    /// note and Long Exposure NR it may show, it runs its renderer and controls around the work and returns what
    /// the work returned), `conclude` (the camera let go, the last manifest, an unused folder taken away,
    /// finished). Returns how the last run ended. A transfer the body cannot do throws before anything fires.
    package nonisolated func shootToEnd(
        _ prepared: PreparedBracket, settings: BracketSettings, network: NetworkWatch?,
        warn: @escaping @Sendable (String) -> Void,
        client: (
            BracketExecution, _ work: @escaping @Sendable () async -> (ShootResult, ShootJournal)
        ) async -> (ShootResult, ShootJournal) = { await $1() }
    ) async throws -> ShootResult {
        let execution = try await prepare(prepared, settings: settings, network: network, warn: warn)
        let (result, journal) = await client(execution) { await self.shoot(execution, warn: warn) }
        await conclude(execution, result: result, journal: journal)
        return result
    }

    /// Shoots a recorded series to its end: the camera's network (`network`'s SSID) noted in its journal, each
    /// repetition under the network's hold (`note` says a changed reason while paused, `warn` that the watch
    /// stopped or a manifest write failed), the repetitions inside the front end's `client` (its renderer and
    /// controls around the work), then the camera let go and the series concluded (its last update). Returns how
    /// the series ended and its journal as it stands.
    package nonisolated func shootSeriesToEnd(
        _ shoot: SeriesShoot, network: NetworkWatch? = nil, note: @escaping @Sendable (String) -> Void = { _ in },
        warn: @escaping @Sendable (String) -> Void = { _ in },
        client: (_ work: @escaping @Sendable () async -> (SeriesResult, ShootJournal)) async -> (
            SeriesResult, ShootJournal
        ) = { await $0() }
    ) async -> (SeriesResult, ShootJournal) {
        var shoot = shoot
        if let ssid = network?.cameraSSID { shoot.journal.camera.ssid = ssid.description }
        let guardRun: SeriesRunner.RunGuard = { runner, body in
            await NetworkWatch.guarding(runner, with: network, note: note, warn: warn, body)
        }
        let series = shoot
        let (result, final) = await client { await self.shootSeries(series, guardRun: guardRun, warn: warn) }
        await shoot.camera.disconnect()
        await concludeSeries(result, journal: final)
        return (result, final)
    }
}

extension SeriesShoot {
    /// The series a journal step launched, with the runner's settings, on the schedule's `clocks`: it starts where
    /// the schedule stands now (`SeriesClocks.offset(in:)`: about zero for a new series, the time since the first
    /// start for a resumed one).
    package init(_ launch: SeriesLaunch, configuration: BracketRunner.Configuration, clocks: SeriesClocks) {
        guard let record = launch.journal.series else { preconditionFailure("a series journal") }
        self.init(
            camera: launch.camera, journal: launch.journal, store: launch.store, offered: launch.offered,
            planWarnings: launch.planWarnings, start: launch.start, skipping: launch.skipping,
            continuing: launch.continuing, configuration: configuration, elapsed: clocks.offset(in: record),
            clock: clocks.clock, wallClock: clocks.wallClock)
    }
}
