import Exposure
import Foundation
import Shooting

extension BracketRunner {
    /// A runner for a test: `camera` shooting `plan` on `clock` (virtual time unless the test passes another),
    /// telling `recorder`. The output folder does not exist unless the test passes one: the in-memory and
    /// scripted cameras write no files there.
    package static func testing(
        _ camera: any RemoteCamera, plan: BracketPlan, clock: any Clock<Duration> = TestClock(),
        recorder: any ShootRecorder = NoRecorder(), reconnect: ReconnectPolicy = .standard,
        outputDirectory: URL = URL(fileURLWithPath: "/nonexistent/shoot")
    ) -> BracketRunner {
        BracketRunner(
            camera: camera, plan: plan, configuration: Configuration(outputDirectory: outputDirectory, reconnect: reconnect),
            recorder: recorder, clock: clock)
    }
}

extension SeriesRunner {
    /// A series runner for a test: `camera` on `schedule` on `clock`, planned and recorded by `recorder`, its
    /// first start `elapsed` ago. Each repetition's folder is `<outputDirectory>/rep-NNN`; by default a folder
    /// that does not exist, since the in-memory camera writes no files.
    package static func testing<C: Clock<Duration>>(
        _ camera: any RemoteCamera, schedule: RepetitionSchedule, recorder: any SeriesRecorder, clock: C,
        elapsed: Duration = .zero, outputDirectory: URL = URL(fileURLWithPath: "/nonexistent/series")
    ) -> SeriesRunner {
        SeriesRunner(
            camera: camera, schedule: schedule, configuration: BracketRunner.Configuration(outputDirectory: outputDirectory),
            recorder: recorder, elapsed: elapsed, clock: clock)
    }
}
