import Exposure
import Foundation
import PTPIP
import PTPIPCodec
import Shooting
import SonyCamera
import TestSupport
import Testing
import Timing

@testable import ShootKit

/// Where a series' schedule stands, computed in one place from the clocks a front end hands in: the wall-clock
/// time since the first start, times the schedule's factor (the binary's time-scale hook, given as a value).
@Suite struct SeriesClocksTests {
    typealias PlainMessages = SeriesResumptionTests.PlainMessages

    static let firstStart = SeriesResumptionTests.firstStart

    @Test(arguments: [1, 10])
    func theOffsetIsTheWallClockTimeSinceTheFirstStartTimesTheFactor(factor: Int) throws {
        let record = try #require(SeriesResumptionTests.journal().series)
        let clocks = SeriesClocks(wallClock: .fixed(Self.firstStart.addingTimeInterval(20.5)), factor: factor)
        #expect(clocks.offset(in: record) == .milliseconds(20_500) * factor)
        // Before the first start (a clock set back), the offset is negative, not clamped: the schedule is ahead.
        let early = SeriesClocks(wallClock: .fixed(Self.firstStart.addingTimeInterval(-3)), factor: factor)
        #expect(early.offset(in: record) == .seconds(-3) * factor)
    }

    /// Without a clock of its own, the schedule waits on the continuous clock at the same speed-up as its offset.
    @Test func theScheduleWaitsOnTheContinuousClockAtItsFactor() {
        #expect(SeriesClocks().clock is ContinuousClock)
        #expect((SeriesClocks(factor: 10).clock as? ScaledClock<ContinuousClock>)?.factor == 10)
    }

    /// A series of 5 repetitions every 60 s, resumed 20 s of wall-clock time after its first start with
    /// `--skip-missed`: at real time one start passed (repetition 2 is next, at 60 s); on a schedule 10 times
    /// faster 200 s have passed, so four starts passed and repetition 5 (at 240 s) is next.
    @Test(arguments: [(1, [1], 2), (10, [1, 2, 3, 4], 5)])
    func aResumedSeriesStartsWhereTheScaledScheduleStands(factor: Int, skipped: [Int], next: Int) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = JournalStore(directory: folder.url)
        let journal = SeriesResumptionTests.journal()
        try await store.create(journal)
        let controller = ShootController(messages: PlainMessages())
        let resumed = try await controller.resumeSeries(
            journal,
            clocks: SeriesClocks(wallClock: .fixed(Self.firstStart.addingTimeInterval(20)), factor: factor),
            request: ResumeRequest(skipMissed: true), followsCamera: false, store: store, mayAsk: false)
        guard case .start(let start) = resumed else {
            Issue.record("nothing to resume: \(resumed)")
            return
        }
        #expect(start.resumption.start.number == next)
        #expect(start.resumption.start.at == .seconds(60 * (next - 1)))
        #expect(start.resumption.skipping == skipped)
        #expect(start.resumption.missed == .skipped(missed: skipped))
    }

    @Test func aLaunchedSeriesStartsItsScheduleWhereTheClocksSayOnTheirClock() throws {
        let journal = SeriesResumptionTests.journal()
        let record = try #require(journal.series)
        let camera = SonyCamera(
            configuration: SonyCameraConfiguration(
                host: "127.0.0.1", identity: HostIdentity(guid: PTPIPGUID.random(), friendlyName: "hdrshoot-tests")))
        let launch = SeriesLaunch(
            camera: camera, journal: journal, store: JournalStore(directory: URL(fileURLWithPath: "/nonexistent")),
            offered: ShutterScale.third.speeds, planWarnings: [], overhead: 0.5, start: record.schedule.first)
        let now = Self.firstStart.addingTimeInterval(30)
        let clock = TestClock()
        let shoot = SeriesShoot(
            launch, configuration: BracketRunner.Configuration(outputDirectory: URL(fileURLWithPath: "/nonexistent")),
            clocks: SeriesClocks(wallClock: .fixed(now), factor: 4, clock: clock))
        #expect(shoot.elapsed == .seconds(120))
        #expect((shoot.clock as? TestClock) === clock)
        #expect(shoot.wallClock.now() == now)
    }
}
